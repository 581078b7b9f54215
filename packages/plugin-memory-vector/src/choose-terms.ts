// Which of a query's terms are worth asking for, from how many stored entries hold each: terms no entry holds
// are useless, terms most entries hold cost the most and tell the least (BM25 gives them almost no weight). The
// rarest ones are kept.

/** A term found in more than this share of a large index is left out. */
export const COMMON_TERM_SHARE = 0.05;
/** Below this many entries nothing counts as common: a small index keeps every term. */
export const COMMON_TERM_MIN_ENTRIES = 2_000;
/** At most this many terms are asked for. */
export const MAX_CHOSEN_TERMS = 12;

export function chooseTerms(
  terms: readonly string[],
  documentCounts: ReadonlyMap<string, number>,
  total: number,
): string[] {
  const ceiling = total >= COMMON_TERM_MIN_ENTRIES ? total * COMMON_TERM_SHARE : Number.POSITIVE_INFINITY;
  return terms
    .map((term) => ({ term, count: documentCounts.get(term) ?? 0 }))
    .filter(({ count }) => count > 0 && count <= ceiling)
    .sort((a, b) => a.count - b.count)
    .slice(0, MAX_CHOSEN_TERMS)
    .map(({ term }) => term);
}
