import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { indexText, queryTerms } from '@aalis/util-text-search';
import { describe, expect, it } from 'vitest';
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

describe('sqlite recall store, made before the words said before each entry were indexed', () => {
  it('keeps every entry findable and gives each the words said before it in its session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-recall-'));
    try {
      const path = join(dir, 'aalis.db');
      const old = new SqliteDatabase(path);
      old.migrate(RECALL_NAMESPACE, SQLITE_RECALL_MIGRATIONS.slice(0, 2));
      old.write((connection) => {
        const insert = connection.prepare(
          'INSERT INTO recall_entries (message_id, session_id, audience, role, at, text) VALUES (?, ?, ?, ?, ?, ?)',
        );
        const insertFts = connection.prepare('INSERT INTO recall_fts (rowid, terms, scope) VALUES (?, ?, ?)');
        const rows = [
          ['m1', 'qq:group:1', 'where did you leave the spare key?', 1],
          ['m2', 'qq:group:1', 'under the blue flowerpot', 2],
          ['m3', 'qq:group:2', 'the lighthouse keeper waved', 3],
        ] as const;
        for (const [id, session, text, at] of rows) {
          const { lastInsertRowid } = insert.run(id, session, `room:qq:${session.slice(-1)}`, 'user', at, text);
          insertFts.run(lastInsertRowid, indexText(text), '');
        }
      });
      old.close();
      const database = new SqliteDatabase(path);
      try {
        const store = sqliteRecallStore(database);
        expect(await store.count()).toBe(3);
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
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
