// The one pass over a text's char codes that token estimation is built on: it splits the text roughly the way
// o200k's pre-tokenizer does (words and camelCase pieces, 3-digit groups, punctuation runs, whitespace runs, CJK)
// and counts each kind of piece into a feature vector. estimate-tokens.ts weighs the vector; the calibration
// script fits the weights against a real tokenizer.

/** Longest letter piece with its own weight; longer pieces add FEATURE.extraLetter per further letter. */
export const MAX_PIECE = 20;
/** Longest punctuation run with its own weight; longer runs add FEATURE.extraPunct per further char. */
export const MAX_PUNCT_RUN = 6;

/** Index of each feature in the vector. `piece + n - 1` is a letter piece of n letters, `punct + n - 1` a run. */
export const FEATURE = {
  piece: 0,
  extraLetter: MAX_PIECE,
  nonAsciiLetter: MAX_PIECE + 1,
  digitGroup: MAX_PIECE + 2,
  punct: MAX_PIECE + 3,
  extraPunct: MAX_PIECE + 3 + MAX_PUNCT_RUN,
  newlineRun: MAX_PIECE + 4 + MAX_PUNCT_RUN,
  spaceRun: MAX_PIECE + 5 + MAX_PUNCT_RUN,
  cjkChar: MAX_PIECE + 6 + MAX_PUNCT_RUN,
  cjkRun: MAX_PIECE + 7 + MAX_PUNCT_RUN,
  cjkPunct: MAX_PIECE + 8 + MAX_PUNCT_RUN,
  kana: MAX_PIECE + 9 + MAX_PUNCT_RUN,
  hangul: MAX_PIECE + 10 + MAX_PUNCT_RUN,
  generalPunct: MAX_PIECE + 11 + MAX_PUNCT_RUN,
  symbol: MAX_PIECE + 12 + MAX_PUNCT_RUN,
  astral: MAX_PIECE + 13 + MAX_PUNCT_RUN,
} as const;

export const FEATURE_COUNT = FEATURE.astral + 1;

// Run kinds while scanning.
const NONE = 0;
const LETTER = 1;
const DIGIT = 2;
const PUNCT = 3;
const SPACE = 4;

// Character classes: what a char does to the run it meets. ASCII ones come from a table.
const C_LOWER = 0;
const C_UPPER = 1;
const C_DIGIT = 2;
const C_SPACE = 3;
const C_NEWLINE = 4;
const C_PUNCT = 5;
const C_LETTER = 6; // a non-ASCII letter
/** The run each class belongs to, by class. */
const RUN_OF = Uint8Array.of(LETTER, LETTER, DIGIT, SPACE, SPACE, PUNCT, LETTER);

const ASCII_CLASS = new Uint8Array(128).fill(C_PUNCT);
for (let code = 97; code <= 122; code++) ASCII_CLASS[code] = C_LOWER;
for (let code = 65; code <= 90; code++) ASCII_CLASS[code] = C_UPPER;
for (let code = 48; code <= 57; code++) ASCII_CLASS[code] = C_DIGIT;
ASCII_CLASS[32] = C_SPACE;
ASCII_CLASS[9] = C_SPACE;
ASCII_CLASS[10] = C_NEWLINE;
ASCII_CLASS[13] = C_NEWLINE;

/**
 * Adds the features of `text` to `counts` (length FEATURE_COUNT). A single pass, no allocation.
 * A single space is free: o200k folds it into the following word or punctuation.
 */
