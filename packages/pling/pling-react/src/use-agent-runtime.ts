// The runtime of the provider's Pling once it exists, without creating it: creating it here, during a render,
// would fix its configuration before an <AgentDock config={…}> mounted later in the tree could take part.
import type { AgentRuntime } from '@plingjs/agent';
import { useCallback, useSyncExternalStore } from 'react';
import { usePling } from './pling-provider.js';

/** The runtime, or undefined until something (a dock, `pling.session()`, …) has created it. */
export function useAgentRuntime(): AgentRuntime | undefined {
  const pling = usePling();
  const subscribe = useCallback((listener: () => void) => pling.onStart(listener), [pling]);
  // Without overrides, runtime() only returns the existing runtime once started.
  const getSnapshot = useCallback(() => (pling.started ? pling.runtime() : undefined), [pling]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
