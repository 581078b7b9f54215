// One turn's recall: the store's best matches in the turn's scope, weighed by age, without what the prompt already
// carries, each with its neighbours (for matches from the turn's own session or audience; a person's words from
// another room come alone), grouped into excerpts that fit the token budget, best excerpts first.
import { isStopWord, searchTerms } from '@aalis/util-text-search';
import type { RecallEntry, RecallHit, RecallScope, RecallStore } from './recall-store.js';

export interface RecallSettings {
  maxTokens: number;
  maxHits: number;
  neighbours: number;
  itemMaxChars: number;
  neighbourMaxChars: number;
  recencyHalfLifeDays: number;
  recencyWeight: number;
}

/** Matches asked of the store per hit kept: room for the ones the prompt already carries. */
const CANDIDATES_PER_HIT = 4;
const DAY_MS = 86_400_000;

/**
 * Only the best matches come with their neighbours: further down, a match alone is worth more of the budget than
 * the context of a weaker one (LoCoMo replay: 75.2 % of evidence with 10, 74.8 % with every match neighboured).
 */
export const NEIGHBOURED_HITS = 10;
/** A message said by someone the turn names ("what did Ann say about…") weighs this much more. */
export const NAMED_SPEAKER_WEIGHT = 1.8;
/**
 * A question weighs this much: it holds the words but not the facts, and what answered it comes anyway (as its
 * neighbour, and found itself by the words said before it). Past questions asked of her would otherwise crowd out
 * what was said.
 */
export const QUESTION_WEIGHT = 0.6;
const QUESTION = /[?？]\s*$/u;

/**
 * How much a match's kind weighs: said by someone the turn names, or a question. `named` keeps the answer per
 * speaker for one recall (a turn weighs ~140 candidates said by a handful of people).
 */
function kindWeight(hit: RecallHit, terms: readonly string[], named: Map<string, boolean>): number {
  let byNamed = false;
  if (hit.speaker !== undefined) {
    const known = named.get(hit.speaker);
    byNamed = known ?? searchTerms(hit.speaker).some((term) => terms.includes(term));
    if (known === undefined) named.set(hit.speaker, byNamed);
  }
  return (byNamed ? NAMED_SPEAKER_WEIGHT : 1) * (QUESTION.test(hit.text) ? QUESTION_WEIGHT : 1);
}

/**
 * A match is worth its place by what it adds to the turn: one holding fewer than this many meaningful words besides
 * the turn's own weighs less (the square root of its share), so "yes, the support group!" after the words of the
 * question does not take the place of what was said about it. A short fact that alone matches still comes (its
 * weight only orders it among other matches). LoCoMo replay: 73.8 → 75.2 % with the shorter neighbours below.
 */
export const INFORMATIVE_TERMS = 15;
/** Only the best candidates by relevance are weighed so (tokenising each costs; the rest are cut anyway). */
const INFORMATION_WEIGHED = 2;

/**
 * Candidates' meaningful words by message: the same past messages come back as candidates turn after turn, and
 * tokenising 70 of them was a sixth of a recall. One per plugin instance (message ids are its archive's), bounded;
 * forgotten messages and cleared sessions leave it.
 */
export class CandidateTerms {
  private readonly kept = new Map<string, readonly string[]>();

  constructor(private readonly capacity = 20_000) {}

  of(hit: RecallHit, maxChars: number): readonly string[] {
    let terms = this.kept.get(hit.messageId);
    if (terms === undefined) {
      terms = [...new Set(searchTerms(hit.text.slice(0, maxChars)))].filter((term) => !isStopWord(term));
      if (this.kept.size >= this.capacity) this.kept.clear();
      this.kept.set(hit.messageId, terms);
    }
    return terms;
  }

  forget(messageIds: Iterable<string>): void {
    for (const id of messageIds) this.kept.delete(id);
  }

  clear(): void {
    this.kept.clear();
  }
}

function informationWeight(
  hit: RecallHit,
  own: ReadonlySet<string>,
  maxChars: number,
  candidateTerms: CandidateTerms | undefined,
): number {
  const terms = candidateTerms
    ? candidateTerms.of(hit, maxChars)
    : [...new Set(searchTerms(hit.text.slice(0, maxChars)))].filter((term) => !isStopWord(term));
  let added = 0;
  for (const term of terms) if (!own.has(term)) added += 1;
  return Math.sqrt(Math.min(1, (added + 1) / INFORMATIVE_TERMS));
}

