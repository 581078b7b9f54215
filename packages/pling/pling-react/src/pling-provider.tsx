// PlingProvider puts an app's Pling in React context; usePling() reads it. The Pling is created (and disposed) by
// the host, outside React, so one provider unmounting does not end conversations another part of the page shows.
import { adapterUsageError } from '@plingjs/core';
import { createContext, type ReactNode, useContext } from 'react';
import type { Pling } from './create-pling.js';

const PlingContext = createContext<Pling | null>(null);

export interface PlingProviderProps {
  pling: Pling;
  children?: ReactNode;
}

export function PlingProvider({ pling, children }: PlingProviderProps) {
  return <PlingContext value={pling}>{children}</PlingContext>;
}

/** The Pling of the nearest <PlingProvider>; throws PLING_NOT_PROVIDED outside one. */
export function usePling(): Pling {
  const pling = useContext(PlingContext);
  if (!pling) {
    throw adapterUsageError('PLING_NOT_PROVIDED', (errors) => errors.notProvidedReact);
  }
  return pling;
}
