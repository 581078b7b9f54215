// Bridges any Pling observable (subscribe / getSnapshot: DockModel, AgentSession, Telemetry, Trace) into Vue: a
// shallowRef holding the immutable snapshot, replaced when it changes, unsubscribed when the scope ends.
import { onScopeDispose, type ShallowRef, shallowRef } from 'vue';
import { requireScope } from './require-scope.js';

export interface ObservableSource<Snapshot> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): Snapshot;
}

export function useObservable<Snapshot>(source: ObservableSource<Snapshot>): Readonly<ShallowRef<Snapshot>> {
  requireScope('useObservable', 'source.subscribe() and call the unsubscribe it returns');
  const snapshot = shallowRef(source.getSnapshot());
  // Snapshots change identity only on change, so the ref triggers exactly then.
  const unsubscribe = source.subscribe(() => {
    snapshot.value = source.getSnapshot();
  });
  onScopeDispose(unsubscribe);
  return snapshot;
}