/** Rank fusion's constant (Cormack et al.): a hit ranked r in a list adds 1 / (RRF_K + r). */
export const RRF_K = 60;

/** Consecutive messages of one session, recalled together, and why: the best match among them. */
export interface Excerpt {
  entries: RecallEntry[];
  /** The ids that matched the query (the rest are neighbours). */
  matched: Set<string>;
  /** Of those, the ids the dense (vector) search found. */
  dense: Set<string>;
  score: number;
}

interface Candidate {
  hit: RecallHit;
  score: number;
  dense: boolean;
}

/**
 * One ranked list: full text alone keeps BM25's own scores; with dense hits, both lists are fused by rank (RRF),
 * which needs no common scale between BM25 and cosine similarity. Either way weighed by age.
 */
function rank(
  found: readonly RecallHit[],
  near: readonly RecallHit[] | undefined,
  exclude: ReadonlySet<string>,
  now: number,
  settings: RecallSettings,
): Candidate[] {
  const fresh = (hits: readonly RecallHit[]) => hits.filter((hit) => !exclude.has(hit.messageId));
  const weigh = (hit: RecallHit, score: number) => score * recencyFactor(hit.at, now, settings);
  if (!near || near.length === 0) {
    return fresh(found).map((hit) => ({ hit, score: weigh(hit, hit.score), dense: false }));
  }
  const fused = new Map<string, Candidate>();
  fresh(found).forEach((hit, index) => {
    fused.set(hit.messageId, { hit, score: 1 / (RRF_K + index + 1), dense: false });
  });
  fresh(near).forEach((hit, index) => {
    const known = fused.get(hit.messageId);
    if (known) {
      known.score += 1 / (RRF_K + index + 1);
      known.dense = true;
    } else fused.set(hit.messageId, { hit, score: 1 / (RRF_K + index + 1), dense: true });
  });
  return [...fused.values()].map((candidate) => ({ ...candidate, score: weigh(candidate.hit, candidate.score) }));
}

export function recencyFactor(at: number, now: number, settings: RecallSettings): number {
  const ageDays = Math.max(0, now - at) / DAY_MS;
  return 1 - settings.recencyWeight + settings.recencyWeight * 0.5 ** (ageDays / settings.recencyHalfLifeDays);
}

