// PlingProvider puts an app's Pling in React context; usePling() reads it. The Pling is created (and disposed) by
// the host, outside React, so one provider unmounting does not end conversations another part of the page shows.
import { createContext, type ReactNode, useContext } from 'react';
import type { Pling } from './create-pling.js';
import { PlingReactError } from './pling-react-error.js';

const PlingContext = createContext<Pling | null>(null);

export interface PlingProviderProps {
  pling: Pling;
  children?: ReactNode;
}

export function PlingProvider({ pling, children }: PlingProviderProps) {
  return <PlingContext value={pling}>{children}</PlingContext>;
}

/** The Pling of the nearest <PlingProvider>; throws MISSING_PROVIDER outside one. */
export function usePling(): Pling {
  const pling = useContext(PlingContext);
  if (!pling) {
    throw new PlingReactError(
      'MISSING_PROVIDER',
      'usePling(), the Pling hooks and <AgentDock> must be rendered inside <PlingProvider pling={createPling(…)}>. ' +
        'Wrap the part of the app that uses them in the provider.',
    );
  }
  return pling;
}
