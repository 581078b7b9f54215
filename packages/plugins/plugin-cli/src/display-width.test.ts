import { describe, expect, it } from 'vitest';
import { displayWidth, endPosition, rowsOf, stripAnsi, truncateToWidth } from './display-width.js';

describe('displayWidth', () => {
  it('counts ASCII as one column, CJK and emoji as two, escapes and combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('你好')).toBe(4);
    expect(displayWidth('💭 ok')).toBe(5);
    expect(displayWidth('\x1b[2mdim\x1b[22m')).toBe(3);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(stripAnsi('\x1b[31mred\x1b[39m')).toBe('red');
  });

  it('gives the rows a line takes on a terminal of a given width', () => {
    expect(rowsOf('', 80)).toBe(1);
    expect(rowsOf('x'.repeat(80), 80)).toBe(1);
    expect(rowsOf('x'.repeat(81), 80)).toBe(2);
    expect(rowsOf('字'.repeat(41), 80)).toBe(2);
  });

  it('moves a wide character that would straddle the edge to the next row, as terminals do', () => {
    // 'a' then 5 wide characters on a 10-column terminal: a + 4 wide = 9 columns, the 5th does not fit in 1.
    expect(endPosition(`a${'字'.repeat(5)}`, 10)).toEqual({ rows: 1, cols: 2 });
    expect(rowsOf(`a${'字'.repeat(5)}`, 10)).toBe(2);
    expect(rowsOf(`a${'字'.repeat(9)}`, 10)).toBe(2); // row 1: a + 4 wide + 1 padding; row 2: 5 wide, full
    expect(endPosition('x'.repeat(20), 10)).toEqual({ rows: 2, cols: 0 });
    expect(rowsOf('x'.repeat(20), 10)).toBe(2);
  });

  it('truncates to a width with an ellipsis', () => {
    expect(truncateToWidth('hello world', 8)).toBe('hello w…');
    expect(truncateToWidth('short', 8)).toBe('short');
    expect(displayWidth(truncateToWidth('你好世界你好', 7))).toBeLessThanOrEqual(7);
  });

  it('counts an emoji sequence as the two columns the terminal draws it in, and never cuts one apart', () => {
    expect(displayWidth('👨\u200d👩\u200d👧')).toBe(2); // a ZWJ family is one emoji
    expect(displayWidth('1\ufe0f\u20e3')).toBe(2); // keycap
    expect(displayWidth('🇫🇷')).toBe(2); // flag
    expect(displayWidth('❤\ufe0f ok')).toBe(5); // emoji presentation of a narrow symbol
    expect(displayWidth('👍🏽')).toBe(2); // skin tone modifier
    expect(displayWidth('a👨\u200d👩\u200d👧b字')).toBe(6);
    expect(endPosition(`${'x'.repeat(9)}👨\u200d👩\u200d👧`, 10)).toEqual({ rows: 1, cols: 2 });
    const cut = truncateToWidth('ab👨\u200d👩\u200d👧cd', 4);
    expect(cut).toBe('ab…');
    expect(truncateToWidth('ab👨\u200d👩\u200d👧cd', 5)).toBe('ab👨\u200d👩\u200d👧…');
  });
});
