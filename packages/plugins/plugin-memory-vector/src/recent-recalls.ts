// The latest recalls, newest first, kept in memory (bounded) for the Memory page's "recent recalls with why they
// matched": what each turn's block carried, and for each message whether the query's words, the vector search, or
// only its being next to a match brought it.
import type { RecallRecord } from '@aalis/api-memory-vector';
import { searchTerms } from '@aalis/util-text-search';
import type { Excerpt } from './recall.js';

/** Records kept in all. */
export const RECENT_RECALLS = 200;

/** A turn's recall as the turn left it: its items are described only when someone reads them (not in the turn). */
interface Kept {
  record: Omit<RecallRecord, 'items'>;
  excerpts: readonly Excerpt[] | undefined;
  items: RecallRecord['items'] | undefined;
}

export class RecentRecalls {
  private readonly kept: Kept[] = [];

  /**
   * Called in the turn before its model request: it only keeps what the recall found. Which query words each item
   * holds (its tokenising) is worked out when the records are read, so it costs the turn nothing.
   */
  add({
    sessionId,
    terms,
    excerpts,
    at,
    ms,
    cpuMs,
  }: {
    sessionId: string;
    terms: readonly string[];
    excerpts: readonly Excerpt[];
    at: number;
    ms?: number;
    cpuMs?: number;
  }): void {
    if (excerpts.length === 0) return;
    this.kept.unshift({
      record: {
        sessionId,
        at,
        terms: [...terms],
        ...(ms === undefined ? {} : { ms }),
        ...(cpuMs === undefined ? {} : { cpuMs }),
      },
      excerpts,
      items: undefined,
    });
    if (this.kept.length > RECENT_RECALLS) this.kept.length = RECENT_RECALLS;
  }

  list({ sessionIds, limit = 50 }: { sessionIds?: readonly string[]; limit?: number }): RecallRecord[] {
    const wanted = sessionIds ? new Set(sessionIds) : undefined;
    return this.kept
      .filter((kept) => !wanted || wanted.has(kept.record.sessionId))
      .slice(0, Math.min(Math.max(1, limit), RECENT_RECALLS))
      .map((kept) => structuredClone({ ...kept.record, items: itemsOf(kept) }));
  }

  /** Forgotten messages leave the records too. */
  forget(messageIds: ReadonlySet<string>): void {
    for (const kept of this.kept) kept.items = itemsOf(kept).filter((item) => !messageIds.has(item.messageId));
  }

  /** Cleared sessions' records go, and what they said leaves the others. */
  clear(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) {
      this.kept.length = 0;
      return;
    }
    const gone = new Set(sessionIds);
    for (let index = this.kept.length - 1; index >= 0; index -= 1) {
      const kept = this.kept[index]!;
      if (gone.has(kept.record.sessionId)) this.kept.splice(index, 1);
      else kept.items = itemsOf(kept).filter((item) => !gone.has(item.sessionId));
    }
  }
}

/** A record's items, described once: what each excerpt line is and why it came (its query words, vector, neighbour). */
function itemsOf(kept: Kept): RecallRecord['items'] {
  if (kept.items) return kept.items;
  const asked = new Set(kept.record.terms);
  const items = (kept.excerpts ?? []).flatMap((excerpt) =>
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
  kept.items = items;
  kept.excerpts = undefined;
  return items;
}
