import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PageError } from './errors.js';
import { isSensitive, redact, redactionMarker, reveal, sensitive } from './sensitive.js';

describe('sensitive()', () => {
  it('anything leaving the page shows [redacted:label]; the page still reads the real value', () => {
    const email = sensitive('ann@example.com', 'email');
    expect(email.reveal()).toBe('ann@example.com');
    expect(JSON.stringify({ email })).toBe('{"email":"[redacted:email]"}');
    expect(`${email}`).toBe('[redacted:email]');
    expect(String(sensitive(42))).toBe('[redacted]');
    expect(isSensitive(email)).toBe(true);
    expect(isSensitive({ label: 'email' })).toBe(false);
  });

  it('rejects a label that would break the marker, saying which characters to use', () => {
    expect(() => sensitive('x', 'a]b')).toThrow(PageError);
    expect(() => sensitive('x', 'a]b', 'en')).toThrow(/INVALID_SENSITIVE_LABEL.*letters, digits/);
    expect(() => sensitive('x', 'a]b')).toThrow(/INVALID_SENSITIVE_LABEL: .*字母、数字/);
  });
});

describe('redact()', () => {
  it('walks nested plain objects and arrays and does not mutate the original', () => {
    const card = sensitive('4111 1111', 'card');
    const original = { user: { name: 'Ann', cards: [card, { backup: sensitive('5500', 'card2') }] }, total: 3 };
    const copy = redact(original);
    expect(copy).toEqual({
      user: { name: 'Ann', cards: ['[redacted:card]', { backup: '[redacted:card2]' }] },
      total: 3,
    });
    expect(original.user.cards[0]).toBe(card);
    expect(reveal(original)).toEqual({ user: { name: 'Ann', cards: ['4111 1111', { backup: '5500' }] }, total: 3 });
  });

  it('keeps non-plain objects, redacts a top-level wrapper, and cuts cycles', () => {
    const date = new Date(0);
    expect((redact({ date }) as { date: Date }).date).toBe(date);
    expect(redact(sensitive('x', 'k'))).toBe(redactionMarker('k'));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ a: 1, self: '[circular]' });
    const shared = { s: 1 };
    expect(redact([shared, shared])).toEqual([{ s: 1 }, { s: 1 }]);
  });

  it('property: the real value never appears in the JSON of a redacted structure, and the input is unchanged', () => {
    const secret = fc.string({ minLength: 8 }).map((text) => `SECRET-${text}`);
    fc.assert(
      fc.property(fc.jsonValue(), secret, fc.array(fc.string(), { maxLength: 3 }), (tree, value, path) => {
        let holder: unknown = sensitive(value, 'x');
        for (const key of path) holder = { [key]: holder, other: tree };
        const input = [tree, holder];
        const before = JSON.stringify(reveal(input));
        expect(JSON.stringify(redact(input))).not.toContain(value);
        expect(JSON.stringify(reveal(input))).toBe(before);
      }),
    );
  });
});
