// A session's snapshot (status, events, message count…) as a reactive value. Starts the runtime if it is not
// running yet, so a dock mounted later can no longer bring its own `config`.
import type { SessionSnapshot } from '@plingjs/agent';
import type { ShallowRef } from 'vue';
import type { Pling } from './create-pling.js';
import { useObservable } from './use-observable.js';
import { usePling } from './use-pling.js';

export function useAgentSession(id?: string, pling?: Pling): Readonly<ShallowRef<SessionSnapshot>> {
  return useObservable(usePling(pling).session(id));
}
