// Carries each session's live changes between the session servers of one deployment on PostgreSQL: a turn runs on the
// process holding its session, while a WebUI client may be connected to any process. Changes go out in order, batched,
// by NOTIFY on one channel; one too large for a NOTIFY payload is stored in a table and referenced by id. Every process
// applies the others' changes in the order they were sent, as its own events.
import type { StorageService } from '@aalis/api-storage';
import type { Logger } from '@aalis/core';
import type { SessionEvent } from '@aalis/session-client';
import type { RelayNote } from './live-session.js';

type Database = ReturnType<StorageService['postgres']>;

export const LIVE_CHANNEL = 'aalis_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const NOTIFY_LIMIT = 7900;
/** Oversized changes are kept this long for the processes to read them. */
const STORED_FOR_MS = 10 * 60_000;
/**
 * Every process says it is alive every half lease time (`plugins.storage.leaseTtlMs`), at most every 2 s (the default
 * 4 s lease); a process silent for HEARTBEATS_MISSED of them is gone (6 s by default). A shorter lease shortens it
 * because the lease time is how long a deployment waits for a silent process anyway (its sessions are taken over
 * then): a deployment that shortens it for a faster fail-over sees a dead process's turns end sooner too. A longer
 * lease (tolerating longer stalls) does not lengthen it: its clients see a dead process's turns end as soon as before.
 */
export function relayHeartbeatMs(leaseTtlMs: number): number {
  return Math.min(2000, Math.max(100, Math.round(leaseTtlMs / 2)));
}
const HEARTBEATS_MISSED = 3;
const NAMESPACE = 'session-server-relay';

export const relayMigrations = [
  {
    version: 1,
    name: 'live relay',
    up: `CREATE TABLE session_live_relay (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL, created_at BIGINT NOT NULL);
      CREATE INDEX session_live_relay_created ON session_live_relay(created_at);`,
  },
];

/** The relay's own notes besides the sessions' changes: a heartbeat, and a goodbye at close. */
type WireNote = RelayNote | { t: 'alive' } | { t: 'bye' };
type Entry = [sessionId: string, note: WireNote];
interface Frame {
  /** The sending session server's id. */
  o: string;
  /** The changes, in the order they were made. */
  b?: Entry[];
  /** A stored frame's id (its `b` was too large to notify). */
  ref?: number;
}

export interface RelayListener {
  /** A change made by the process `origin`. */
  apply(origin: string, sessionId: string, note: RelayNote): void;
  /** A process that stopped relaying (it stopped or died) with no goodbye. */
  gone(origin: string): void;
}

export class LiveRelay {
  private pending: Entry[] = [];
  private busy = false;
  private drained: Promise<void> = Promise.resolve();
  private received: Promise<void> = Promise.resolve();
  private readonly seen = new Map<string, number>();
  private unlisten: (() => void) | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastPrune = 0;
  private lastBeat = Date.now();
  private closed = false;

  private constructor(
    private readonly database: Database,
    private readonly origin: string,
    private readonly listener: RelayListener,
    private readonly log: Logger,
    private readonly heartbeatMs: number,
  ) {}

  static async open(options: {
    database: Database;
    origin: string;
    listener: RelayListener;
    log: Logger;
    /** How often this process says it is alive (relayHeartbeatMs of the lease time). */
    heartbeatMs: number;
  }): Promise<LiveRelay> {
    await options.database.migrate(NAMESPACE, relayMigrations);
    const relay = new LiveRelay(options.database, options.origin, options.listener, options.log, options.heartbeatMs);
    relay.unlisten = await options.database.listen(LIVE_CHANNEL, (payload) => relay.receive(payload));
    relay.timer = setInterval(() => relay.beat(), options.heartbeatMs);
    relay.timer.unref();
    return relay;
  }

