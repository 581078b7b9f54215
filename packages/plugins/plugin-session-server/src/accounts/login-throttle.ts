// Password logins are rate-limited per account and per client address: after 5 failures in a row each further
// attempt waits, 30 s doubling up to 15 minutes (30 s, 1 min, 2 min, 4 min, 8 min, 15 min, …). A success clears
// the account's and the address's counts; failures are forgotten a day after the last one. Kept in this process
// (bounded): a login stays on the host it was made on (docs/scaling.md), and so do its attempts.
import { accountErrors } from './account-errors.js';

export const FREE_FAILURES = 5;
export const FIRST_WAIT_MS = 30_000;
export const LONGEST_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 24 * 60 * 60_000;
const MAX_KEYS = 10_000;

/** How long a key must wait after `failures` failures in a row (0 below 5). */
export function backoffMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - FREE_FAILURES));
}

interface Failures {
  count: number;
  last: number;
}

export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** When `account` from `address` may try again (0: now). */
  retryAt(account: string, address: string): number {
    let at = 0;
    for (const key of keysOf(account, address)) {
      const entry = this.current(key);
      if (entry) at = Math.max(at, entry.last + backoffMs(entry.count));
    }
    return at > this.now() ? at : 0;
  }

  /** Throws AALIS_WEBUI_LOGIN_THROTTLED (with the seconds to wait) while the account or the address must wait. */
  check(account: string, address: string): void {
    const at = this.retryAt(account, address);
    if (at === 0) return;
    const seconds = Math.ceil((at - this.now()) / 1000);
    throw accountErrors.AALIS_WEBUI_LOGIN_THROTTLED(
      { seconds, at: new Date(at).toISOString().slice(11, 19) },
      { details: { retryAfterSeconds: seconds } },
    );
  }

  failed(account: string, address: string): void {
    const now = this.now();
    for (const key of keysOf(account, address)) {
      const entry = this.current(key);
      this.failures.delete(key);
      this.failures.set(key, { count: (entry?.count ?? 0) + 1, last: now });
    }
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeeded(account: string, address: string): void {
    for (const key of keysOf(account, address)) this.failures.delete(key);
  }

  private current(key: string): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && this.now() - entry.last > FORGET_AFTER_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }
}

function keysOf(account: string, address: string): [string, string] {
  return [`account:${account.toLowerCase()}`, `address:${address}`];
}