export async function recall({
  store,
  terms,
  scope,
  exclude,
  now,
  settings,
  cost,
  excerptCost,
  dense,
  candidateTerms,
}: {
  store: RecallStore;
  terms: readonly string[];
  /** The scope's entries nearest to the turn's text (dense recall), when it can answer. */
  dense?: (limit: number) => Promise<RecallHit[] | undefined>;
  scope: RecallScope;
  /** Message ids the prompt already carries (history, this turn's inputs). */
  exclude: ReadonlySet<string>;
  now: number;
  settings: RecallSettings;
  /** Tokens one entry's line costs in the block, as a match or as a neighbour. */
  cost: (entry: RecallEntry, matched: boolean) => number;
  /** Tokens an excerpt's own label line costs (when and where), given its first message. */
  excerptCost: (first: RecallEntry) => number;
  /** Candidates' words kept from earlier recalls (each is tokenised anew without it). */
  candidateTerms?: CandidateTerms;
}): Promise<Excerpt[]> {
  const limit = settings.maxHits * CANDIDATES_PER_HIT;
  const [found, near] = await Promise.all([
    terms.length === 0 ? [] : store.search({ terms, scope, limit, context: true }),
    dense ? dense(limit) : undefined,
  ]);
  const own = new Set(terms);
  const named = new Map<string, boolean>();
  const hits = rank(found, near, exclude, now, settings)
    .map((candidate) => ({ ...candidate, score: candidate.score * kindWeight(candidate.hit, terms, named) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, settings.maxHits * INFORMATION_WEIGHED)
    .map((candidate) => ({
      ...candidate,
      score: candidate.score * informationWeight(candidate.hit, own, settings.itemMaxChars, candidateTerms),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, settings.maxHits);
  const excerpts: Excerpt[] = [];
  const taken = new Set<string>();
  let budget = settings.maxTokens;
  let neighboured = 0;
  const neighbours = new NeighbourFetch(store, scope, settings.neighbours);
  for (const [index, { hit, score, dense: byVector }] of hits.entries()) {
    const denseIds = new Set(byVector ? [hit.messageId] : []);
    if (taken.has(hit.messageId)) {
      // Already in as a neighbour: shown whole now that it matched (merged into its excerpt below).
      const extra = cost(hit, true) - cost(hit, false);
      if (extra > budget) continue;
      budget -= extra;
      excerpts.push({ entries: [hit], matched: new Set([hit.messageId]), dense: denseIds, score });
      continue;
    }
    let entries: RecallEntry[] = [hit];
    if (neighboured < NEIGHBOURED_HITS) {
      // The hits that may still bring neighbours are asked for together (one store call, usually once a turn).
      const ahead = hits.slice(index, index + NEIGHBOURED_HITS - neighboured).map((next) => next.hit);
      entries = await neighbours.of(
        hit,
        ahead.filter((next) => !taken.has(next.messageId)),
      );
      neighboured += 1;
    }
    const fresh = entries.filter((entry) => !exclude.has(entry.messageId) && !taken.has(entry.messageId));
    const price =
      excerptCost(fresh[0] ?? hit) +
      fresh.reduce((sum, entry) => sum + cost(entry, entry.messageId === hit.messageId), 0);
    if (price > budget) {
      // The match alone may still fit where its neighbours do not.
      const alone = excerptCost(hit) + cost(hit, true);
      if (alone > budget) continue;
      budget -= alone;
      taken.add(hit.messageId);
      excerpts.push({ entries: [hit], matched: new Set([hit.messageId]), dense: denseIds, score });
      continue;
    }
    budget -= price;
    for (const entry of fresh) taken.add(entry.messageId);
    excerpts.push({ entries: fresh, matched: new Set([hit.messageId]), dense: denseIds, score });
  }
  return mergeTouching(excerpts);
}

/**
 * Matches with their neighbours (only for matches from the turn's own session or audience: a person's words from
 * another room come alone), fetched for several matches in one store call.
 */
class NeighbourFetch {
  private readonly fetched = new Map<string, RecallEntry[]>();

  constructor(
    private readonly store: RecallStore,
    private readonly scope: RecallScope,
    private readonly count: number,
  ) {}

  private wholeAudience(hit: RecallHit): boolean {
    return hit.sessionId === this.scope.sessionId || this.scope.audiences.includes(hit.audience);
  }

  /** `hit` with its neighbours in time order; `ahead` (hit first) are the matches worth fetching with it. */
  async of(hit: RecallHit, ahead: readonly RecallHit[]): Promise<RecallEntry[]> {
    if (this.count === 0 || !this.wholeAudience(hit)) return [hit];
    let around = this.fetched.get(hit.messageId);
    if (around === undefined) {
      const wanted = [hit, ...ahead]
        .filter((next) => this.wholeAudience(next) && !this.fetched.has(next.messageId))
        .map((next) => next.messageId);
      const found = await this.store.around([...new Set(wanted)], this.count, this.count);
      for (const id of wanted) this.fetched.set(id, found.get(id) ?? []);
      around = this.fetched.get(hit.messageId) ?? [];
    }
    const before = around.filter(
      (entry) => entry.at < hit.at || (entry.at === hit.at && entry.messageId < hit.messageId),
    );
    const after = around.filter((entry) => !before.includes(entry));
    return [...before, hit, ...after];
  }
}

/** Excerpts of one session whose messages meet become one, so no message is shown twice and context reads on. */
function mergeTouching(excerpts: Excerpt[]): Excerpt[] {
  const merged: Excerpt[] = [];
  for (const excerpt of excerpts) {
    const first = excerpt.entries[0];
    const last = excerpt.entries.at(-1);
    const joined = merged.find((other) => {
      const otherFirst = other.entries[0];
      const otherLast = other.entries.at(-1);
      if (!first || !last || !otherFirst || !otherLast || otherFirst.sessionId !== first.sessionId) return false;
      return !(last.at < otherFirst.at || first.at > otherLast.at);
    });
    if (!joined) {
      merged.push(excerpt);
      continue;
    }
    const byId = new Map([...joined.entries, ...excerpt.entries].map((entry) => [entry.messageId, entry]));
    joined.entries = [...byId.values()].sort((a, b) => a.at - b.at || (a.messageId < b.messageId ? -1 : 1));
    for (const id of excerpt.matched) joined.matched.add(id);
    for (const id of excerpt.dense) joined.dense.add(id);
  }
  return merged;
}
