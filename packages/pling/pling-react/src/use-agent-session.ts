// The snapshot of one session (status, events, message count, summary), following it as it changes.
import type { SessionSnapshot } from '@plingjs/agent';
import { useMemo } from 'react';
import { useAgentRuntime } from './use-agent-runtime.js';
import { useObservable } from './use-observable.js';

/**
 * The session `id` (default 'default') as a snapshot, or undefined until the runtime exists (the hook does not
 * create it). To send, reset or cancel, use `usePling().session(id)`.
 */
export function useAgentSession(id?: string): SessionSnapshot | undefined {
  const runtime = useAgentRuntime();
  const session = useMemo(() => runtime?.session(id), [runtime, id]);
  return useObservable(session);
}
