// Which sessions have a turn running, and the short window in which a divider is written. The divider is appended
// at the end of the history, so it must not land inside a running turn (it would split the turn's messages) nor
// after messages the summary has not read; turns opening during that window wait for it (a single append).

export class SessionActivity {
  private readonly running = new Map<string, number>();
  private readonly idleWaiters = new Map<string, Set<() => void>>();
  private readonly writes = new Map<string, Promise<void>>();

  /** The agent:turn:before middleware: the whole turn runs inside next() (its default action). */
  async aroundTurn(sessionId: string, next: () => Promise<void>): Promise<void> {
    for (let write = this.writes.get(sessionId); write; write = this.writes.get(sessionId)) await write;
    this.running.set(sessionId, (this.running.get(sessionId) ?? 0) + 1);
    try {
      await next();
    } finally {
      this.leave(sessionId);
    }
  }

  isRunning(sessionId: string): boolean {
    return (this.running.get(sessionId) ?? 0) > 0;
  }

  /** Resolves once no turn runs in the session (at once when none does); rejects when `signal` aborts. */
  async idle(sessionId: string, signal?: AbortSignal): Promise<void> {
    while (this.isRunning(sessionId)) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const waiters = this.idleWaiters.get(sessionId) ?? new Set();
        this.idleWaiters.set(sessionId, waiters);
        const onAbort = () => {
          waiters.delete(done);
          reject(signal?.reason);
        };
        const done = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        waiters.add(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    signal?.throwIfAborted();
  }

  /**
   * Waits until no turn runs and no other write is open, then holds new turns back until the returned release is
   * called. The check and the hold happen in the same synchronous step, so no turn can slip in between.
   */
  async holdTurns(sessionId: string, signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      await this.idle(sessionId, signal);
      const open = this.writes.get(sessionId);
      if (open) {
        await open;
        continue;
      }
      if (this.isRunning(sessionId)) continue;
      let release!: () => void;
      const write = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.writes.set(sessionId, write);
      return () => {
        if (this.writes.get(sessionId) === write) this.writes.delete(sessionId);
        release();
      };
    }
  }

  private leave(sessionId: string): void {
    const count = (this.running.get(sessionId) ?? 1) - 1;
    if (count > 0) {
      this.running.set(sessionId, count);
      return;
    }
    this.running.delete(sessionId);
    const waiters = this.idleWaiters.get(sessionId);
    this.idleWaiters.delete(sessionId);
    for (const wake of waiters ?? []) wake();
  }
}
