import { describe, expect, it } from 'vitest';
import { shortenText } from './shorten-text.js';

describe('shortenText', () => {
  it('keeps the first n characters', () => {
    expect(shortenText('abcdef', 3)).toBe('abc');
    expect(shortenText('abc', 3)).toBe('abc');
  });

  it('never splits a surrogate pair', () => {
    expect(shortenText('ab😀cd', 3)).toBe('ab');
  });
});
