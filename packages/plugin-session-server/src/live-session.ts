// One session's live side: its event sequence (numbers and a bounded replay buffer for resuming), its subscribers,
// and what the running turn streamed that is not stored yet (so a timeline taken mid-turn plus the later events
// reproduce the live view).
import type { TurnRecord } from '@aalis/schema-message';
import type { SessionEvent, TimelineText, TimelineTool, TurnItem, WaitingInput } from '@aalis/session-client';

export const REPLAY_BUFFER = 2000;

export interface Subscriber {
  /**
   * Delivers one sequenced event (only called once the subscriber's timeline or replay went out). `frame()` is the
   * event frame as JSON, serialised once for every subscriber.
   */
  deliver(sessionId: string, seq: number, event: SessionEvent, frame: () => string): void;
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
}

export class LiveSession {
  seq = 0;
  private readonly buffer: { seq: number; event: SessionEvent }[] = [];
  readonly subscribers = new Set<Subscriber>();
  turn: LiveTurn | undefined;
  waiting: WaitingInput[] = [];
  /** Bumped on every archive change, so a timeline read can tell it raced one. */
  archiveVersion = 0;

  constructor(readonly sessionId: string) {}

  emit(event: SessionEvent): number {
    this.seq += 1;
    this.buffer.push({ seq: this.seq, event });
    if (this.buffer.length > REPLAY_BUFFER) this.buffer.splice(0, this.buffer.length - REPLAY_BUFFER);
    let text: string | undefined;
    const seq = this.seq;
    const frame = () => {
      text ??= JSON.stringify({ type: 'event', sessionId: this.sessionId, seq, event });
      return text;
    };
    for (const subscriber of this.subscribers) subscriber.deliver(this.sessionId, seq, event, frame);
    return this.seq;
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
  segmentStored(turnId: string, final: boolean): void {
    const turn = this.turn;
    if (!turn || turn.turnId !== turnId) return;
    if (final) turn.finalSegment = turn.segment;
    turn.segment += 1;
    turn.text = '';
    turn.reasoning = '';
    turn.tools = new Map();
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
