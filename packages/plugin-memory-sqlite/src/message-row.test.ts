import type { Message } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from './message-row.js';

/** The encoding as it was first written: the fields other than the columns, undefined ones dropped, as JSON. */
function encodeFromScratch(message: Message, id: string, now: number) {
  const { id: _ignored, role, content, kind, timestamp, ...rest } = message;
  const extraFields = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return {
    id,
    role,
    kind: kind ?? null,
    content,
    timestamp: timestamp ?? now,
    extra: Object.keys(extraFields).length > 0 ? JSON.stringify(extraFields) : null,
  };
}

const json = fc.jsonValue({ maxDepth: 2 });
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const messages = fc.record(
  {
    id: optional(fc.string()),
    role: fc.constantFrom('user', 'assistant', 'system', 'tool'),
    content: fc.string(),
    kind: optional(fc.constantFrom('event-marker', 'compression-divider', 'turn-stopped')),
    timestamp: optional(fc.integer({ min: 0, max: 2 ** 45 })),
    toolCallId: optional(fc.string()),
    name: optional(fc.string()),
    metadata: optional(fc.dictionary(fc.string(), json)),
    toolCalls: optional(
      fc.array(fc.record({ id: fc.string(), name: fc.string(), arguments: fc.string() }), { maxLength: 3 }),
    ),
  },
  { requiredKeys: ['role', 'content'] },
) as fc.Arbitrary<Message>;

describe('message rows', () => {
  it('property: encoding without copying the fields first gives the same row and the same stored message', () => {
    fc.assert(
      fc.property(messages, (message) => {
        const row = encodeMessage(message, 'id-1', 1_700_000_000_000);
        const { turnId: _turnId, ...columns } = row;
        const expected = encodeFromScratch(message, 'id-1', 1_700_000_000_000);
        expect(columns).toEqual(expected);
        expect(decodeMessage(row)).toEqual(decodeMessage(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('stores NULL when only undefined fields remain', () => {
    const message = { role: 'user', content: 'hi', toolCalls: undefined, metadata: undefined } as Message;
    expect(encodeMessage(message, 'id-1', 5).extra).toBeNull();
  });
});
