// A turn outlives a database that is briefly gone (docs/decisions/held-replies.md): a reply, a tool-call group (its
// tools have run) or the record of a turn that failed, whose write fails because the database cannot be used right
// now — PostgreSQL restarting or unreachable, the disk full, SQLite locked past its busy timeout — is held in memory
// and written again with backoff until it is stored (a reply is sent only then). Held for at most `maxMs`, with at
// most `maxBytes` held by all turns at once; past either bound, or when the host stops, the turn gives up with a coded
// error in the log and nothing of it is written or sent. Any other error (a constraint violation, a bug) is thrown at
// once: retrying cannot cure it. A failure may also have hidden a write that landed (the connection cut while its
// COMMIT was answered): before each new try, `landed` looks for it, so it is never stored twice.
import { agentErrors } from '@aalis/api-agent';
import { storageFailure } from '@aalis/api-storage';
import type { AalisError, Logger } from '@aalis/core';

export interface StorageRetryLimits {
  /** How long one write is retried, from its first failure. */
  readonly maxMs: number;
  /** Bytes held by every waiting write of this agent together. */
  readonly maxBytes: number;
  /** The first pause before writing again; doubled after each failure up to `maxDelayMs`. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

export const STORAGE_RETRY_LIMITS: StorageRetryLimits = {
  maxMs: 10 * 60_000,
  maxBytes: 16 * 1024 * 1024,
  firstDelayMs: 200,
  maxDelayMs: 5000,
};

/** Which turn a write belongs to (named in the log and the coded errors; never its content). */
export interface HeldWrite {
  readonly sessionId: string;
  readonly turnId: string;
  /** What the write holds in memory (the reply's text and metadata), counted against `maxBytes`. */
  readonly bytes: number;
}

/** What `landed` found: the earlier try's result (undefined: nothing of it is stored). */
export type Landed<T> = { readonly result: T } | undefined;

export class StorageRetry {
  private held = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly log: Logger,
    private readonly limits: StorageRetryLimits = STORAGE_RETRY_LIMITS,
  ) {}

  /** Bytes held by writes waiting for the database now. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Runs `write`; while it fails because the database cannot be used, holds it and runs it again with backoff.
   * Before each new try, `landed` (when given) says whether an earlier try was stored after all (its answer lost
   * with the connection): then that is the result and nothing is written again. Resolves with the write's result;
   * rejects with the write's own error when that is not a storage failure, or with AALIS_AGENT_TURN_NOT_STORED /
   * _NOT_HELD / _NOT_STORED_AT_STOP (logged) when it gave up.
   */
  async write<T>(what: HeldWrite, write: () => Promise<T>, landed?: () => Promise<Landed<T>>): Promise<T> {
    let reason: string;
    try {
      return await write();
    } catch (error) {
      const failure = storageFailure(error);
      if (failure === undefined) throw error;
      reason = failure;
    }
    const base = { sessionId: what.sessionId, turnId: what.turnId };
    if (this.stopping.signal.aborted)
      throw this.giveUp(agentErrors.AALIS_AGENT_TURN_NOT_STORED_AT_STOP({ ...base, reason }));
    if (this.held + what.bytes > this.limits.maxBytes) {
      throw this.giveUp(
        agentErrors.AALIS_AGENT_TURN_NOT_HELD({ ...base, reason, bytes: what.bytes, limit: this.limits.maxBytes }),
      );
    }
    this.held += what.bytes;
    this.log.warn('the database cannot be written now; what the turn wrote is held and written again', {
      ...base,
      reason,
      bytes: what.bytes,
    });
    const started = Date.now();
    try {
      for (let attempt = 1; ; attempt++) {
        const elapsed = Date.now() - started;
        if (elapsed >= this.limits.maxMs) {
          throw this.giveUp(
            agentErrors.AALIS_AGENT_TURN_NOT_STORED({ ...base, reason, seconds: Math.round(elapsed / 1000) }),
          );
        }
        const delay = Math.min(
          this.limits.maxDelayMs,
          this.limits.firstDelayMs * 2 ** (attempt - 1),
          this.limits.maxMs - elapsed,
        );
        if (!(await pause(delay, this.stopping.signal))) {
          throw this.giveUp(agentErrors.AALIS_AGENT_TURN_NOT_STORED_AT_STOP({ ...base, reason }));
        }
        try {
          const found = landed ? await landed() : undefined;
          if (found) {
            this.log.info('what the turn wrote was stored although the database’s answer was lost; not written again', {
              ...base,
              attempts: attempt,
            });
            return found.result;
          }
          const result = await write();
          this.log.info('what the turn wrote is stored after being held', { ...base, attempts: attempt + 1 });
          return result;
        } catch (error) {
          const failure = storageFailure(error);
          if (failure === undefined) throw error;
          reason = failure;
        }
      }
    } finally {
      this.held -= what.bytes;
    }
  }

  /** The host stops: every held write gives up now (nothing half-written: a write either ran whole or not at all). */
  stop(): void {
    this.stopping.abort();
  }

  private giveUp(error: AalisError): AalisError {
    this.log.error(error.message, { code: error.code });
    return error;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
