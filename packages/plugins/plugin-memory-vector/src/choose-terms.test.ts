import { describe, expect, it } from 'vitest';
import { chooseTerms, MAX_READ_ENTRIES } from './choose-terms.js';

describe('chooseTerms', () => {
  it('keeps every found term of a small index, rarest first', () => {
    const counts = new Map([
      ['common', 900],
      ['rare', 2],
      ['absent', 0],
    ]);
    expect(chooseTerms(['common', 'rare', 'absent', 'unknown'], counts, 1_000)).toEqual(['rare', 'common']);
  });

  it('leaves out terms most entries of a large index hold, and stops at the entries a query may read', () => {
    const total = 1_000_000;
    const counts = new Map([
      ['the', 600_000],
      ['a', 30],
      ['b', 300],
      ['c', MAX_READ_ENTRIES - 100],
      ['d', 20_000],
    ]);
    expect(chooseTerms(['the', 'a', 'b', 'c', 'd'], counts, total)).toEqual(['a', 'b', 'd']);
  });
});
