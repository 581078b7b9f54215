// One process of a deployment holds a platform's connection (its socket, its long poll, its callback server); when it
// stops or dies another takes over. Without leases (SQLite: one process) the connection is simply held. And while it
// is held, the connection is opened again after each end, with a backoff growing while attempts keep failing.
import type { LeasesService } from '@aalis/api-storage';
import { pause } from './pause.js';

export interface HoldConnectionOptions {
  /** The storage's leases, or undefined where only this process runs. */
  leases: LeasesService | undefined;
  /** The lease's name: `platform:<id>:<account>`. */
  name: string;
  /** Aborted when the adapter stops. */
  stopping: AbortSignal;
  /** Another process holds the connection: this one waits for it (the live state says standby). */
  standby(): void;
  /** Holds the connection until `held` aborts (the adapter stops or the lease is lost); may return earlier. */
  hold(held: AbortSignal): Promise<void>;
}

/** Runs `hold` whenever this process holds the connection's lease, until the adapter stops; gives the lease back. */
export async function holdConnection({ leases, name, stopping, standby, hold }: HoldConnectionOptions): Promise<void> {
  while (!stopping.aborted) {
    let lease = leases ? await leases.tryAcquire(name) : undefined;
    if (leases && !lease) {
      standby();
      lease = await leases.acquire(name, { signal: stopping });
      if (!lease) return;
    }
    try {
      await hold(lease ? AbortSignal.any([stopping, lease.lost]) : stopping);
    } finally {
      await lease?.release().catch(() => {});
    }
  }
}

export interface ReconnectOptions<T> {
  /** One connection, from opening to its end; what it ended with. */
  attempt(held: AbortSignal): Promise<T>;
  /** Whether it was healthy before it ended (the backoff starts again from `baseMs`). */
  healthy(outcome: T): boolean;
  baseMs: number;
  maxMs: number;
  /** It ended (not because `held` aborted): the next attempt starts after `delayMs`. */
  closed(outcome: T, delayMs: number): void;
}

/** Opens the connection again after each end while `held` lasts: `baseMs` doubled per failure in a row, ≤ `maxMs`. */
export async function reconnectWhile<T>(
  held: AbortSignal,
  { attempt, healthy, baseMs, maxMs, closed }: ReconnectOptions<T>,
): Promise<void> {
  let failures = 0;
  while (!held.aborted) {
    const outcome = await attempt(held);
    if (held.aborted) return;
    failures = healthy(outcome) ? 0 : failures + 1;
    const delayMs = Math.min(maxMs, baseMs * 2 ** failures);
    closed(outcome, delayMs);
    await pause(delayMs, held).catch(() => {});
  }
}
