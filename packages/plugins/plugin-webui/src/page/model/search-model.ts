// The session search: what is typed filters the loaded list at once (titles, ids, platforms), and after a short
// pause asks the server for sessions by title (archived ones included: archived sessions leave the list but stay
// searchable) and for messages by content (`search`, the store's full-text index). A hit opens its session at
// that message. Answers to an older query never replace a newer one's. Framework-free.
import type { ParamsOf, ResultOf, SearchHit, SessionSummary } from '@aalis/session-client';
import { Store } from './store.js';

/** The pause after the last keystroke before the server is asked. */
export const SEARCH_DELAY_MS = 250;
/** Hits asked for. */
export const SEARCH_LIMIT = 30;

export interface SearchRequests {
  sessions(params: ParamsOf<'sessions.list'>): Promise<ResultOf<'sessions.list'>>;
  messages(params: ParamsOf<'search'>): Promise<ResultOf<'search'>>;
}

/** One piece of a snippet: plain text, or the matched text (between \u0002 and \u0003 in the server's snippet). */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export interface SearchSnapshot {
  query: string;
  /** The server was asked and has not answered yet. */
  busy: boolean;
  /** Sessions the server found by title (archived ones too); undefined until it answered for this query. */
  sessions?: readonly SessionSummary[];
  hits: readonly SearchHit[];
  truncated: boolean;
  /** The server could not search (an older server without `search`, the index unavailable): the reason. */
  error?: { code: string; message: string };
}

/** The snippet split at the server's match markers. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const piece of snippet.split('\u0002')) {
    const end = piece.indexOf('\u0003');
    if (end < 0) {
      if (piece !== '') parts.push({ text: piece, match: false });
      continue;
    }
    if (end > 0) parts.push({ text: piece.slice(0, end), match: true });
    if (end + 1 < piece.length) parts.push({ text: piece.slice(end + 1), match: false });
  }
  return parts;
}

export class SearchModel extends Store<SearchSnapshot> {
  private state: SearchSnapshot = { query: '', busy: false, hits: [], truncated: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(private readonly requests: SearchRequests) {
    super();
  }

  /** The reader typed: the local filter follows at once, the server after a pause. */
  setQuery(query: string): void {
    clearTimeout(this.timer);
    this.generation += 1;
    const trimmed = query.trim();
    this.state = { query, busy: trimmed !== '', hits: [], truncated: false };
    this.changed();
    if (trimmed === '') return;
    const generation = this.generation;
    this.timer = setTimeout(() => void this.run(trimmed, generation), SEARCH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.generation += 1;
  }

  protected buildSnapshot(): SearchSnapshot {
    return this.state;
  }

  private async run(query: string, generation: number): Promise<void> {
    const [sessions, messages] = await Promise.allSettled([
      this.requests.sessions({ search: query }),
      this.requests.messages({ query: query.slice(0, 200), limit: SEARCH_LIMIT }),
    ]);
    if (generation !== this.generation) return;
    const failed = messages.status === 'rejected' ? codedError(messages.reason) : undefined;
    this.state = {
      ...this.state,
      busy: false,
      sessions: sessions.status === 'fulfilled' ? sessions.value.sessions : undefined,
      hits: messages.status === 'fulfilled' ? messages.value.hits : [],
      truncated: messages.status === 'fulfilled' ? messages.value.truncated : false,
      ...(failed ? { error: failed } : {}),
    };
    this.changed();
  }
}

function codedError(error: unknown): { code: string; message: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : 'AALIS_WEBUI_CLIENT_ERROR',
    message: typeof message === 'string' ? message : String(error),
  };
}
