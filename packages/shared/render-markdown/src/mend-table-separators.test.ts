import { describe, expect, it } from 'vitest';
import { mendTableSeparators, tableCells } from './mend-table-separators.js';

describe('mendTableSeparators', () => {
  it('keeps a well-formed table and text without tables as they are (apart from a canonical separator)', () => {
    const plain = 'No table here.\nJust | one pipe in prose? No: a single row is not a table.';
    expect(mendTableSeparators(plain)).toBe(plain);
    expect(mendTableSeparators('| a | b |\n| --- | ---: |\n| 1 | 2 |')).toBe('| a | b |\n| --- | ---: |\n| 1 | 2 |');
  });

  it('gives a separator row with too few or too many columns the header’s count, alignments kept', () => {
    expect(mendTableSeparators('| a | b | c |\n|:---|---|\n| 1 | 2 | 3 |')).toBe(
      '| a | b | c |\n| :--- | --- | --- |\n| 1 | 2 | 3 |',
    );
    expect(mendTableSeparators('| a | b |\n|---|:-:|---|---|\n| 1 | 2 |')).toBe(
      '| a | b |\n| --- | :---: |\n| 1 | 2 |',
    );
  });

  it('mends missing pipes, unicode dashes and = in the separator row', () => {
    expect(mendTableSeparators('| a | b |\n---|---\n| 1 | 2 |')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(mendTableSeparators('| a | b |\n|———|–––|\n| 1 | 2 |')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(mendTableSeparators('| a | b |\n|===|===|\n| 1 | 2 |')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(mendTableSeparators('| a | b |\n---\n| 1 | 2 |')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('adds the separator row a framed pipe table lacks, and widens a header narrower than its rows', () => {
    expect(mendTableSeparators('| a | b |\n| 1 | 2 |\n| 3 | 4 |\n\nafter')).toBe(
      '| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\nafter',
    );
    expect(mendTableSeparators('| a | b |\n|---|---|\n| 1 | 2 | 3 |')).toBe(
      '| a | b |   |\n| --- | --- | --- |\n| 1 | 2 | 3 |',
    );
  });

  it('leaves fenced code, setext headings and text around the table alone', () => {
    const fenced = '```\n| a | b |\n|---|\n```';
    expect(mendTableSeparators(fenced)).toBe(fenced);
    const heading = 'a | b\n---';
    expect(mendTableSeparators(heading)).toBe(heading);
    expect(mendTableSeparators('Intro:\n\n| a | b |\n|-|\n| 1 | 2 |\n\nDone.')).toBe(
      'Intro:\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\nDone.',
    );
  });

  it('splits cells on unescaped pipes only', () => {
    expect(tableCells('| a \\| b | c |')).toEqual(['a \\| b', 'c']);
    expect(tableCells('a | b')).toEqual(['a', 'b']);
  });
});
