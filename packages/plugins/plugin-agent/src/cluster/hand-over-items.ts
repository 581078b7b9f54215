// Handed-over items: the markers the owners and the placement share (a clearing, a stopped outcome), the
// IncomingMessage as JSON, the note a taker kept, and telling, after an owner died, whether an item's input had
// entered that owner's turn. A leaf: it imports nothing of this package.
import type { HandOverItem } from '@aalis/api-storage';
import type { IncomingMessage, Message } from '@aalis/schema-message';
import { WellKnownMetadataKeys } from '@aalis/schema-message';

/**
 * Put into a session's queue when a clearing of it begins (deletion, /clear): every item before it was
 * collected before the clearing, so whoever takes them drops them, unarchived (「会话删除」), as the clearing drops
 * what waits in a channel.
 */
export const CLEARING_MARKER = '{"aalisClearing":true}';

/** The outcome of an item whose input's turn was recorded as stopped (after its owner died, or stopped there). */
export const STOPPED = 'stopped';

/** The index of the last clearing marker among taken items (-1: none): the items up to it are dropped. */
export function lastClearing(items: readonly HandOverItem[]): number {
  for (let index = items.length - 1; index >= 0; index--) if (items[index]!.payload === CLEARING_MARKER) return index;
  return -1;
}

/** The tag a Date in an input (its metadata, say) travels as, so the owner gets a Date back, not a string. */
const DATE_TAG = '$aalisDate';

/** An input as a hand-over payload: JSON, with Dates kept as Dates. */
export function serializeInput(message: IncomingMessage): string {
  // A replacer makes every value a call into JS; most inputs hold no Date (or nothing with its own toJSON), and
  // JSON.stringify alone writes exactly the same text for them.
  if (!holdsDateOrToJson(message, 0)) return JSON.stringify(message);
  return JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [DATE_TAG]: raw.getTime() } : value;
  });
}

/** Deeper than any input: a cycle (or an absurd nesting) takes the replacer's path, which reports it as before. */
const MAX_PLAIN_DEPTH = 64;

/** Whether a Date, or any object with its own toJSON (whose result the replacer would see), is in the value. */
function holdsDateOrToJson(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_PLAIN_DEPTH || value instanceof Date) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsDateOrToJson(item, depth + 1)) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (holdsDateOrToJson((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

function reviveDates(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !(DATE_TAG in value)) return value;
  const time = (value as Record<string, unknown>)[DATE_TAG];
  return Object.keys(value).length === 1 && typeof time === 'number' ? new Date(time) : value;
}

export function parseItem(item: HandOverItem): IncomingMessage | undefined {
  try {
    // The reviver only ever changes an object holding the tag; a payload without its text (nor any \u escape that
    // could spell it) parses to the same value without one.
    const plain = !item.payload.includes(DATE_TAG) && !item.payload.includes('\\u');
    const message = (plain ? JSON.parse(item.payload) : JSON.parse(item.payload, reviveDates)) as IncomingMessage;
    return typeof message === 'object' && message !== null && typeof message.sessionId === 'string'
      ? message
      : undefined;
  } catch {
    return undefined;
  }
}

export function noteTurn(note: string): string | undefined {
  try {
    return (JSON.parse(note) as { turnId?: string }).turnId;
  } catch {
    return undefined;
  }
}

/** Whether the history holds this input archived in the given turn (it entered that turn before its owner died). */
export function enteredTurn(
  history: readonly Message[],
  turnId: string | undefined,
  message: IncomingMessage,
): boolean {
  if (turnId === undefined) return false;
  const keys = WellKnownMetadataKeys;
  return history.some(
    (stored) =>
      stored.role === 'user' &&
      stored.metadata?.[keys.TurnId] === turnId &&
      (message.arrival === undefined || stored.metadata?.[keys.Arrival] === message.arrival) &&
      (message.messageId === undefined || stored.metadata?.[keys.MessageId] === message.messageId) &&
      typeof stored.content === 'string' &&
      stored.content.includes(message.content),
  );
}