  /** Sends a change to the other processes, after every change published before it. */
  publish(sessionId: string, note: WireNote): void {
    if (this.closed) return;
    this.pending.push([sessionId, note]);
    if (this.busy) return;
    this.busy = true;
    this.drained = this.flush();
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const entries = merged(this.pending.splice(0));
        for (const frame of packed(this.origin, entries)) await this.send(frame);
      }
    } catch (error) {
      this.log.warn('live events could not be relayed to the other processes', { error: String(error) });
    } finally {
      this.busy = false;
    }
  }

  private async send(frame: Frame): Promise<void> {
    const text = JSON.stringify(frame);
    if (Buffer.byteLength(text) <= NOTIFY_LIMIT) {
      await this.database.notify(LIVE_CHANNEL, text);
      return;
    }
    const now = Date.now();
    const rows = await this.database.query<{ id: number }>(
      'INSERT INTO session_live_relay (payload, created_at) VALUES ($1, $2) RETURNING id',
      [JSON.stringify(frame.b), now],
    );
    await this.database.notify(LIVE_CHANNEL, JSON.stringify({ o: this.origin, ref: rows[0]!.id }));
    if (now - this.lastPrune > 60_000) {
      this.lastPrune = now;
      await this.database.query('DELETE FROM session_live_relay WHERE created_at < $1', [now - STORED_FOR_MS]);
    }
  }

  private receive(payload: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(payload) as Frame;
    } catch {
      return;
    }
    if (typeof frame?.o !== 'string' || frame.o === this.origin) return;
    this.seen.set(frame.o, Date.now());
    // Applied one frame after another: a stored frame's read must not let a later frame overtake it.
    this.received = this.received
      .then(() => this.handle(frame))
      .catch((error: unknown) => this.log.warn('a relayed live event was lost', { error: String(error) }));
  }

  private async handle(frame: Frame): Promise<void> {
    let entries = frame.b;
    if (frame.ref !== undefined) {
      try {
        const rows = await this.database.query<{ payload: string }>(
          'SELECT payload FROM session_live_relay WHERE id = $1',
          [frame.ref],
        );
        entries = rows[0] ? (JSON.parse(rows[0].payload) as Entry[]) : undefined;
      } catch (error) {
        this.log.warn('a relayed live event could not be read', { error: String(error) });
      }
    }
    for (const [sessionId, note] of Array.isArray(entries) ? entries : []) {
      if (note?.t === 'bye') {
        this.seen.delete(frame.o);
        this.listener.gone(frame.o);
        continue;
      }
      if (note?.t === 'alive') continue;
      try {
        this.listener.apply(frame.o, sessionId, note);
      } catch (error) {
        this.log.warn('a relayed live event could not be applied', { sessionId, error: String(error) });
      }
    }
  }

  private beat(): void {
    this.publish('', { t: 'alive' });
    const now = Date.now();
    const late = now - this.lastBeat > this.heartbeatMs * 1.5;
    this.lastBeat = now;
    // This process was stalled itself (its timer fired late): the others' heartbeats may be waiting unread behind
    // this call. They are read before the next beat judges who is gone.
    if (late) return;
    const cutoff = now - this.heartbeatMs * HEARTBEATS_MISSED;
    for (const [origin, at] of this.seen) {
      if (at >= cutoff) continue;
      this.seen.delete(origin);
      this.listener.gone(origin);
    }
  }

  /** Sends what is still pending and a goodbye (the others end this process's running turns at once). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.publish('', { t: 'bye' });
    this.closed = true;
    clearInterval(this.timer);
    await this.drained;
    this.unlisten?.();
  }
}

/** Adjacent deltas of one stream joined into one: fewer, larger notifications, the same text. */
function merged(entries: Entry[]): Entry[] {
  const out: Entry[] = [];
  for (const entry of entries) {
    const last = out.at(-1);
    const joined = last && last[0] === entry[0] ? join(last[1], entry[1]) : undefined;
    if (joined) out[out.length - 1] = [entry[0], joined];
    else out.push(entry);
  }
  return out;
}

function join(a: WireNote, b: WireNote): WireNote | undefined {
  if (a.t !== 'event' || b.t !== 'event') return undefined;
  const [x, y] = [a.event, b.event] as [SessionEvent, SessionEvent];
  if (x.type === 'text.delta' && y.type === 'text.delta' && x.turnId === y.turnId && x.segment === y.segment) {
    return { t: 'event', event: { ...x, delta: x.delta + y.delta } };
  }
  if (
    x.type === 'reasoning.delta' &&
    y.type === 'reasoning.delta' &&
    x.turnId === y.turnId &&
    x.segment === y.segment
  ) {
    return { t: 'event', event: { ...x, delta: x.delta + y.delta } };
  }
  return undefined;
}

/** Frames of at most NOTIFY_LIMIT bytes (an entry larger than that alone in its frame, stored by send). */
function packed(origin: string, entries: Entry[]): Frame[] {
  const frames: Frame[] = [];
  const overhead = Buffer.byteLength(JSON.stringify({ o: origin, b: [] }));
  let current: Entry[] = [];
  let size = overhead;
  for (const entry of entries) {
    const bytes = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (current.length > 0 && size + bytes > NOTIFY_LIMIT) {
      frames.push({ o: origin, b: current });
      current = [];
      size = overhead;
    }
    current.push(entry);
    size += bytes;
  }
  if (current.length > 0) frames.push({ o: origin, b: current });
  return frames;
}
