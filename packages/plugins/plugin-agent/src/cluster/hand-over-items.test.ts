import type { IncomingMessage } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseItem, serializeInput } from './hand-over-items.js';

// The encoding as it was written first: a replacer and a reviver on every value. The plain JSON paths taken when a
// value holds no Date must give exactly the same text and the same value back.
const TAG = '$aalisDate';
const referenceSerialize = (message: IncomingMessage): string =>
  JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [TAG]: raw.getTime() } : value;
  });
const referenceParse = (payload: string): unknown =>
  JSON.parse(payload, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || !(TAG in value)) return value;
    const time = (value as Record<string, unknown>)[TAG];
    return Object.keys(value).length === 1 && typeof time === 'number' ? new Date(time) : value;
  });

const item = (payload: string) => ({ id: 1, name: 'session:x', payload, note: undefined, orphaned: false });

const leaf = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }),
  fc.constant(TAG),
  fc.constant({ [TAG]: 5 }),
  fc.constant({ [TAG]: 5, other: 1 }),
);
const nested = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constant(TAG)), tie('value'), { maxKeys: 4 }),
})).value;
const message = fc.record({
  sessionId: fc.string(),
  platform: fc.string(),
  content: fc.string({ unit: 'binary' }),
  arrival: fc.option(fc.integer(), { nil: undefined }),
  metadata: fc.option(fc.dictionary(fc.string(), nested, { maxKeys: 5 }), { nil: undefined }),
}) as fc.Arbitrary<IncomingMessage>;

describe('hand-over payloads', () => {
  it('are written and read back exactly as with a replacer and a reviver on every value', () => {
    fc.assert(
      fc.property(message, (input) => {
        const payload = serializeInput(input);
        expect(payload).toBe(referenceSerialize(input));
        expect(parseItem(item(payload))).toEqual(referenceParse(payload));
      }),
      { numRuns: 200 },
    );
  });

  it('keep Dates as Dates, also next to a plain value spelling the tag', () => {
    const at = new Date(1_700_000_000_000);
    const input = { sessionId: 's', platform: 'cli', content: TAG, metadata: { at, list: [at], note: TAG } };
    const back = parseItem(item(serializeInput(input as unknown as IncomingMessage)));
    expect(back?.metadata?.at).toEqual(at);
    expect(back?.metadata?.list).toEqual([at]);
    expect(back?.metadata?.note).toBe(TAG);
    expect(back?.content).toBe(TAG);
  });

  it('read a tag spelled with escapes as the reviver does', () => {
    const payload = '{"sessionId":"s","metadata":{"at":{"\\u0024aalisDate":5}}}';
    expect(parseItem(item(payload))?.metadata?.at).toEqual(new Date(5));
  });

  it('refuse a cycle as before', () => {
    const metadata: Record<string, unknown> = {};
    metadata.self = metadata;
    expect(() => serializeInput({ sessionId: 's', metadata } as unknown as IncomingMessage)).toThrow(TypeError);
  });
});
