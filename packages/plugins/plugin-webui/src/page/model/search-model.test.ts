import type { SearchHit, SessionSummary } from '@aalis/session-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DELAY_MS, SearchModel, snippetParts } from './search-model.js';

const session = (id: string, extra: Partial<SessionSummary> = {}): SessionSummary => ({
  id,
  kind: 'web',
  platform: 'webui',
  children: [],
  createdAt: 0,
  updatedAt: 0,
  unread: false,
  running: false,
  writable: true,
  canSend: true,
  ...extra,
});
const hit = (messageId: string, snippet: string): SearchHit => ({
  sessionId: 's1',
  archived: false,
  messageId,
  role: 'user',
  at: 1,
  snippet,
  superseded: false,
});

describe('SearchModel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks the server once the typing pauses, for sessions (archived too) and message hits', async () => {
    const asked: string[] = [];
    const model = new SearchModel({
      sessions: async ({ search }) => {
        asked.push(`sessions:${search}`);
        return { sessions: [session('s1', { archived: true, title: '喝水提醒' })] };
      },
      messages: async ({ query }) => {
        asked.push(`search:${query}`);
        return { hits: [hit('m1', '记得\u0002喝水\u0003')], truncated: false };
      },
    });
    model.setQuery('喝');
    model.setQuery('喝水');
    expect(model.getSnapshot()).toMatchObject({ query: '喝水', busy: true, hits: [] });
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    expect(asked).toEqual(['sessions:喝水', 'search:喝水']);
    expect(model.getSnapshot()).toMatchObject({ busy: false, truncated: false });
    expect(model.getSnapshot().hits.map((found) => found.messageId)).toEqual(['m1']);
    expect(model.getSnapshot().sessions?.[0]?.archived).toBe(true);
    model.setQuery('');
    expect(model.getSnapshot()).toMatchObject({ query: '', busy: false, hits: [] });
  });

  it('drops an answer to an older query, and says why when the server cannot search', async () => {
    let release: (() => void) | undefined;
    const model = new SearchModel({
      sessions: async () => ({ sessions: [] }),
      messages: async ({ query }) => {
        if (query === 'old') await new Promise<void>((resolve) => (release = resolve));
        if (query === 'broken')
          throw Object.assign(new Error('Search is not available.'), { code: 'AALIS_WEBUI_UNAVAILABLE' });
        return { hits: [hit(query, query)], truncated: false };
      },
    });
    model.setQuery('old');
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    model.setQuery('new');
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    release?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(model.getSnapshot().hits.map((found) => found.messageId)).toEqual(['new']);
    model.setQuery('broken');
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    expect(model.getSnapshot().error).toEqual({ code: 'AALIS_WEBUI_UNAVAILABLE', message: 'Search is not available.' });
  });
});

describe('snippetParts', () => {
  it('splits at the match markers', () => {
    expect(snippetParts('a \u0002b\u0003 c \u0002d\u0003')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c ', match: false },
      { text: 'd', match: true },
    ]);
    expect(snippetParts('plain')).toEqual([{ text: 'plain', match: false }]);
  });
});
