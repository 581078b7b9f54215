// The cross-document checkpoint of one session: what a page writes so that the next document in the same tab (a
// navigation or a reload) carries on with the same conversation. Versioned, size-bounded, and every string passed
// through the host's redaction before it is written, so sensitive values are stored as markers only.
import type { Message } from '@aalis/schema-message';
import type { CheckpointProblem } from './checkpoint-texts.js';
import type { SessionEvent } from './session-events.js';

/** The format written by this version. A checkpoint of any other version is discarded with `unknown-version`. */
export const CHECKPOINT_VERSION = 1;

/** Default size bound of one session's checkpoint, in UTF-8 bytes of its JSON text. */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 256 * 1024;

export interface SessionCheckpoint {
  version: typeof CHECKPOINT_VERSION;
  sessionId: string;
  savedAt: number;
  /** The history the next request is built from, and the summary of what compaction replaced. */
  messages: Message[];
  summary: string;
  /** The stored event list (chat and recent operations); the oldest may have been dropped to fit the bound. */
  events: SessionEvent[];
  /** The last event sequence number used, so restored and new events keep one numbering. */
  sequence: number;
  /** How many of the oldest events were left out to fit the bound (0 when none). */
  droppedEvents: number;
  /** The run in progress when the checkpoint was written; absent when the session was idle. */
  run?: {
    /** Turns the run had used (the spec's current run counter): maxTurns still holds after the reload. */
    turns: number;
    /** Calls that were waiting for the person's confirmation: safe to ask again, their handler never ran. */
    awaitingConfirmation: string[];
  };
}

/** What a page whose conversation was too large leaves behind, so the next page can say why nothing came over. */
interface TooLargeMarker {
  version: typeof CHECKPOINT_VERSION;
  sessionId: string;
  savedAt: number;
  tooLarge: true;
}

export type EncodedCheckpoint =
  | { kind: 'checkpoint'; text: string; droppedEvents: number }
  /** Too large even without events: `text` is the marker to store instead. */
  | { kind: 'too-large'; text: string };

export type DecodedCheckpoint =
  | { kind: 'checkpoint'; checkpoint: SessionCheckpoint }
  | { kind: 'discarded'; problem: CheckpointProblem };

/**
 * The checkpoint as stored text. Past `maxBytes` the oldest events are left out (the chat then starts later after
 * the reload; the model's history is kept whole); when the history alone is over the bound, the result is a
 * `too-large` marker instead of a partial history the model would misread.
 */
export function encodeCheckpoint(
  checkpoint: SessionCheckpoint,
  { maxBytes, redact }: { maxBytes: number; redact?: (text: string) => string },
): EncodedCheckpoint {
  const clean = redact ? (redactStrings(checkpoint, redact) as SessionCheckpoint) : checkpoint;
  const encode = (dropped: number) =>
    JSON.stringify({ ...clean, events: clean.events.slice(dropped), droppedEvents: clean.droppedEvents + dropped });
  const full = encode(0);
  if (byteLength(full) <= maxBytes) return { kind: 'checkpoint', text: full, droppedEvents: 0 };
  const events = clean.events.length;
  if (byteLength(encode(events)) > maxBytes) {
    const marker: TooLargeMarker = {
      version: CHECKPOINT_VERSION,
      sessionId: checkpoint.sessionId,
      savedAt: checkpoint.savedAt,
      tooLarge: true,
    };
    return { kind: 'too-large', text: JSON.stringify(marker) };
  }
  // The fewest oldest events to leave out: encode(n) shrinks as n grows.
  let low = 1;
  let high = events;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (byteLength(encode(middle)) <= maxBytes) high = middle;
    else low = middle + 1;
  }
  return { kind: 'checkpoint', text: encode(low), droppedEvents: low };
}

/** Reads stored text; anything but a well-formed checkpoint of this version is discarded with its reason. */
export function decodeCheckpoint(text: string, sessionId: string): DecodedCheckpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'discarded', problem: 'unreadable' };
  }
  if (!isRecord(value)) return { kind: 'discarded', problem: 'unreadable' };
  if (value.version !== CHECKPOINT_VERSION) return { kind: 'discarded', problem: 'unknown-version' };
  if (value.sessionId !== sessionId) return { kind: 'discarded', problem: 'unreadable' };
  if (value.tooLarge === true) return { kind: 'discarded', problem: 'too-large' };
  return isCheckpoint(value) ? { kind: 'checkpoint', checkpoint: value } : { kind: 'discarded', problem: 'unreadable' };
}

/** UTF-8 length, the unit of the bound (sessionStorage quotas are per origin and counted in characters or bytes). */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]));
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function isCheckpoint(value: Record<string, unknown>): value is SessionCheckpoint & Record<string, unknown> {
  const { messages, events, summary, sequence, droppedEvents, savedAt, run } = value;
  if (typeof summary !== 'string' || !isCount(sequence) || !isCount(droppedEvents) || typeof savedAt !== 'number') {
    return false;
  }
  if (!Array.isArray(messages) || !messages.every(isMessage)) return false;
  if (!Array.isArray(events) || !events.every(isEvent)) return false;
  if (run === undefined) return true;
  return (
    isRecord(run) &&
    isCount(run.turns) &&
    Array.isArray(run.awaitingConfirmation) &&
    run.awaitingConfirmation.every((id) => typeof id === 'string')
  );
}

function isMessage(value: unknown): boolean {
  if (!isRecord(value) || typeof value.role !== 'string' || !ROLES.has(value.role)) return false;
  if (typeof value.content !== 'string') return false;
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) return false;
    for (const call of value.toolCalls) {
      if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(call.function)) return false;
      if (typeof call.function.name !== 'string' || typeof call.function.arguments !== 'string') return false;
    }
  }
  return value.role !== 'tool' || typeof value.toolCallId === 'string';
}

function isEvent(value: unknown): boolean {
  return isRecord(value) && typeof value.type === 'string' && isCount(value.seq) && typeof value.at === 'number';
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
