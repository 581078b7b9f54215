// One session's live side: its event sequence (numbers and a bounded replay buffer for resuming), its subscribers,
// and what the running turn streamed that is not stored yet (so a timeline taken mid-turn plus the later events
// reproduce the live view). That state follows from the events themselves (track), so a session whose turn runs
// on another process is followed the same way from the events relayed from there (live-relay.ts).
import type { TurnRecord } from '@aalis/schema-message';
import {
  applyQueueChange,
  type SessionEvent,
  type TimelineText,
  type TimelineTool,
  type TurnItem,
  WAITING_INPUTS,
  type WaitingInput,
} from '@aalis/session-client';

/** How much of its events a live session keeps for clients resuming (plugins.session-server.replayEvents/Bytes). */
export interface ReplayBounds {
  events: number;
  bytes: number;
}

/** How long an acknowledged input may go without a queue or input event before it stops counting as waiting. */
const UNPLACED_FOR_MS = 30_000;

export const DEFAULT_REPLAY: ReplayBounds = { events: 2000, bytes: 4 * 1024 * 1024 };

/** What the other processes' session servers need to follow a session whose turn runs here (live-relay.ts). */
export type RelayNote =
  | { t: 'event'; event: SessionEvent }
  /** An assistant message of the running turn was stored (its streamed text is in the archive now). */
  | { t: 'stored'; turnId: string; final: boolean }
  /** The history changed as a whole (/clear, compaction, a rollback): subscribers get a fresh timeline. */
  | { t: 'refresh' }
  /** The session's row changed (created, renamed): session lists are told again. */
  | { t: 'listed' };

export interface Subscriber {
  /**
   * Delivers one sequenced event (only called once the subscriber's timeline or replay went out). `frame()` is the
   * event frame as JSON in UTF-8, serialised and encoded once for every subscriber.
   */
  deliver(sessionId: string, seq: number, event: SessionEvent, frame: () => Buffer): void;
}

export interface LiveTurn {
  turnId: string;
  startedAt: number;
  /** The opener's source: undefined = a real person (real-person messages may join such a turn). */
  openerSource: string | undefined;
  /** The model call whose output streams now (= assistant messages of this turn stored so far). */
  segment: number;
  text: string;
  reasoning: string;
  /** Tool cards of the current segment, by callId. */
  tools: Map<string, TimelineTool>;
  /** Segments that showed text (for the rooms' unsent marks). */
  segmentsWithText: Set<number>;
  /** The stored final reply's segment, once stored. */
  finalSegment?: number;
  /** The turn record, once stored (who stopped it). */
  record?: TurnRecord;
  /** `<platform>:<userId>` of the people whose inputs entered the turn (who may stop it besides owners). */
  participants: Set<string>;
  /** The session server of the process running the turn, when that is another process (relayed). */
  origin?: string;
}

/**
 * Drops the live sessions nobody watches, with nothing running or waiting, idle for `idleMs`: with several
 * processes every one follows every session's events, so the replay buffers would otherwise grow with all of them.
 * Its sequence number is kept in `lastSeqs` for the next live session of it to go on from: a client resuming from
 * that number gets exactly what came after, one resuming from earlier a fresh timeline.
 */
export function dropIdle(
  lives: Map<string, LiveSession>,
  lastSeqs: Map<string, number>,
  idleMs: number,
  now = Date.now(),
): number {
  let dropped = 0;
  for (const [sessionId, live] of lives) {
    if (live.subscribers.size > 0 || live.turn || live.waiting.length > 0) continue;
    if (now - live.lastActivity < idleMs) continue;
    lives.delete(sessionId);
    lastSeqs.set(sessionId, live.seq);
    dropped++;
  }
  return dropped;
}

export class LiveSession {
  seq = 0;
  private readonly buffer: { seq: number; event: SessionEvent; bytes: number }[] = [];
  private bufferBytes = 0;
  readonly subscribers = new Set<Subscriber>();
  turn: LiveTurn | undefined;
  waiting: WaitingInput[] = [];
  /**
   * Inputs sent here that the agent acknowledged but has not placed yet (no queue or input event names them so far),
   * by messageId with when they were sent: they count towards the waiting bound until they show up.
   */
  private readonly unplaced = new Map<string, number>();
  /** Bumped on every archive change, so a timeline read can tell it raced one. */
  archiveVersion = 0;
  /** When the last event was emitted (Date.now()), for dropping sessions nobody watches any more. */
  lastActivity = Date.now();

