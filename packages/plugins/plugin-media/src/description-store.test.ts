// The description cache on both engines: a description put is read back by its key (across connections, which is
// what makes an image seen again after a restart cost nothing), and putting a key again replaces it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import type { DescriptionStore } from './description-store.js';
import { postgresDescriptionStore } from './postgres-description-store.js';
import { sqliteDescriptionStore } from './sqlite-description-store.js';

const engines: Array<{
  name: string;
  available: boolean;
  open(): Promise<{ connect(): Promise<DescriptionStore>; dispose(): Promise<void> }>;
}> = [
  {
    name: 'sqlite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-media-'));
      const opened: SqliteDatabase[] = [];
      return {
        async connect() {
          const database = new SqliteDatabase(join(dir, 'aalis.db'));
          opened.push(database);
          return sqliteDescriptionStore(database);
        },
        async dispose() {
          for (const database of opened) database.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresBinDir() !== undefined,
    async open() {
      const url = await throwawayDatabase();
      const opened: PostgresDatabase[] = [];
      return {
        async connect() {
          const database = new PostgresDatabase(url);
          opened.push(database);
          return postgresDescriptionStore(database);
        },
        async dispose() {
          for (const database of opened) await database.close();
        },
      };
    },
  },
];

for (const engine of engines) {
  describe.runIf(engine.available)(`description store on ${engine.name}`, () => {
    it('keeps descriptions by key across connections and replaces a key put again', async () => {
      const handle = await engine.open();
      try {
        const first = await handle.connect();
        expect(await first.get('abc')).toBeUndefined();
        await first.put({ key: 'abc', description: 'a red pixel', model: 'vision/eye', createdAt: 1_700_000_000_000 });
        const second = await handle.connect();
        expect(await second.get('abc')).toEqual({
          key: 'abc',
          description: 'a red pixel',
          model: 'vision/eye',
          createdAt: 1_700_000_000_000,
        });
        await second.put({ key: 'abc', description: 'a red dot', model: 'vision/eye2', createdAt: 1_700_000_000_001 });
        expect((await first.get('abc'))?.description).toBe('a red dot');
      } finally {
        await handle.dispose();
      }
    });
  });
}
