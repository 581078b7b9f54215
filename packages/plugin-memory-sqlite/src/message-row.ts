// Encoding of a Message into a memory_messages row and back. The stored form is what every read returns, so append
// answers with decode(encode(message)) too.
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
