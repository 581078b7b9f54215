// How many terminal columns a string takes: ANSI escapes take none, East Asian wide characters and emoji take two,
// combining marks take none. Used to know how many rows the live region and the prompt occupy. Emoji sequences (a
// ZWJ family, a keycap, a flag, a skin tone, a symbol with the emoji variation selector) take two columns as one character, as
// terminals draw them: such strings are cut into grapheme clusters (Intl.Segmenter); every other string is counted
// per code point, which is 30× faster (docs/decisions/hand-written-string-width.md).

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC (and OSC ends with BEL).
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
/** What makes several code points one emoji: ZWJ, VS16, the keycap mark, regional indicators, skin tones. */
const EMOJI_JOINERS = /[\u200d\ufe0f\u20e3]|\ud83c[\udde6-\uddff\udffb-\udfff]/;

let graphemes: Intl.Segmenter | undefined;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function charWidth(codePoint: number): number {
  if (codePoint === 0 || codePoint < 32 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  // Below U+0300 nothing is combining or wide: most text never reaches the tables.
  if (codePoint < 0x300) return 1;
  if (inRanges(codePoint, COMBINING)) return 0;
  return inRanges(codePoint, WIDE) ? 2 : 1;
}

/** The width of one grapheme cluster: its widest code point, and two for an emoji sequence. */
function clusterWidth(cluster: string): number {
  let width = 0;
  for (const char of cluster) width = Math.max(width, charWidth(char.codePointAt(0)!));
  return width > 0 && cluster.length > 1 && EMOJI_JOINERS.test(cluster) ? 2 : width;
}

/** The characters of an ANSI-free string as the terminal places them, each with its width. */
function* cells(text: string): Generator<[string, number]> {
  if (!EMOJI_JOINERS.test(text)) {
    for (const char of text) yield [char, charWidth(char.codePointAt(0)!)];
    return;
  }
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) yield [segment, clusterWidth(segment)];
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const [, cellWidth] of cells(stripAnsi(text))) width += cellWidth;
  return width;
}

/**
 * Where the cursor ends after writing `text` from column 0 on a terminal `columns` wide (rows below the start, and the
 * column), as terminals and Node's readline lay it out: a wide character that would straddle the edge moves to the
 * next row. At an exact multiple of the width the column is 0 of the next row (the terminal holds the cursor at the
 * edge until something more is written).
 */
export function endPosition(text: string, columns: number): { rows: number; cols: number } {
  if (columns <= 0) return { rows: 0, cols: displayWidth(text) };
  let offset = 0;
  for (const [, width] of cells(stripAnsi(text))) {
    if (width === 2 && (offset + 1) % columns === 0) offset++;
    offset += width;
  }
  const cols = offset % columns;
  return { rows: (offset - cols) / columns, cols };
}

/** Rows a line takes when written from column 0 and followed by a newline (an empty line takes one). */
export function rowsOf(line: string, columns: number): number {
  const end = endPosition(line, columns);
  return end.cols === 0 && end.rows > 0 ? end.rows : end.rows + 1;
}

/** Cuts a plain (ANSI-free) string to at most `columns` columns, ending in '…' when cut. */
export function truncateToWidth(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  let width = 0;
  let result = '';
  for (const [cell, next] of cells(text)) {
    if (width + next > columns - 1) break;
    width += next;
    result += cell;
  }
  return `${result}…`;
}

/** Ranges of code points (inclusive, ascending) that take no column: combining marks, zero widths, selectors. */
// biome-ignore format: a few ranges a line, as the Unicode tables list them.
const COMBINING: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f], [0x200b, 0x200f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f],
];

/** Ranges of code points (inclusive, ascending) that take two columns: East Asian wide and fullwidth, emoji. */
// biome-ignore format: a few ranges a line, as the Unicode tables list them.
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x23e9, 0x23ec], [0x23f0, 0x23f0],
  [0x23f3, 0x23f3], [0x23f8, 0x23fa], [0x25fd, 0x25fe], [0x2614, 0x2615],
  [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce],
  [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3], [0x26f5, 0x26f5],
  [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755],
  [0x2757, 0x2757], [0x2795, 0x2797], [0x27b0, 0x27b0], [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff], [0x1f900, 0x1f9ff], [0x1fa70, 0x1faff], [0x20000, 0x3fffd],
];

/** Whether `codePoint` falls in one of `ranges` (ascending, not overlapping): a binary search. */
function inRanges(codePoint: number, ranges: readonly (readonly [number, number])[]): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const [first, last] = ranges[middle]!;
    if (codePoint < first) high = middle - 1;
    else if (codePoint > last) low = middle + 1;
    else return true;
  }
  return false;
}
