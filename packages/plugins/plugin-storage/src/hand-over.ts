// The HandOverService over a hand-over table: puts, takes by the lease holder (this process's holder id), notes,
// finishes, and waiting for an outcome — told by NOTIFY (PostgreSQL) or this process's own finish, with one poll
// checking every waited id at once as the safety net (a missed notification cannot hang a waiter).
import type { HandOverItem, HandOverService } from '@aalis/api-storage';
import type { HandOverBackend } from './hand-over-backends.js';

export interface HandOverOptions {
  /** The holder id of this process's LeasesService: items are taken in its name. */
  holder: string;
  /** Finished items are kept this long for late waiters, then purged (default 10 minutes). */
  keepFinishedMs?: number;
}

/** Names remembered as just put (sessions another process owns are never taken here, so the set is bounded). */
const MAX_PUT_NAMES = 10_000;

export class HandOver implements HandOverService {
  private readonly waiters = new Map<number, Set<(outcome: string) => void>>();
  private readonly putListeners = new Set<(name: string, mine: boolean) => void>();
  private readonly signalListeners = new Set<(name: string, text: string) => void>();
  /** Runs only while someone waits for an outcome or listens for puts. */
  private poll: ReturnType<typeof setInterval> | undefined;
  private readonly purge: ReturnType<typeof setInterval>;
  private polling = false;
  private lastPut = 0;
  /**
   * Names this process put an item under since it last took from them: the take that follows (this process placing
   * its own input) need not first look whether anything waits. Only a hint: forgetting it costs one read.
   */
  private readonly putNames = new Set<string>();
  /** SQLite: ids this process put that the put poll has not passed yet. */
  private readonly mine = new Set<number>();
  private closed = false;
  /** Whether this process put or finished anything. */
  private used = false;
  /** Resolves once the NOTIFY listener is in place (PostgreSQL). */
  readonly ready: Promise<void>;

  constructor(
    private readonly backend: HandOverBackend,
    private readonly options: HandOverOptions,
  ) {
    this.ready = backend.listen
      ? backend
          .listen({
            // This process's own puts were told at once (put below).
            put: (name, from) => {
              if (from !== this.options.holder) this.emitPut(name, false);
            },
            finished: (id) => void this.check([id]),
            signal: (name, text) => this.emitSignal(name, text),
            reconnected: () => void this.caughtUp(),
          })
          .catch(() => {})
      : Promise.resolve();
    const keep = options.keepFinishedMs ?? 600_000;
    // Only a process that used the queue purges it (an embedded process that never hands anything over writes nothing).
    this.purge = setInterval(
      () => {
        if (this.used) void backend.purge(keep).catch(() => {});
      },
      Math.min(60_000, keep),
    );
    this.purge.unref();
  }

  async put(name: string, payload: string): Promise<{ id: number }> {
    this.used = true;
    const id = await this.backend.put(name, payload, this.options.holder);
    if (this.putNames.size >= MAX_PUT_NAMES) this.putNames.clear();
    this.putNames.add(name);
    // A process hears of its own puts itself, not by the NOTIFY's echo (skipped) or the SQLite poll: on the next
    // turn of the event loop, so the caller has the id (and can register what waits for it) before listeners act.
    if (this.backend.putSince && this.putListeners.size > 0) this.mine.add(id);
    setImmediate(() => this.emitPut(name, true));
    return { id };
  }

  take(name: string, { limit = 100 }: { limit?: number } = {}): Promise<HandOverItem[]> {
    return this.backend.take(name, this.options.holder, limit, this.putNames.delete(name));
  }

  note(id: number, note: string | undefined): Promise<void> {
    return this.backend.note(id, note);
  }

  async finish(id: number, outcome: string): Promise<void> {
    this.used = true;
    if (await this.backend.finish(id, outcome)) this.resolve(id, outcome);
  }

  async settled(id: number, { signal }: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    if (signal?.aborted) return undefined;
    return new Promise<string | undefined>((resolve, reject) => {
      let waiters = this.waiters.get(id);
      if (!waiters) {
        waiters = new Set();
        this.waiters.set(id, waiters);
      }
      const done = (outcome: string | undefined) => {
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(onOutcome);
        if (waiters.size === 0 && this.waiters.get(id) === waiters) this.waiters.delete(id);
        resolve(outcome);
      };
      const onOutcome = (outcome: string) => done(outcome);
      const onAbort = () => done(undefined);
      waiters.add(onOutcome);
      this.polls();
      signal?.addEventListener('abort', onAbort, { once: true });
      // Registered before this first check, so a finish landing in between is seen by one or the other.
      this.check([id]).catch((error: unknown) => {
        done(undefined);
        reject(error);
      });
    });
  }

  onPut(listener: (name: string, mine: boolean) => void): () => void {
    this.putListeners.add(listener);
    this.polls();
    return () => void this.putListeners.delete(listener);
  }

  onSignal(listener: (name: string, text: string) => void): () => void {
    this.signalListeners.add(listener);
    return () => void this.signalListeners.delete(listener);
  }

  async signal(name: string, text: string): Promise<void> {
    if (this.backend.signal) await this.backend.signal(name, text);
    else this.emitSignal(name, text);
  }

  waiting(prefix: string, { olderThanMs = 0 }: { olderThanMs?: number } = {}): Promise<string[]> {
    return this.backend.waiting(prefix, olderThanMs);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.poll);
    this.poll = undefined;
    clearInterval(this.purge);
  }

  /** After missed notifications: every waiter checks its item, and takers hear of every name with items waiting. */
  private async caughtUp(): Promise<void> {
    try {
      await this.check([...this.waiters.keys()]);
      for (const name of await this.backend.waiting('', 0)) this.emitPut(name, false);
    } catch {
      // The poll and the next notification catch up.
    }
  }

  private emitPut(name: string, mine: boolean): void {
    for (const listener of [...this.putListeners]) listener(name, mine);
  }

  private emitSignal(name: string, text: string): void {
    for (const listener of [...this.signalListeners]) listener(name, text);
  }

  private resolve(id: number, outcome: string): void {
    for (const waiter of [...(this.waiters.get(id) ?? [])]) waiter(outcome);
  }

  private async check(ids: readonly number[]): Promise<void> {
    const wanted = ids.filter((id) => this.waiters.has(id));
    if (wanted.length === 0) return;
    for (const [id, outcome] of await this.backend.outcomes(wanted)) this.resolve(id, outcome);
  }

  private polls(): void {
    if (this.poll || this.closed) return;
    this.poll = setInterval(() => void this.tick(), this.backend.pollMs);
    this.poll.unref();
  }

  /** Whether the poll has anything to do (put listeners matter only where no NOTIFY tells of puts). */
  private get pollNeeded(): boolean {
    return this.waiters.size > 0 || (this.backend.putSince !== undefined && this.putListeners.size > 0);
  }

  /** The safety net: every waited id checked in one query; on SQLite also other processes' puts. */
  private async tick(): Promise<void> {
    if (!this.pollNeeded) {
      clearInterval(this.poll);
      this.poll = undefined;
      return;
    }
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      await this.check([...this.waiters.keys()]);
      if (this.backend.putSince && this.putListeners.size > 0) {
        const names = new Set<string>();
        for (const row of await this.backend.putSince(this.lastPut)) {
          this.lastPut = Math.max(this.lastPut, row.id);
          // This process's own puts were told already.
          if (!this.mine.delete(row.id)) names.add(row.name);
        }
        for (const name of names) this.emitPut(name, false);
      }
    } catch {
      // The database is unreachable: the next tick asks again.
    } finally {
      this.polling = false;
    }
  }
}
