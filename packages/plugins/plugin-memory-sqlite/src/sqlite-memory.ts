// The MemoryService over a MemoryStore (SQLite or PostgreSQL): argument checks, events after commit, and clearing through the
// 'memory:clear' hook chain when the hooks service is present (else the default action alone).
import type { HooksService } from '@aalis/api-hooks';
import {
  assertNonEmptyString,
  assertReadFrom,
  assertValidMessages,
  clearTargets,
  type MemoryClearContext,
  type MemoryReadOptions,
  type MemorySearchOptions,
  type MemoryService,
  type Supersession,
} from '@aalis/api-memory';
import type { Events } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import type { MemoryStore } from './memory-store.js';

export interface SqliteMemoryOptions {
  store: MemoryStore;
  events: Events;
  /** The hooks service now, if any (read at each clear so a hooks plugin arriving later is used). */
  hooks: () => HooksService | undefined;
}

export function createSqliteMemory({ store, events, hooks }: SqliteMemoryOptions): MemoryService {
  const defaultClear = async (context: MemoryClearContext) => {
    await store.delete(context.sessionIds);
    events.emit('memory:cleared', { sessionIds: context.sessionIds });
  };
  return {
    async append(sessionId: string, messages: readonly Message[]) {
      assertNonEmptyString('append', 'sessionId', sessionId);
      assertValidMessages(sessionId, messages);
      const stored = await store.append(sessionId, messages);
      if (stored.length > 0) events.emit('memory:appended', { sessionId, messages: stored });
      return stored;
    },
    async read(sessionId: string, options: MemoryReadOptions = {}) {
      assertNonEmptyString('read', 'sessionId', sessionId);
      assertReadFrom(options.from);
      return await store.read(sessionId, options);
    },
    async countHistory(sessionId: string) {
      assertNonEmptyString('countHistory', 'sessionId', sessionId);
      return await store.countHistory(sessionId);
    },
    async activeStart(sessionId: string) {
      assertNonEmptyString('activeStart', 'sessionId', sessionId);
      return await store.activeStart(sessionId);
    },
    async activeDivider(sessionId: string) {
      assertNonEmptyString('activeDivider', 'sessionId', sessionId);
      return await store.activeDivider(sessionId);
    },
    async readAll(sessionId: string) {
      assertNonEmptyString('readAll', 'sessionId', sessionId);
      return await store.readAll(sessionId);
    },
    async deleteByTurn(sessionId: string, turnId: string) {
      assertNonEmptyString('deleteByTurn', 'sessionId', sessionId);
      assertNonEmptyString('deleteByTurn', 'turnId', turnId);
      const count = await store.deleteByTurn(sessionId, turnId);
      if (count > 0) events.emit('memory:deleted', { sessionId, turnId, count });
      return count;
    },
    async supersedeTurns(sessionId: string, turnIds: readonly string[], supersession: Supersession) {
      assertNonEmptyString('supersedeTurns', 'sessionId', sessionId);
      for (const turnId of turnIds) assertNonEmptyString('supersedeTurns', 'turnIds', turnId);
      assertNonEmptyString('supersedeTurns', 'supersession.id', supersession.id);
      const marked = await store.supersedeTurns(sessionId, turnIds, supersession);
      for (const { turnId, count } of marked)
        events.emit('memory:deleted', { sessionId, turnId, count, superseded: true });
      return marked.reduce((sum, { count }) => sum + count, 0);
    },
    async search(query: string, options: MemorySearchOptions = {}) {
      if (typeof query !== 'string') assertNonEmptyString('search', 'query', query);
      if (options.sessionPrefix !== undefined) assertNonEmptyString('search', 'sessionPrefix', options.sessionPrefix);
      return await store.search(query, options);
    },
    async clear(sessionIds?: string | readonly string[]) {
      const targets = clearTargets(sessionIds);
      if (targets !== undefined && targets.length === 0) return;
      const context: MemoryClearContext = { sessionIds: targets };
      const chain = hooks();
      if (chain) await chain.run('memory:clear', context, defaultClear);
      else await defaultClear(context);
    },
  };
}
