// Bridges a Store to Vue: a shallow ref that follows the store's snapshot for the component's lifetime.
import { onScopeDispose, type ShallowRef, shallowRef } from 'vue';
import type { Store } from './model/store.js';

export function useStore<T>(store: Store<T>): Readonly<ShallowRef<T>> {
  const snapshot = shallowRef(store.getSnapshot());
  const stop = store.subscribe(() => {
    snapshot.value = store.getSnapshot();
  });
  onScopeDispose(stop);
  return snapshot;
}