  constructor(
    readonly sessionId: string,
    /** Told of every change made here (not of relayed ones): the relay to the other processes. */
    private readonly relay?: (sessionId: string, note: RelayNote) => void,
    /** Where the sequence goes on from (a live session of this session dropped before had got that far). */
    startSeq = 0,
    private readonly replay: ReplayBounds = DEFAULT_REPLAY,
  ) {
    this.seq = startSeq;
  }

  /** Inputs waiting or about to (acknowledged, not placed yet): what the waiting bound counts. */
  waitingCount(now = Date.now()): number {
    // One never placed (the agent dropped it, or it ran as context) stops counting after a while.
    for (const [messageId, at] of this.unplaced) if (now - at > UNPLACED_FOR_MS) this.unplaced.delete(messageId);
    return this.waiting.length + this.unplaced.size;
  }

  /** An input sent here is about to be acknowledged (`placed: false`), or its send ended otherwise (true). */
  expectInput(messageId: string, placed = false): void {
    if (placed) this.unplaced.delete(messageId);
    else this.unplaced.set(messageId, Date.now());
  }

  /** Sequences an event for the subscribers; `relayed`: it came from another process (not relayed back). */
  emit(event: SessionEvent, { relayed = false }: { relayed?: boolean } = {}): number {
    this.track(event);
    this.lastActivity = Date.now();
    if (!relayed) this.relay?.(this.sessionId, { t: 'event', event });
    this.seq += 1;
    const seq = this.seq;
    // Serialised once: its size bounds the replay buffer, and every subscriber gets this same text.
    const text = JSON.stringify({ type: 'event', sessionId: this.sessionId, seq, event });
    let bytes: Buffer | undefined;
    const frame = () => {
      bytes ??= Buffer.from(text);
      return bytes;
    };
    this.buffer.push({ seq, event, bytes: text.length });
    this.bufferBytes += text.length;
    let drop = 0;
    while (
      drop < this.buffer.length - 1 &&
      (this.buffer.length - drop > this.replay.events || this.bufferBytes > this.replay.bytes)
    ) {
      this.bufferBytes -= this.buffer[drop]!.bytes;
      drop++;
    }
    if (drop > 0) this.buffer.splice(0, drop);
    for (const subscriber of this.subscribers) subscriber.deliver(this.sessionId, seq, event, frame);
    return this.seq;
  }

  /** The running turn's unstored part and the waiting list, as the event says. */
  private track(event: SessionEvent): void {
    if (event.type === 'turn.started') {
      if (this.turn?.turnId !== event.turnId) this.startTurn(event.turnId, undefined, event.at);
      return;
    }
    if (event.type === 'queue') {
      this.waiting = applyQueueChange(this.waiting, event, WAITING_INPUTS);
      for (const input of event.added) if (input.messageId !== undefined) this.unplaced.delete(input.messageId);
      return;
    }
    if (event.type === 'input' && event.input.messageId !== undefined) this.unplaced.delete(event.input.messageId);
    const turn = 'turnId' in event && this.turn?.turnId === event.turnId ? this.turn : undefined;
    if (!turn) return;
    switch (event.type) {
      case 'turn.ended':
        this.turn = undefined;
        return;
      case 'input':
        if (event.input.source === undefined && event.input.sender.userId) {
          turn.participants.add(`${event.input.sender.platform}:${event.input.sender.userId}`);
        }
        return;
      case 'text.delta':
        turn.text += event.delta;
        turn.segmentsWithText.add(event.segment);
        return;
      case 'reasoning.delta':
        turn.reasoning += event.delta;
        return;
      case 'tool.progress': {
        const tool = turn.tools.get(event.callId) ?? {
          kind: 'tool' as const,
          callId: event.callId,
          segment: event.segment,
          name: event.name ?? '',
          arguments: '',
          state: 'writing' as const,
        };
        if (event.name) tool.name = event.name;
        tool.arguments += event.argumentsDelta ?? '';
        turn.tools.set(event.callId, tool);
        return;
      }
      case 'tool.started':
        turn.tools.set(event.callId, {
          kind: 'tool',
          callId: event.callId,
          segment: event.segment,
          name: event.name,
          arguments: event.arguments,
          state: 'running',
        });
        return;
      case 'tool.ended': {
        const tool = turn.tools.get(event.callId);
        if (tool) {
          tool.state = event.isError ? 'error' : 'done';
          tool.result = event.result;
          tool.durationMs = event.durationMs;
        }
        return;
      }
    }
  }

