// What of a stored message a session search looks through, the same for both engines: what people wrote (inputs and
// command lines), what she wrote (reply text as shown), and command answers; never tool results or system blocks.
import { WellKnownMetadataKeys as Keys } from '@aalis/schema-message';
import { queryTerms } from '@aalis/util-text-search';

/** How many archived rows one search indexes before it answers (the rest on the next search). */
export const INDEX_BATCH_ROWS = 20_000;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 200;
export const MAX_SEARCH_SESSIONS = 1000;

export function searchableText(row: {
  role: string;
  kind: string | null;
  content: string;
  extra: string | null;
}): string | undefined {
  if (row.role === 'user') return row.kind === null || row.kind === 'command' ? row.content : undefined;
  if (row.role === 'system') return row.kind === 'command-reply' ? row.content : undefined;
  if (row.role !== 'assistant') return undefined;
  if (row.extra?.includes(`"${Keys.VisibleContent}"`)) {
    const visible = (JSON.parse(row.extra) as { metadata?: Record<string, unknown> }).metadata?.[Keys.VisibleContent];
    if (typeof visible === 'string') return visible;
  }
  return row.content;
}

/** The terms every hit must hold, or the text to find as a substring when none is searchable (one CJK character). */
export function searchPlan(query: string): { terms: string[] } | { substring: string } | undefined {
  const trimmed = query.trim();
  if (trimmed === '') return undefined;
  const terms = queryTerms(trimmed);
  return terms.length > 0 ? { terms } : { substring: trimmed.slice(0, 200) };
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)));
}

/** A LIKE pattern matching `text` anywhere, with `\` escaping LIKE's wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
