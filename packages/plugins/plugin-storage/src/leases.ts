// The LeasesService over a lease table: one holder per name across processes (the database decides), FIFO
// within this process (local waiters of a name queue behind each other, only the head asks the database), a
// heartbeat renewing every held lease at a quarter of the ttl, and a lost lease's signal aborted.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Lease, LeasesService } from '@aalis/api-storage';
import type { Claim, LeaseBackend } from './lease-backends.js';

interface Held {
  controller: AbortController;
}

export interface LeasesOptions {
  ttlMs?: number;
  /** Called when renewing failed (the database is unreachable); leases are lost once they expire. */
  onRenewFailed?(error: unknown): void;
}

export class Leases implements LeasesService {
  readonly ttlMs: number;
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly held = new Map<string, Held>();
  /** Per name: the tail of this process's local queue (each acquirer waits for the one before it). */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly wakers = new Map<string, Set<() => void>>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    private readonly backend: LeaseBackend,
    private readonly options: LeasesOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 4000;
    this.startHeartbeat();
    void backend.onReleased?.((name) => this.wake(name)).catch(() => {});
  }

  abandoned(prefix: string): Promise<string[]> {
    return this.backend.abandoned(prefix);
  }

  async tryAcquire(name: string, { note }: { note?: string } = {}): Promise<Lease | undefined> {
    if (this.held.has(name) || this.tails.has(name) || this.closed) return undefined;
    // Holds this process's queue of the name too, so a local acquire() waits behind it.
    const leave = this.enqueue(name).leave;
    try {
      const claim = await this.backend.claim(name, this.holder, this.ttlMs, note);
      if (claim.acquired) return await this.hold(name, claim, leave, note);
    } catch (error) {
      leave();
      throw error;
    }
    leave();
    return undefined;
  }

  /** Joins this process's queue of a name: `before` settles when the previous local holder let go. */
  private enqueue(name: string): { before: Promise<void>; leave: () => void } {
    const before = this.tails.get(name) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(name, tail);
    return {
      before,
      leave: () => {
        done();
        if (this.tails.get(name) === tail) this.tails.delete(name);
      },
    };
  }

  async acquire(
    name: string,
    { signal, pollMs, note }: { signal?: AbortSignal; pollMs?: number; note?: string } = {},
  ): Promise<Lease | undefined> {
    const { before, leave } = this.enqueue(name);
    try {
      await abortable(before, signal);
      for (;;) {
        if (signal?.aborted || this.closed) {
          leave();
          return undefined;
        }
        const claim = await this.backend.claim(name, this.holder, this.ttlMs, note);
        if (claim.acquired) return await this.hold(name, claim, leave, note);
        await this.pause(name, signal, pollMs ?? this.backend.pollMs);
      }
    } catch (error) {
      leave();
      if (signal?.aborted) return undefined;
      throw error;
    }
  }

  private async hold(name: string, claim: Claim, leave: () => void, note: string | undefined): Promise<Lease> {
    const controller = new AbortController();
    this.held.set(name, { controller });
    let released = false;
    // A backend that cannot write the note with the claim (PostgreSQL) gets it written next, before the lease is
    // handed out, exactly as a caller noting it itself would (a failing note does not undo the claim).
    if (note !== undefined && !claim.noted) await this.backend.note(name, this.holder, note).catch(() => {});
    return {
      name,
      takenOver: claim.takenOver,
      previousHolder: claim.previousHolder,
      lost: controller.signal,
      note: (note) => this.backend.note(name, this.holder, note),
      release: async () => {
        if (released) return;
        released = true;
        if (this.held.get(name)?.controller === controller) this.held.delete(name);
        try {
          if (!controller.signal.aborted) await this.backend.release(name, this.holder);
        } finally {
          leave();
        }
      },
    };
  }

  /** Waits for a release notice, the poll interval, or the signal. */
  private pause(name: string, signal: AbortSignal | undefined, pollMs: number): Promise<void> {
    return new Promise((resolve) => {
      let wakers = this.wakers.get(name);
      if (!wakers) {
        wakers = new Set();
        this.wakers.set(name, wakers);
      }
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        wakers.delete(finish);
        if (wakers.size === 0 && this.wakers.get(name) === wakers) this.wakers.delete(name);
        resolve();
      };
      const timer = setTimeout(finish, pollMs);
      signal?.addEventListener('abort', finish, { once: true });
      wakers.add(finish);
    });
  }

  private wake(name: string): void {
    for (const finish of [...(this.wakers.get(name) ?? [])]) finish();
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0 || this.closed) return;
    // Only the leases held when this renewal began can be missing from its answer because they were lost: one
    // claimed while the UPDATE ran (another pool connection) committed after the UPDATE's snapshot.
    const renewing = new Map(this.held);
    try {
      const still = await this.backend.renew(this.holder, this.ttlMs);
      for (const [name, held] of renewing) {
        if (!still.has(name) && this.held.get(name) === held) {
          this.held.delete(name);
          held.controller.abort();
        }
      }
    } catch (error) {
      this.options.onRenewFailed?.(error);
    }
  }

  private startHeartbeat(): void {
    this.heartbeat = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.ttlMs / 4)));
    this.heartbeat.unref();
  }

  /**
   * Stops renewing without giving anything back, as a process that hangs (or died without closing) does: its leases
   * expire after the ttl and another process may take them over. The seam for tests of takeovers; a running host
   * has no reason to call it.
   */
  pauseHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /**
   * The paused process wakes up: one renewal now (a lease taken over meanwhile is found lost, its signal aborted),
   * then the heartbeat goes on. Resolves after that renewal.
   */
  async resumeHeartbeat(): Promise<void> {
    if (this.closed || this.heartbeat !== undefined) return;
    await this.renew();
    if (!this.closed && this.heartbeat === undefined) this.startHeartbeat();
  }

  /** Stops the heartbeat and gives back every lease still held. */
  async close(): Promise<void> {
    this.closed = true;
    this.pauseHeartbeat();
    for (const name of this.wakers.keys()) this.wake(name);
    const names = [...this.held.keys()];
    this.held.clear();
    await Promise.all(names.map((name) => this.backend.release(name, this.holder).catch(() => {})));
  }
}

async function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) throw signal.reason;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
