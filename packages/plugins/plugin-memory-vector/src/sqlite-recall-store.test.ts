import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@aalis/core';
import { SqliteDatabase } from '@aalis/sqlite';
import { indexText, queryTerms } from '@aalis/util-text-search';
import { describe, expect, it } from 'vitest';
import { backfill } from './backfill.js';
import { describeRecallStoreConformance } from './recall-store.case.js';
import { RECALL_NAMESPACE } from './recall-store.js';
import { SQLITE_RECALL_MIGRATIONS, sqliteRecallStore } from './sqlite-recall-store.js';

describeRecallStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-recall-'));
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  return {
    store: sqliteRecallStore(database),
    async dispose() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** A data directory whose recall store has `rows` entries from before migration 3 (no context column). */
function oldStore(rows: readonly (readonly [string, string, string, number])[]): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-recall-'));
  const path = join(dir, 'aalis.db');
  const old = new SqliteDatabase(path);
  old.migrate(RECALL_NAMESPACE, SQLITE_RECALL_MIGRATIONS.slice(0, 2));
  old.write((connection) => {
    const insert = connection.prepare(
      'INSERT INTO recall_entries (message_id, session_id, audience, role, at, text) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertFts = connection.prepare('INSERT INTO recall_fts (rowid, terms, scope) VALUES (?, ?, ?)');
    for (const [id, session, text, at] of rows) {
      const { lastInsertRowid } = insert.run(id, session, `room:qq:${session.split(':')[2]}`, 'user', at, text);
      insertFts.run(lastInsertRowid, indexText(text), '');
    }
  });
  old.close();
  return { dir, path };
}

/** A logger that keeps its info lines. */
function keeping(lines: { message: string; fields: unknown }[] = []): Logger {
  const logger: Logger = {
    name: 'test',
    trace: () => {},
    debug: () => {},
    info: (message, fields) => lines.push({ message, fields }),
    warn: () => {},
    error: () => {},
    enabled: () => true,
    child: () => logger,
  };
  return logger;
}

describe('sqlite recall store, made before the words said before each entry were indexed', () => {
  it('keeps every entry findable and gives each the words said before it in its session', async () => {
    const { dir, path } = oldStore([
      ['m1', 'qq:group:1', 'where did you leave the spare key?', 1],
      ['m2', 'qq:group:1', 'under the blue flowerpot', 2],
      ['m3', 'qq:group:2', 'the lighthouse keeper waved', 3],
    ]);
    const database = new SqliteDatabase(path);
    try {
      const store = sqliteRecallStore(database);
      expect(await store.count()).toBe(3);
      await backfill({ store, log: keeping(), stopped: () => false });
      const scope = { sessionId: 'qq:group:1', audiences: ['room:qq:1'], persons: [] };
      const search = async (text: string, context: boolean) =>
        (await store.search({ terms: queryTerms(text), scope, limit: 10, context })).map((hit) => hit.messageId);
      expect(await search('spare key', false)).toEqual(['m1']);
      expect((await search('spare key', true)).sort()).toEqual(['m1', 'm2']);
      expect(await search('flowerpot', false)).toEqual(['m2']);
      // The next session's first entry took nothing from another session.
      expect(
        await store.search({
          terms: queryTerms('flowerpot'),
          scope: { sessionId: 'qq:group:2', audiences: ['room:qq:2'], persons: [] },
          limit: 10,
          context: true,
        }),
      ).toEqual([]);
    } finally {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens without indexing them again, recalls and forgets meanwhile, and ends with every one indexed', async () => {
    const N = 2_400;
    const { dir, path } = oldStore(
      Array.from({ length: N }, (_, i) => [`m${i}`, `qq:group:${i % 3}`, `note ${i} word${i} kept`, i] as const),
    );
    const database = new SqliteDatabase(path);
    try {
      // Opening ran migration 3: it listed the entries, it did not index them.
      const store = sqliteRecallStore(database);
      const unindexed = () =>
        (database.statement('SELECT count(*) AS n FROM recall_unindexed').get() as { n: number }).n;
      expect(unindexed()).toBe(N);
      const scopeOf = (i: number) => ({ sessionId: `qq:group:${i % 3}`, audiences: [`room:qq:${i % 3}`], persons: [] });
      const find = async (i: number, word = `word${i}`) =>
        (await store.search({ terms: [word], scope: scopeOf(i), limit: 5 })).map((hit) => hit.messageId);
      expect(await find(0)).toEqual([]);
      // Meanwhile: a new message is found at once, an old one forgotten is never indexed.
      await store.add([
        { messageId: 'new', sessionId: 'qq:group:0', audience: 'room:qq:0', role: 'user', at: N, text: 'fresh walnut' },
      ]);
      expect(await find(0, 'walnut')).toEqual(['new']);
      expect(await store.deleteMessages([`m${N - 1}`])).toBe(1);
      const lines: { message: string; fields: unknown }[] = [];
      const log = keeping(lines);
      // Stopped after the first batch, as a shutdown would: a new start goes on from there.
      let batches = 0;
      await backfill({ store, log, stopped: () => batches++ >= 1, batch: 500 });
      expect(unindexed()).toBe(N - 1 - 500);
      expect(await find(1)).toEqual(['m1']);
      expect(await find(2000)).toEqual([]);
      await backfill({ store, log, stopped: () => false, batch: 500 });
      expect(unindexed()).toBe(0);
      for (const i of [0, 1, 1234, 2000, N - 2]) expect(await find(i)).toEqual([`m${i}`]);
      expect(await find(N - 1)).toEqual([]);
      expect(await find(0, 'walnut')).toEqual(['new']);
      // Each found by the words said before it in its session (m3 follows m0 in qq:group:0).
      expect(
        (await store.search({ terms: ['word0'], scope: scopeOf(0), limit: 5, context: true })).map((h) => h.messageId),
      ).toEqual(['m0', 'm3']);
      expect(lines.map((line) => line.fields)).toContainEqual({ messages: N - 1 - 500 });
      expect(await store.backfill?.(500)).toBeUndefined();
    } finally {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
