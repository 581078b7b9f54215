import type { Message } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, storedMessage } from './message-row.js';

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

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** Values JSON changes or drops: undefined fields and elements, non-finite numbers, -0, dates, instances, toJSON. */
const awkward = fc.oneof(
  json,
  fc.constantFrom(
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    new Date(1_700_000_000_000),
    new Point(1, 2),
    { toJSON: () => 'replaced' },
    Object.assign(Object.create(null) as object, { bare: true }),
    [1, undefined, () => 2, Symbol('s')],
    // biome-ignore lint/suspicious/noSparseArray: a hole is one of the things JSON writes as null
    [1, , 3],
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    { nested: { gone: undefined, kept: [undefined, { deep: Number.NaN }] } },
  ),
);
const extraFields = fc.dictionary(
  fc.constantFrom('metadata', 'parts', 'extra', 'attachments', 'reasoningContent', 'custom'),
  awkward,
);

describe('storedMessage (what append answers, without parsing the JSON just written)', () => {
  it('property: equals decode(encode(message)), fields and their order, and shares nothing with the message', () => {
    fc.assert(
      fc.property(messages, extraFields, (base, extra) => {
        const message = { ...base, ...extra } as Message;
        const row = encodeMessage(message, 'id-1', 1_700_000_000_000);
        const expected = decodeMessage(row);
        const stored = storedMessage(message, row);
        expect(stored).toStrictEqual(expected);
        expect(Object.keys(stored)).toEqual(Object.keys(expected));
        expect(JSON.stringify(stored)).toBe(JSON.stringify(expected));
        // Changing what the caller still holds changes nothing stored.
        if (message.metadata && typeof message.metadata === 'object') {
          (message.metadata as Record<string, unknown>).changedLater = true;
          expect(stored.metadata).toStrictEqual(expected.metadata);
        }
        for (const call of message.toolCalls ?? []) (call as { id: string }).id = 'changed later';
        expect(stored.toolCalls).toStrictEqual(expected.toolCalls);
      }),
      { numRuns: 1000 },
    );
  });
});
