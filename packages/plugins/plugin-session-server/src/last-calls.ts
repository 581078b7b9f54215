// The last real model call of each live session (docs/session-protocol.md 「Usage」), for the usage snapshot: seeded
// from the archive whenever a timeline is read (subscribe, a rollback), moved on by every model call's llm:usage.
import type { LastCallUsage } from '@aalis/session-client';
import type { LiveSession } from './live-session.js';

const lastCalls = new WeakMap<LiveSession, LastCallUsage | null>();

export function rememberLastCall(live: LiveSession, lastCall: LastCallUsage | undefined): void {
  lastCalls.set(live, lastCall ?? null);
}

/** undefined: not known here (no timeline read yet); null: the session has no model call. */
export function lastCallOf(live: LiveSession): LastCallUsage | null | undefined {
  return lastCalls.get(live);
}
