import { describe, expect, it } from 'vitest';
import { fts5AnyOf, queryTerms } from './query-terms.js';
import { indexText, MAX_INDEXED_CHARS, searchTerms } from './search-terms.js';

describe('searchTerms', () => {
  it('cuts Chinese into words and gives longer words their two-character pieces', () => {
    const terms = searchTerms('我上周去杭州西湖看了荷花');
    expect(terms).toContain('杭州');
    expect(terms).toContain('西湖');
    expect(terms).toContain('荷花');
    expect(searchTerms('中华人民共和国')).toEqual(['中华', '人民', '共和国', '共和', '和国']);
  });

  it('stems and lower-cases English, keeps digits, drops punctuation', () => {
    expect(searchTerms('Caroline LOVES Painting sunsets, 3.5 times!')).toEqual([
      'carolin',
      'love',
      'paint',
      'sunset',
      '3',
      '5',
      'time',
    ]);
  });

  it('reads full-width letters as ASCII and skips runs too long to be words', () => {
    expect(searchTerms('ＡＢＣ１２３')).toEqual(['abc123']);
    expect(searchTerms(`key ${'x'.repeat(200)} end`)).toEqual(['kei', 'end']);
  });

  it('reads at most MAX_INDEXED_CHARS of a huge text', () => {
    const huge = 'word '.repeat(MAX_INDEXED_CHARS);
    expect(searchTerms(huge).length).toBe(MAX_INDEXED_CHARS / 5);
  });

  it('gives binary junk no terms that are not letters or digits', () => {
    const junk = String.fromCharCode(...Array.from({ length: 500 }, (_, i) => (i * 7919) % 0xffff));
    for (const term of searchTerms(junk)) expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
    expect(indexText('a\u0000b')).toBe('a b');
  });
});

describe('queryTerms', () => {
  it('keeps the meaningful distinct terms of a question', () => {
    expect(queryTerms('What did Caroline say about her painting of the sunset?')).toEqual([
      'carolin',
      'sai',
      'paint',
      'sunset',
    ]);
    expect(queryTerms('她上次说的荷花是在哪里看的？')).toEqual(['上次', '荷花']);
  });

  it('bounds the number of terms', () => {
    const text = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    expect(queryTerms(text, 5)).toHaveLength(5);
  });

  it('quotes terms for FTS5 so none is read as syntax', () => {
    expect(fts5AnyOf(['near', 'or', 'a"b'])).toBe('"near" OR "or" OR "a""b"');
  });
});
