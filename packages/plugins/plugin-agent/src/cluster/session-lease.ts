// One turn per session across processes: a turn runs only while its process holds the session's lease in the database
// (the storage's LeasesService: SQLite beside one data directory, PostgreSQL for every host). Taking the lease from
// another process drops this process's copy of the history (the other one appended to it); taking it from a process
// that died mid-turn first records that turn as stopped, as a shutdown would have.
import type { Lease } from '@aalis/api-storage';
import { textRef } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { RunningTurn } from '../channel/session-channel.js';

export interface SessionHold {
  /** False when the turn was stopped while it waited for the lease: its inputs were archived without a turn id. */
  proceed: boolean;
  release(): Promise<void>;
}

const NONE: SessionHold = { proceed: true, release: async () => {} };

/** The lease name of a session. */
export const sessionLeaseName = (sessionId: string) => `session:${sessionId}`;

/** What a holder notes in its lease while a turn runs, for whoever takes the lease over if it dies. */
interface TurnNote {
  turnId: string;
  platform: string;
}

export async function holdSession(
  deps: AgentDeps,
  sessionId: string,
  running: RunningTurn,
  inputs: readonly IncomingMessage[],
): Promise<SessionHold> {
  const leases = deps.leases();
  if (!leases) return NONE;
  let lease: Lease | undefined;
  const note: TurnNote = { turnId: running.turnId, platform: inputs[0]?.platform ?? '' };
  try {
    // The turn's note goes in with the claim (on SQLite in the claim's own transaction).
    lease = await leases.acquire(sessionLeaseName(sessionId), {
      signal: running.controller.signal,
      note: JSON.stringify(note),
    });
  } catch (error) {
    // The database is unreachable: the turn cannot be placed; it runs here rather than being lost.
    deps.log.error('taking the session lease failed; the turn runs without it', { sessionId, error: String(error) });
    return NONE;
  }
  if (!lease) {
    // Stopped (shutdown, /stop, clearing) before its turn could begin: kept like queued inputs at a stop.
    await archiveWithoutTurn(deps, inputs);
    return { proceed: false, release: async () => {} };
  }
  const held = lease;
  if (held.previousHolder !== leases.holder) deps.historyCache.forget([sessionId]);
  if (held.takenOver?.note) await recordInterruptedTurn(deps, sessionId, held.takenOver.note);
  const onLost = () => {
    deps.log.warn('the session lease was lost mid-turn (this process stalled past its expiry); stopping the turn', {
      sessionId,
      turnId: running.turnId,
    });
    running.stopReason ??= 'lease lost';
    // Whoever took the lease records this turn as stopped: it writes nothing more itself.
    running.superseded = true;
    running.controller.abort();
  };
  held.lost.addEventListener('abort', onLost, { once: true });
  return {
    proceed: true,
    async release() {
      held.lost.removeEventListener('abort', onLost);
      await held.release().catch((error: unknown) =>
        deps.log.warn('giving the session lease back failed; it expires by itself', {
          sessionId,
          error: String(error),
        }),
      );
    },
  };
}

async function archiveWithoutTurn(deps: AgentDeps, inputs: readonly IncomingMessage[]): Promise<void> {
  if (!deps.messageArchive.available) return;
  for (const message of inputs) {
    if (message.triggerType === 'idle') continue;
    await deps.messageArchive.use
      .archiveIncoming(message)
      .catch((error: unknown) => deps.log.warn('archiving a released input failed', { error: String(error) }));
  }
}

/**
 * The previous holder died during a turn: if that turn left inputs in the history but no record, it gets the stop
 * marker and the stopped turn's record, so the history reads as after a shutdown (its half-written reply was never
 * stored).
 */
export async function recordInterruptedTurn(deps: AgentDeps, sessionId: string, noteText: string): Promise<void> {
  let note: TurnNote;
  try {
    note = JSON.parse(noteText) as TurnNote;
  } catch {
    return;
  }
  if (!deps.memory.available || !deps.messageArchive.available) return;
  const turnOf = (metadata: Record<string, unknown> | undefined) => metadata?.[WellKnownMetadataKeys.TurnId];
  const history = await deps.memory.use.readAll(sessionId);
  const ofTurn = history.filter((message) => turnOf(message.metadata) === note.turnId);
  if (ofTurn.length === 0) return;
  if (ofTurn.some((message) => message.metadata?.[WellKnownMetadataKeys.TurnRecord] !== undefined)) return;
  deps.log.warn('the process running this turn died; recording it as stopped', { sessionId, turnId: note.turnId });
  await deps.messageArchive.use.saveMessage(sessionId, {
    role: 'system',
    kind: 'turn-stopped',
    content: deps.i18n.t(textRef('agent.stopMarker')),
    metadata: { [WellKnownMetadataKeys.TurnId]: note.turnId },
  });
  await deps.messageArchive.use.saveMessage(sessionId, {
    role: 'system',
    kind: 'event-marker',
    content: '',
    metadata: {
      [WellKnownMetadataKeys.TurnId]: note.turnId,
      [WellKnownMetadataKeys.TurnRecord]: {
        outcome: 'aborted',
        origin: { platform: note.platform, arrivals: [], participants: [] },
      },
    },
  });
  deps.historyCache.forget([sessionId]);
}

/**
 * Runs `sweep` every half lease time (never two at once), logging a failure and trying again at the next tick.
 * Returns the stopper, which resolves once a sweep under way finished: one that took a dead owner's session must
 * record its turn before the storage closes (its claim cleared the note from the lease row, so nobody else could).
 * One schedule for both recoveries: the lease-only one below and the hand-over's.
 */
export function everyHalfLease(deps: AgentDeps, sweep: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = async () => {
    try {
      await sweep();
    } catch (error) {
      deps.log.warn('recovering the sessions of a process that died failed; retried', { error: String(error) });
    } finally {
      running = undefined;
    }
  };
  const ttl = deps.leases()?.ttlMs ?? 4000;
  const timer = setInterval(
    () => {
      running ??= tick();
    },
    Math.max(250, Math.floor(ttl / 2)),
  );
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Recovers the sessions of processes that died mid-turn even when no input for them arrives: every half ttl, each
 * session lease left expired without release is taken (by one process), its interrupted turn recorded as stopped,
 * and given back. Returns the stopper.
 */
export function sweepAbandonedSessions(deps: AgentDeps): () => Promise<void> {
  return everyHalfLease(deps, async () => {
    const leases = deps.leases();
    if (!leases) return;
    for (const name of await leases.abandoned(sessionLeaseName(''))) {
      const lease = await leases.tryAcquire(name);
      if (!lease) continue;
      try {
        const sessionId = name.slice(sessionLeaseName('').length);
        deps.historyCache.forget([sessionId]);
        if (lease.takenOver?.note) await recordInterruptedTurn(deps, sessionId, lease.takenOver.note);
      } finally {
        await lease.release();
      }
    }
  });
}
