// The global cap on concurrent model calls, with a fair queue across rooms: waiting calls are grouped by session
// and served round-robin, so a busy group's calls take turns with every other room's instead of going first by
// number. Per process (each process of a deployment has its own cap).
export class CallGate {
  private active = 0;
  /** Sessions with waiting calls, in the order they are served (a session goes to the back when served). */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly max: number) {}

  get enabled(): boolean {
    return this.max > 0;
  }

  /** Calls in flight now. */
  get running(): number {
    return this.active;
  }

  /** Calls waiting now. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** Resolves when the call may run; release() must follow once it ended. */
  acquire(sessionId: string): Promise<void> {
    if (!this.enabled || this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(sessionId);
      if (queue) queue.push(resolve);
      else this.waiting.set(sessionId, [resolve]);
    });
  }

  release(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.active = Math.max(0, this.active - 1);
      return;
    }
    const [sessionId, queue] = next.value;
    const wake = queue.shift()!;
    // Served: the session goes to the back of the rotation (or leaves it when nothing else of it waits).
    this.waiting.delete(sessionId);
    if (queue.length > 0) this.waiting.set(sessionId, queue);
    wake();
  }
}
