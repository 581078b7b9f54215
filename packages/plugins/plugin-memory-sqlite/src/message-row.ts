// Encoding of a Message into a memory_messages row and back. The stored form is what every read returns, so append
// answers with it too: built from the message itself (storedMessage), as decode(encode(message)) would give it.
import { turnIdOf } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';

export interface MessageRow {
  id: string;
  role: string;
  kind: string | null;
  content: string;
  timestamp: number;
  extra: string | null;
}

export interface EncodedMessage extends MessageRow {
  turnId: string | null;
}

export function encodeMessage(message: Message, id: string, now: number): EncodedMessage {
  const { id: _ignored, role, content, kind, timestamp, ...rest } = message;
  // JSON leaves out fields whose value is undefined, so the remaining fields need no copy without them first; none
  // left at all is stored as NULL (message-row.test.ts: the same rows as filtering first).
  const extra = JSON.stringify(rest);
  return {
    id,
    role,
    kind: kind ?? null,
    content,
    timestamp: timestamp ?? now,
    extra: extra === '{}' ? null : extra,
    turnId: turnIdOf(message) ?? null,
  };
}

export function decodeMessage(row: MessageRow): Message {
  const message = {
    id: row.id,
    role: row.role,
    content: row.content,
    ...(row.kind === null ? {} : { kind: row.kind }),
    ...(row.extra === null ? {} : (JSON.parse(row.extra) as Record<string, unknown>)),
    timestamp: row.timestamp,
  };
  return message as Message;
}

/** Marks a value JSON would not give back as it is (a Date, a class instance, a toJSON, a `__proto__` key). */
const NOT_PLAIN: unique symbol = Symbol('not plain');

/** `value` as JSON.parse(JSON.stringify(value)) gives it, for plain values only (else NOT_PLAIN). */
function jsonCopy(value: unknown): unknown {
  if (typeof value !== 'object') {
    if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
    return value;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const element: unknown = value[index];
      // JSON writes null for what it cannot write in an array (undefined, functions, symbols, holes).
      if (element === undefined || typeof element === 'function' || typeof element === 'symbol') copy[index] = null;
      else {
        const inner = jsonCopy(element);
        if (inner === NOT_PLAIN) return NOT_PLAIN;
        copy[index] = inner;
      }
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  if (copyFields(record, copy) === NOT_PLAIN) return NOT_PLAIN;
  return copy;
}

/** Copies the fields JSON keeps (undefined, functions and symbols are left out) of `from` into `to`. */
function copyFields(from: Record<string, unknown>, to: Record<string, unknown>): typeof NOT_PLAIN | undefined {
  for (const key of Object.keys(from)) {
    const field = from[key];
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    // JSON.parse makes `__proto__` an own field; an assignment would set the prototype instead.
    if (key === '__proto__') return NOT_PLAIN;
    const inner = jsonCopy(field);
    if (inner === NOT_PLAIN) return NOT_PLAIN;
    to[key] = inner;
  }
  return undefined;
}

/**
 * The message as a read gives it back, built from the message and its encoded row without parsing the JSON just
 * written: a copy with JSON's rules (decodeMessage's fields in its order), sharing nothing with the caller's message.
 * A value JSON would change in other ways (a Date, a class instance) is decoded from the row instead.
 */
export function storedMessage(message: Message, row: MessageRow): Message {
  const { id: _id, role: _role, content: _content, kind: _kind, timestamp: _timestamp, ...rest } = message;
  const stored: Record<string, unknown> = { id: row.id, role: row.role, content: row.content };
  if (row.kind !== null) stored.kind = row.kind;
  if (row.extra !== null && copyFields(rest, stored) === NOT_PLAIN) return decodeMessage(row);
  stored.timestamp = row.timestamp;
  return stored as unknown as Message;
}