export function countTextFeatures(text: string, counts: Float64Array): void {
  let run = NONE;
  let length = 0;
  let previousLower = false;
  let newline = false;
  // Spaces after the last newline of a whitespace run: an indentation of two or more is a token of its own.
  let indent = 0;
  const end = text.length;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    let kind: number;
    if (code < 128) kind = ASCII_CLASS[code]!;
    else if (code >= 0x4e00 && code <= 0x9fff) {
      // CJK unified ideographs: counted per char, plus one per run (a run is one pre-token).
      if (run !== NONE) {
        flush(counts, run, length, newline, indent);
        run = NONE;
        counts[FEATURE.cjkRun]!++;
      } else if (index === 0 || !isIdeograph(text.charCodeAt(index - 1))) {
        counts[FEATURE.cjkRun]!++;
      }
      counts[FEATURE.cjkChar]!++;
      continue;
    } else if (isNonAsciiLetter(code)) kind = C_LETTER;
    else if (code === 0xa0) kind = C_SPACE;
    else {
      flush(counts, run, length, newline, indent);
      run = NONE;
      countOther(code, counts);
      // A surrogate pair is one char here: its low half is skipped.
      if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) index++;
      continue;
    }
    const next = RUN_OF[kind]!;
    // A capital after a lower-case letter starts a new piece (camelCase), as in o200k's pattern.
    if (run !== next || (kind === C_UPPER && previousLower)) {
      flush(counts, run, length, newline, indent);
      run = next;
      length = 0;
      newline = false;
      indent = 0;
    }
    length++;
    switch (kind) {
      case C_LOWER:
        previousLower = true;
        break;
      case C_UPPER:
        previousLower = false;
        break;
      case C_SPACE:
        indent++;
        break;
      case C_NEWLINE:
        newline = true;
        indent = 0;
        break;
      case C_LETTER:
        previousLower = true;
        counts[FEATURE.nonAsciiLetter]!++;
        break;
    }
  }
  flush(counts, run, length, newline, indent);
}

/** Counts a char that is none of letter, digit, space, ASCII punctuation or CJK ideograph, by its block. */
function countOther(code: number, counts: Float64Array): void {
  if (code >= 0xd800 && code <= 0xdbff) {
    counts[FEATURE.astral]!++;
  } else if ((code >= 0x3400 && code <= 0x4dbf) || (code >= 0xf900 && code <= 0xfaff)) {
    counts[FEATURE.cjkChar]!++;
    counts[FEATURE.cjkRun]!++;
  } else if ((code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xffef)) {
    counts[FEATURE.cjkPunct]!++;
  } else if (code >= 0x3040 && code <= 0x30ff) {
    counts[FEATURE.kana]!++;
  } else if (code >= 0xac00 && code <= 0xd7af) {
    counts[FEATURE.hangul]!++;
  } else if (code >= 0x2000 && code <= 0x206f) {
    counts[FEATURE.generalPunct]!++;
  } else {
    counts[FEATURE.symbol]!++;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function flush(counts: Float64Array, run: number, length: number, newline: boolean, indent: number): void {
  switch (run) {
    case LETTER:
      countRun(counts, length, FEATURE.piece, MAX_PIECE, FEATURE.extraLetter);
      return;
    case DIGIT:
      counts[FEATURE.digitGroup]! += Math.ceil(length / 3);
      return;
    case PUNCT:
      countRun(counts, length, FEATURE.punct, MAX_PUNCT_RUN, FEATURE.extraPunct);
      return;
    case SPACE:
      if (newline) counts[FEATURE.newlineRun]!++;
      if (indent > 1) counts[FEATURE.spaceRun]!++;
      return;
  }
}

/**
 * A run counted in the bucket of its length (`first` + length − 1; the `max`th holds the longer runs too), and each
 * char past `max` in `extra`.
 */
function countRun(counts: Float64Array, length: number, first: number, max: number, extra: number): void {
  counts[first + Math.min(length, max) - 1]!++;
  if (length > max) counts[extra]! += length - max;
}

function isIdeograph(code: number): boolean {
  return code >= 0x4e00 && code <= 0x9fff;
}

function isNonAsciiLetter(code: number): boolean {
  // Latin-1 and Latin Extended letters (without × and ÷), Greek, Cyrillic.
  return (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) || (code >= 0x370 && code <= 0x4ff);
}
