// The distinct terms a search looks for, and how each engine writes "any of them" without letting a term be read
// as query syntax.

import { searchTerms } from './search-terms.js';
import { isStopWord } from './stop-words.js';

/** At most this many terms go into one query: a long message must not become a slow query. */
export const MAX_QUERY_TERMS = 32;

/**
 * The distinct, meaningful terms of a text in order of first appearance: stop words and single CJK characters left
 * out (a lone character matches half the archive), at most `limit`.
 */
export function queryTerms(text: string, limit = MAX_QUERY_TERMS): string[] {
  const seen = new Set<string>();
  for (const term of searchTerms(text)) {
    if (seen.size >= limit) break;
    if (isStopWord(term) || seen.has(term)) continue;
    if (term.length < 2 && !/\d/.test(term)) continue;
    seen.add(term);
  }
  return [...seen];
}

/** An FTS5 MATCH expression for any of the terms ("a" OR "b"); the terms are quoted, never parsed. */
export function fts5AnyOf(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}
