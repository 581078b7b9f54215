// Bridges Pling's observables (subscribe → unsubscribe, getSnapshot with a stable identity) to React with
// useSyncExternalStore. The methods are bound here: passing `model.subscribe` as is would lose its `this`.
import { useCallback, useSyncExternalStore } from 'react';

export interface ObservableSource<Snapshot> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): Snapshot;
}

const noSubscription = () => () => {};

/** The current snapshot of `source` (re-rendering on change), or undefined while there is no source. */
export function useObservable<Snapshot>(source: ObservableSource<Snapshot>): Snapshot;
export function useObservable<Snapshot>(source: ObservableSource<Snapshot> | undefined): Snapshot | undefined;
export function useObservable<Snapshot>(source: ObservableSource<Snapshot> | undefined): Snapshot | undefined {
  const subscribe = useCallback(
    (listener: () => void) => (source ? source.subscribe(listener) : noSubscription()),
    [source],
  );
  const getSnapshot = useCallback(() => source?.getSnapshot(), [source]);
  // The same snapshot on the server: the stores are plain objects, nothing differs between server and client.
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
