// The account store's one suite, run on both engines: SQLite in a data directory and a throwaway PostgreSQL
// (where a change made through one connection is seen by another process's copy).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { openDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import { type AccountStore, postgresAccountStore, sqliteAccountStore } from './account-store.js';

interface Engine {
  name: string;
  available: boolean;
  /** Two stores on one database (two processes); dispose closes both. */
  open(): Promise<{ first: AccountStore; second: AccountStore; settle(): Promise<void>; dispose(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-accounts-'));
      const a = openDatabase(dir);
      const first = sqliteAccountStore(a.database);
      const second = sqliteAccountStore(a.database);
      return {
        first,
        second,
        settle: async () => {},
        async dispose() {
          a.release();
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
      const databases = [new PostgresDatabase(url), new PostgresDatabase(`${url}?application_name=second`)];
      const first = await postgresAccountStore(databases[0]!);
      const second = await postgresAccountStore(databases[1]!);
      return {
        first,
        second,
        // NOTIFY reaches the other process's copy shortly after the commit.
        async settle() {
          const wanted = JSON.stringify(first.list());
          for (let tries = 0; tries < 200 && JSON.stringify(second.list()) !== wanted; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        },
        async dispose() {
          first.close();
          second.close();
          for (const database of databases) await database.close();
        },
      };
    },
  },
];

for (const engine of engines) {
  describe.runIf(engine.available)(`account store on ${engine.name}`, () => {
    it('creates once, lists, updates, replaces a password only over the expected one, deletes', async () => {
      const { first, second, settle, dispose } = await engine.open();
      try {
        expect(await first.create({ userId: 'bob', origin: 'page', displayName: 'Bob', passwordHash: 'h1' })).toBe(
          true,
        );
        expect(await first.create({ userId: 'bob', origin: 'page' })).toBe(false);
        expect(await first.create({ userId: 'owner', origin: 'config' })).toBe(true);
        await settle();
        const bob = second.get('bob');
        expect(bob).toMatchObject({ userId: 'bob', origin: 'page', displayName: 'Bob', passwordHash: 'h1' });
        expect(bob?.passwordSetAt).toBeGreaterThan(0);
        expect(second.list().map((account) => account.userId)).toEqual(['bob', 'owner']);
        expect(second.get('owner')?.passwordHash).toBeUndefined();

        expect(await first.update('bob', { displayName: null })).toMatchObject({ userId: 'bob', passwordHash: 'h1' });
        expect(first.get('bob')?.displayName).toBeUndefined();
        expect(await first.update('nobody', { displayName: 'X' })).toBeUndefined();

        expect(await first.replacePassword('bob', 'not-h1', 'h2')).toBe(false);
        expect(first.get('bob')?.passwordHash).toBe('h1');
        expect(await first.replacePassword('bob', 'h1', 'h2')).toBe(true);
        expect(await first.replacePassword('owner', undefined, 'h3')).toBe(true);
        expect(await first.replacePassword('owner', undefined, 'h4')).toBe(false);
        await first.update('bob', { passwordHash: null });
        await settle();
        expect(second.get('bob')?.passwordHash).toBeUndefined();
        expect(second.get('owner')?.passwordHash).toBe('h3');

        expect(await first.delete('bob')).toBe(true);
        expect(await first.delete('bob')).toBe(false);
        await settle();
        expect(second.get('bob')).toBeUndefined();
        expect(second.list().map((account) => account.userId)).toEqual(['owner']);
      } finally {
        await dispose();
      }
    });
  });
}
