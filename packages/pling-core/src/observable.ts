// The observable shape of the page layer (TanStack Query style, as in @plingjs/agent): subscribe() returns an
// unsubscribe; getSnapshot() returns an immutable value whose identity changes only when something changed.

export type Listener = () => void;

export abstract class Observable<Snapshot> {
  private readonly listeners = new Set<Listener>();
  private cachedSnapshot: Snapshot | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): Snapshot {
    this.cachedSnapshot ??= this.buildSnapshot();
    return this.cachedSnapshot;
  }

  protected abstract buildSnapshot(): Snapshot;

  /** Drops the cached snapshot and tells every listener. */
  protected changed(): void {
    this.cachedSnapshot = undefined;
    for (const listener of [...this.listeners]) listener();
  }
}
