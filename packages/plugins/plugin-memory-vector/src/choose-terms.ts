// Which of a query's terms are worth asking for, from how many stored entries hold each: terms no entry holds
// are useless, terms most entries hold cost the most and tell the least (BM25 gives them almost no weight). The
// rarest ones are kept.

/** A term found in more than this share of a large index is left out. */
export const COMMON_TERM_SHARE = 0.05;
/** Below this many entries nothing counts as common: a small index keeps every term. */
export const COMMON_TERM_MIN_ENTRIES = 2_000;
/** At most this many terms are asked for. */
export const MAX_CHOSEN_TERMS = 12;
/**
 * A query reads every entry of every term it asks for: past this many entries in all, no more (commoner) terms are
 * added, beyond the two rarest. Keeps a recall fast at a million messages; a small index never reaches it.
 */
export const MAX_READ_ENTRIES = 40_000;

export function chooseTerms(
  terms: readonly string[],
  documentCounts: ReadonlyMap<string, number>,
  total: number,
): string[] {
  const ceiling = total >= COMMON_TERM_MIN_ENTRIES ? total * COMMON_TERM_SHARE : Number.POSITIVE_INFINITY;
  const candidates = terms
    .map((term) => ({ term, count: documentCounts.get(term) ?? 0 }))
    .filter(({ count }) => count > 0 && count <= ceiling)
    .sort((a, b) => a.count - b.count)
    .slice(0, MAX_CHOSEN_TERMS);
  const chosen: string[] = [];
  let read = 0;
  for (const { term, count } of candidates) {
    if (chosen.length >= 2 && read + count > MAX_READ_ENTRIES) break;
    chosen.push(term);
    read += count;
  }
  return chosen;
}
