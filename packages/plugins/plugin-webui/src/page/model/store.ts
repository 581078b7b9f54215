// The observable shape every view model of the page has (TanStack Query style): subscribe() returns an
// unsubscribe, getSnapshot() returns an immutable value whose identity changes only when something changed.
// Components bridge it to Vue with use-store.ts; tests read snapshots directly.

export type Listener = () => void;

export abstract class Store<Snapshot> {
  private readonly listeners = new Set<Listener>();
  private cached: Snapshot | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): Snapshot {
    this.cached ??= this.buildSnapshot();
    return this.cached;
  }

  protected abstract buildSnapshot(): Snapshot;

  /** Drops the cached snapshot and tells every listener. */
  protected changed(): void {
    this.cached = undefined;
    for (const listener of [...this.listeners]) listener();
  }
}

/** A store whose snapshot is its whole state, replaced (never changed in place) by patches. */
export abstract class StateStore<Snapshot extends object> extends Store<Snapshot> {
  protected state: Snapshot;

  protected constructor(initial: Snapshot) {
    super();
    this.state = initial;
  }

  protected buildSnapshot(): Snapshot {
    return this.state;
  }

  /** The state with `patch` over it; listeners are told. */
  protected set(patch: Partial<Snapshot>): void {
    this.state = { ...this.state, ...patch };
    this.changed();
  }
}
