import { describe, expect, it } from 'vitest';
import { sensitive } from './sensitive.js';
import { collectSensitive, compileScrubber, restoreSensitive, scrubSensitive } from './sensitive-vault.js';

describe('restoring markers for the handler', () => {
  it('a marker the model passes back becomes the labelled real value, also nested; the input is unchanged', () => {
    const vault = collectSensitive([{ profile: { email: sensitive('ann@example.com', 'email') } }, 'plain']);
    const args = { to: '[redacted:email]', cc: ['[redacted:email]', 'bob'], note: 'write to [redacted:email]' };
    expect(restoreSensitive(args, vault)).toEqual({
      to: 'ann@example.com',
      cc: ['ann@example.com', 'bob'],
      // Only whole strings are markers: text around one is the model's, not a reference.
      note: 'write to [redacted:email]',
    });
    expect(args.to).toBe('[redacted:email]');
  });

  it('unlabelled values cannot be referred to; unknown markers stay as text', () => {
    const vault = collectSensitive([sensitive('hidden')]);
    expect(restoreSensitive({ a: '[redacted]', b: '[redacted:nope]' }, vault)).toEqual({
      a: '[redacted]',
      b: '[redacted:nope]',
    });
  });

  it('two different values under one label are ambiguous: SENSITIVE_AMBIGUOUS says to give each its own label', () => {
    const vault = collectSensitive([sensitive('a', 'id'), { other: sensitive('b', 'id') }, sensitive('c', 'same')]);
    expect(() => restoreSensitive({ x: '[redacted:id]' }, vault, 'en')).toThrow(/SENSITIVE_AMBIGUOUS.*own label/);
    expect(() => restoreSensitive({ x: '[redacted:id]' }, vault)).toThrow(/SENSITIVE_AMBIGUOUS: .*各自的标签/);
    expect(
      restoreSensitive('[redacted:same]', collectSensitive([sensitive('c', 'same'), sensitive('c', 'same')])),
    ).toBe('c');
  });
});

describe('scrubSensitive', () => {
  it('replaces every occurrence of each sensitive value (labelled or not, nested, longest first) by its marker', () => {
    const state = [
      { user: { email: sensitive('ann@example.com', 'email'), card: sensitive(4111111111111111n) } },
      [sensitive('ann', 'name'), sensitive('ab')],
    ];
    expect(scrubSensitive('ann@example.com (ann) paid with 4111111111111111; ab stays', state)).toBe(
      '[redacted:email] ([redacted:name]) paid with [redacted]; ab stays',
    );
    expect(scrubSensitive('nothing here', state)).toBe('nothing here');
  });
});

describe('compileScrubber', () => {
  it('finds a value with quotes or backslashes also where it is JSON-escaped (a tool result, a request body)', () => {
    const secret = sensitive('se"cr\\et', 'pin');
    const scrub = compileScrubber([secret]);
    const result = JSON.stringify({ echoed: 'se"cr\\et' });
    const body = JSON.stringify({ messages: [{ role: 'tool', content: result }] });
    expect(scrub('se"cr\\et')).toBe('[redacted:pin]');
    expect(scrub(result)).toBe('{"echoed":"[redacted:pin]"}');
    expect(scrub(body)).not.toContain('cr');
    expect(scrub(body)).toContain('[redacted:pin]');
  });
});

describe('compileScrubber(...).pendingLength', () => {
  it('is the longest tail that could start a value (any of its forms), else 0', () => {
    const scrub = compileScrubber([{ email: sensitive('ann.private@example.com', 'email') }]);
    expect(scrub.pendingLength?.('mail ann.pri')).toBe('ann.pri'.length);
    expect(scrub.pendingLength?.('mail a')).toBe(1);
    expect(scrub.pendingLength?.('Second ')).toBe(0);
    expect(scrub.pendingLength?.('mail [redacted:email]')).toBe(0);
  });
});
