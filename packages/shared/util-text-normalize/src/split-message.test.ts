import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitMessage } from './split-message.js';

const fenceBalanced = (piece: string) => (piece.match(/^```/gm) ?? []).length % 2 === 0;

describe('splitMessage', () => {
  it('returns text that fits as one piece, and nothing for empty text', () => {
    expect(splitMessage('hello', 100)).toEqual(['hello']);
    expect(splitMessage('', 100)).toEqual([]);
  });

  it('cuts at paragraph breaks first, then lines, then spaces, never inside a word that fits', () => {
    const text = `${'alpha beta gamma. '.repeat(4).trim()}\n\n${'delta epsilon zeta. '.repeat(4).trim()}`;
    const pieces = splitMessage(text, 80);
    expect(pieces).toEqual(['alpha beta gamma. '.repeat(4).trim(), 'delta epsilon zeta. '.repeat(4).trim()]);
    const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod '.repeat(5);
    for (const piece of splitMessage(words, 40)) {
      expect(piece.length).toBeLessThanOrEqual(40);
      for (const word of piece.split(' ')) expect(words).toContain(word);
    }
    expect(splitMessage(words, 40).join(' ').split(/\s+/).filter(Boolean)).toEqual(words.split(/\s+/).filter(Boolean));
  });

  it('closes a code block at a cut and reopens it with its language in the next piece', () => {
    const code = Array.from({ length: 12 }, (_, index) => `const value${index} = ${index};`).join('\n');
    const pieces = splitMessage(`Here:\n\n\`\`\`ts\n${code}\n\`\`\`\nDone.`, 120);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(120);
      expect(fenceBalanced(piece)).toBe(true);
    }
    expect(pieces[1]?.startsWith('```ts\n')).toBe(true);
    expect(pieces.join('\n')).toContain('const value11 = 11;');
  });

  it('cuts a word longer than the limit without splitting a surrogate pair', () => {
    const pieces = splitMessage('😀'.repeat(30), 17);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(17);
      expect(piece).toMatch(/^(?:😀)+$/u);
    }
    expect(pieces.join('')).toBe('😀'.repeat(30));
  });

  it('keeps every non-space character, in order, within the limit (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('word', 'a', ' ', '\n', '\n\n', '\n```js\n', '\n```\n', '长句子'),
            fc.string({ unit: fc.constantFrom('a', 'b', ' ', '!', '\n') }),
          ),
          {
            maxLength: 200,
          },
        ),
        fc.integer({ min: 16, max: 120 }),
        (parts, limit) => {
          const text = parts.join('');
          const pieces = splitMessage(text, limit);
          for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(limit);
          // Fence lines (the input's own and those added at cuts) are left out of the comparison.
          const strip = (value: string) => value.replace(/^```[^\n]*$/gm, '').replace(/\s+/g, '');
          expect(strip(pieces.join('\n'))).toBe(strip(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a limit too small to hold a fence', () => {
    expect(() => splitMessage('x', 3)).toThrow(RangeError);
  });
});
