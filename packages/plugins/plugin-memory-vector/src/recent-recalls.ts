// The latest recalls, newest first, kept in memory (bounded) for the Memory page's "recent recalls with why they
// matched": what each turn's block carried, and for each message whether the query's words, the vector search, or
// only its being next to a match brought it.
import type { RecallRecord } from '@aalis/api-memory-vector';
import { searchTerms } from '@aalis/util-text-search';
import type { Excerpt } from './recall.js';

/** Records kept in all. */
export const RECENT_RECALLS = 200;

export class RecentRecalls {
  private readonly records: RecallRecord[] = [];

  add({
    sessionId,
    terms,
    excerpts,
    at,
    ms,
  }: {
    sessionId: string;
    terms: readonly string[];
    excerpts: readonly Excerpt[];
    at: number;
    ms?: number;
  }): void {
    if (excerpts.length === 0) return;
    const asked = new Set(terms);
    const items = excerpts.flatMap((excerpt) =>
      excerpt.entries.map((entry) => {
        const matched: string[] = [];
        if (excerpt.matched.has(entry.messageId)) {
          for (const term of new Set(searchTerms(entry.text))) if (asked.has(term)) matched.push(term);
          if (excerpt.dense.has(entry.messageId)) matched.push('vector');
        } else matched.push('neighbour');
        return {
          messageId: entry.messageId,
          sessionId: entry.sessionId,
          audience: entry.audience,
          ...(entry.speaker === undefined ? {} : { speaker: entry.speaker }),
          at: entry.at,
          text: entry.text,
          score: excerpt.score,
          matched,
        };
      }),
    );
    this.records.unshift({ sessionId, at, terms: [...terms], items, ...(ms === undefined ? {} : { ms }) });
    if (this.records.length > RECENT_RECALLS) this.records.length = RECENT_RECALLS;
  }

  list({ sessionIds, limit = 50 }: { sessionIds?: readonly string[]; limit?: number }): RecallRecord[] {
    const wanted = sessionIds ? new Set(sessionIds) : undefined;
    return this.records
      .filter((record) => !wanted || wanted.has(record.sessionId))
      .slice(0, Math.min(Math.max(1, limit), RECENT_RECALLS))
      .map((record) => structuredClone(record));
  }

  /** Forgotten messages leave the records too. */
  forget(messageIds: ReadonlySet<string>): void {
    for (const record of this.records) record.items = record.items.filter((item) => !messageIds.has(item.messageId));
  }

  /** Cleared sessions' records go, and what they said leaves the others. */
  clear(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) {
      this.records.length = 0;
      return;
    }
    const gone = new Set(sessionIds);
    for (let index = this.records.length - 1; index >= 0; index -= 1) {
      const record = this.records[index]!;
      record.items = record.items.filter((item) => !gone.has(item.sessionId));
      if (gone.has(record.sessionId)) this.records.splice(index, 1);
    }
  }
}
