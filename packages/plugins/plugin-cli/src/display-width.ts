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
  if (isCombining(codePoint)) return 0;
  return isWide(codePoint) ? 2 : 1;
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

function isCombining(codePoint: number): boolean {
  return (
    (codePoint >= 0x0300 && codePoint <= 0x036f) ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0x20d0 && codePoint <= 0x20ff)
  );
}

function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x231a && codePoint <= 0x231b) ||
    (codePoint >= 0x23e9 && codePoint <= 0x23ec) ||
    codePoint === 0x23f0 ||
    codePoint === 0x23f3 ||
    (codePoint >= 0x23f8 && codePoint <= 0x23fa) ||
    (codePoint >= 0x25fd && codePoint <= 0x25fe) ||
    (codePoint >= 0x2614 && codePoint <= 0x2615) ||
    (codePoint >= 0x2648 && codePoint <= 0x2653) ||
    codePoint === 0x267f ||
    codePoint === 0x2693 ||
    codePoint === 0x26a1 ||
    (codePoint >= 0x26aa && codePoint <= 0x26ab) ||
    (codePoint >= 0x26bd && codePoint <= 0x26be) ||
    (codePoint >= 0x26c4 && codePoint <= 0x26c5) ||
    codePoint === 0x26ce ||
    codePoint === 0x26d4 ||
    codePoint === 0x26ea ||
    (codePoint >= 0x26f2 && codePoint <= 0x26f3) ||
    codePoint === 0x26f5 ||
    codePoint === 0x26fa ||
    codePoint === 0x26fd ||
    codePoint === 0x2705 ||
    (codePoint >= 0x270a && codePoint <= 0x270b) ||
    codePoint === 0x2728 ||
    codePoint === 0x274c ||
    codePoint === 0x274e ||
    (codePoint >= 0x2753 && codePoint <= 0x2755) ||
    codePoint === 0x2757 ||
    (codePoint >= 0x2795 && codePoint <= 0x2797) ||
    codePoint === 0x27b0 ||
    codePoint === 0x27bf ||
    (codePoint >= 0x2b1b && codePoint <= 0x2b1c) ||
    codePoint === 0x2b50 ||
    codePoint === 0x2b55 ||
    (codePoint >= 0x2e80 && codePoint <= 0x303e) ||
    (codePoint >= 0x3041 && codePoint <= 0x33ff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0xa000 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xa960 && codePoint <= 0xa97f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe10 && codePoint <= 0xfe19) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe6f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
    (codePoint >= 0x1f680 && codePoint <= 0x1f6ff) ||
    (codePoint >= 0x1f900 && codePoint <= 0x1f9ff) ||
    (codePoint >= 0x1fa70 && codePoint <= 0x1faff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  );
}