  /**
   * A turn `turnId` begins while another one still shows as running: that one ran on a process that is gone (its
   * session was taken over), so it ends here as stopped first, as its new owner records it. Not relayed: every
   * process does this itself.
   */
  supersede(turnId: string): void {
    const previous = this.turn;
    if (!previous || previous.turnId === turnId) return;
    this.emit(
      { type: 'turn.ended', turnId: previous.turnId, outcome: 'aborted', unsentSegments: [] },
      { relayed: true },
    );
  }

  /** Resolves with the outcome once the turn `turnId` ends here, or undefined after `timeoutMs`. */
  ended(turnId: string, timeoutMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const watcher: Subscriber = {
        deliver: (_sessionId, _seq, event) => {
          if (event.type === 'turn.ended' && event.turnId === turnId) done(event.outcome);
        },
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (outcome: string | undefined) => {
        clearTimeout(timer);
        this.subscribers.delete(watcher);
        resolve(outcome);
      };
      this.subscribers.add(watcher);
    });
  }

  /** The events after `seq`, or undefined when some of them are no longer buffered. */
  since(seq: number): { seq: number; event: SessionEvent }[] | undefined {
    if (seq > this.seq || seq < 0) return undefined;
    if (seq === this.seq) return [];
    const first = this.buffer[0];
    if (!first || first.seq > seq + 1) return undefined;
    return this.buffer.filter((entry) => entry.seq > seq);
  }

  startTurn(turnId: string, openerSource: string | undefined, at: number): void {
    this.turn = {
      turnId,
      startedAt: at,
      openerSource,
      segment: 0,
      text: '',
      reasoning: '',
      tools: new Map(),
      segmentsWithText: new Set(),
      participants: new Set(),
    };
  }

  /** An assistant message of the running turn was stored: its segment is in the archive now. */
  segmentStored(turnId: string, final: boolean, { relayed = false }: { relayed?: boolean } = {}): void {
    if (!relayed) this.relay?.(this.sessionId, { t: 'stored', turnId, final });
    const turn = this.turn;
    if (!turn || turn.turnId !== turnId) return;
    if (final) turn.finalSegment = turn.segment;
    turn.segment += 1;
    turn.text = '';
    turn.reasoning = '';
    turn.tools = new Map();
  }

  /** The history changed as a whole here: timelines being read are stale, and the other processes are told. */
  archiveRewritten(): void {
    this.archiveVersion += 1;
    this.relay?.(this.sessionId, { t: 'refresh' });
  }

  /** The session's row was created or changed here: the other processes tell their session lists. */
  listed(): void {
    this.relay?.(this.sessionId, { t: 'listed' });
  }

  /** Items the running turn streamed that the archive does not hold yet. */
  unstoredItems(): TurnItem[] {
    const turn = this.turn;
    if (!turn) return [];
    const items: TurnItem[] = [];
    if (turn.text !== '' || turn.reasoning !== '') {
      const text: TimelineText = {
        kind: 'text',
        id: `live:${turn.turnId}:${turn.segment}`,
        segment: turn.segment,
        text: turn.text,
        unsent: false,
        final: false,
      };
      if (turn.reasoning !== '') text.reasoning = turn.reasoning;
      items.push(text);
    }
    for (const tool of turn.tools.values()) items.push({ ...tool });
    return items;
  }
}
