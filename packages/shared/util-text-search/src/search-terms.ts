// The terms a full-text index stores and a query looks for, the same for every engine (SQLite FTS5 with its
// unicode61 tokenizer, PostgreSQL tsvector through array_to_tsvector): Chinese and Japanese are cut into words by
// ICU's dictionary (Intl.Segmenter), longer CJK words also give their two-character pieces so that a query word
// found inside a longer compound still meets it, Latin words are lower-cased and stemmed (Porter), and every term is
// letters and digits only, so neither engine's own tokenizer cuts it differently.
import { stemmer } from 'stemmer';

/** Longest text read from one document; the rest does not reach the index (every size bounded). */
export const MAX_INDEXED_CHARS = 20_000;
/** A longer run of letters is not a word (base64, hashes, junk): skipped. */
export const MAX_TERM_CHARS = 32;

// Made on first use: loading ICU's word dictionary costs start-up time that a process which never indexes saves.
let segmenter: Intl.Segmenter | undefined;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const LATIN_WORD = /^[a-z]+$/;
/**
 * Text of Latin letters, digits, spaces and punctuation only: there ICU's word rules put a boundary around every run
 * of letters and digits, so splitting at what is neither gives the same terms as the segmenter, ~25× faster (the
 * segmenter was most of the cost of indexing; segment-free.test.ts compares both on random text of this range).
 * Invisible format characters (soft hyphen, zero-width joiners, direction marks) are left to the segmenter: after
 * some word endings ICU then drops the word, and the two would differ.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are part of the range (spaces, breaks)
export const SEGMENTER_NOT_NEEDED = /^[\u0000-\u00ac\u00ae-\u024f\u2000-\u200a\u2010-\u2029\u202f-\u205f]*$/;
/** Stems of recent words: words repeat (Zipf), stemming each again cost a tenth of indexing. */
const stems = new Map<string, string>();
const MAX_STEMS = 20_000;

function stem(word: string): string {
  let known = stems.get(word);
  if (known === undefined) {
    known = stemmer(word);
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, known);
  }
  return known;
}

/** Pushes the terms of one word-like piece (letters and digits only). */
function pushWord(word: string, terms: string[]): void {
  if (word.length === 0 || word.length > MAX_TERM_CHARS) return;
  if (CJK.test(word)) {
    terms.push(word);
    const chars = Array.from(word);
    if (chars.length >= 3) for (let i = 0; i + 1 < chars.length; i += 1) terms.push(`${chars[i]}${chars[i + 1]}`);
    return;
  }
  terms.push(LATIN_WORD.test(word) ? stem(word) : word);
}

/**
 * Every term of a text in order, repeats kept (the index counts them). Lower-cased, NFKC-normalised (full-width
 * letters and digits become ASCII), at most MAX_INDEXED_CHARS read.
 */
export function searchTerms(text: string): string[] {
  const normalised = text.slice(0, MAX_INDEXED_CHARS).normalize('NFKC').toLowerCase();
  return SEGMENTER_NOT_NEEDED.test(normalised) ? splitTerms(normalised) : segmentedTerms(normalised);
}

/** The terms of normalised text cut into words by ICU (Intl.Segmenter). */
export function segmentedTerms(normalised: string): string[] {
  const terms: string[] = [];
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  for (const piece of segmenter.segment(normalised)) {
    if (!piece.isWordLike) continue;
    for (const word of piece.segment.split(NOT_WORD)) pushWord(word, terms);
  }
  return terms;
}

/** The terms of normalised text that needs no segmenter (SEGMENTER_NOT_NEEDED): its runs of letters and digits. */
export function splitTerms(normalised: string): string[] {
  const terms: string[] = [];
  for (const word of normalised.split(NOT_WORD)) pushWord(word, terms);
  return terms;
}

/** The text an index stores: the terms joined by spaces (FTS5 unicode61 and PostgreSQL both split it back). */
export function indexText(text: string): string {
  return searchTerms(text).join(' ');
}
