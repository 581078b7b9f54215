// A session's snapshot (status, events, message count…) as a reactive value. In a component it does not start
// the runtime while the component sets up: it follows the runtime once a dock (or anything else) starts it, and
// starts it itself when the component mounts — so an <AgentDock :config> or :debug rendered after it in the same
// tree still takes part in the runtime's configuration. Outside a component (effectScope) it starts it at once.
import type { SessionSnapshot } from '@plingjs/agent';
import { getCurrentInstance, onMounted, onScopeDispose, type ShallowRef, shallowRef } from 'vue';
import type { Pling } from './create-pling.js';
import { requireScope } from './require-scope.js';
import { useObservable } from './use-observable.js';
import { usePling } from './use-pling.js';

export function useAgentSession(id?: string, pling?: Pling): Readonly<ShallowRef<SessionSnapshot>> {
  const instance = usePling(pling);
  if (instance.started || !getCurrentInstance()) return useObservable(instance.session(id));
  requireScope('useAgentSession', 'pling.session(id).subscribe() and call the unsubscribe it returns');
  // Until the runtime exists the session has nothing yet: idle, no events, no messages.
  const snapshot = shallowRef<SessionSnapshot>(
    Object.freeze({ id: id ?? 'default', status: 'idle', events: [], messageCount: 0, summary: '', continuity: false }),
  );
  let unsubscribe: (() => void) | undefined;
  const follow = () => {
    if (unsubscribe) return;
    const session = instance.session(id);
    snapshot.value = session.getSnapshot();
    unsubscribe = session.subscribe(() => {
      snapshot.value = session.getSnapshot();
    });
  };
  const stopWaiting = instance.onStart(follow);
  onMounted(follow);
  onScopeDispose(() => {
    stopWaiting();
    unsubscribe?.();
  });
  return snapshot;
}
