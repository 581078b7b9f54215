import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionInfo } from '@aalis/api-session-manager';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteSessionStore } from './sqlite-session-store.js';

// Rows read by id are kept in the connection's row cache: what a read answers must always be the row as stored,
// whoever wrote it (this store, another store on the connection, another connection as a second process has).

let dir: string;
let databases: SqliteDatabase[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-session-rows-'));
  databases = [];
});
afterEach(() => {
  for (const database of databases) database.close();
  rmSync(dir, { recursive: true, force: true });
});

function connection(): SqliteDatabase {
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  databases.push(database);
  return database;
}

const session = (id: string, extra: Partial<SessionInfo> = {}): SessionInfo => ({
  id,
  kind: 'direct',
  platform: 'cli',
  createdAt: 1,
  updatedAt: 1,
  ...extra,
});

describe('SqliteSessionStore row cache', () => {
  it("another connection's writes and deletions are seen by the next read", async () => {
    const mine = new SqliteSessionStore(connection());
    const theirs = new SqliteSessionStore(connection());
    expect(mine.get('s')).toBeUndefined();
    await theirs.insert(session('s'));
    expect(mine.get('s')).toMatchObject({ id: 's', updatedAt: 1 });
    await theirs.saveLastTurn('s', { turnId: 't1', outcome: 'replied', at: 5 }, 6);
    expect(mine.get('s')).toMatchObject({ updatedAt: 6, lastTurn: { turnId: 't1', outcome: 'replied', at: 5 } });
    theirs.save({ ...session('s'), title: 'named', updatedAt: 7 });
    expect(mine.get('s')).toMatchObject({ title: 'named', updatedAt: 7 });
    theirs.deleteAll(['s']);
    expect(mine.get('s')).toBeUndefined();
  });

  it("this store's writes are read back as stored, and another store on the connection sees them", async () => {
    const database = connection();
    const a = new SqliteSessionStore(database);
    const b = new SqliteSessionStore(database);
    await a.insert(session('s'));
    expect(b.get('s')).toEqual(session('s'));
    await b.saveLastTurn('s', { turnId: 't1', outcome: 'silent', at: 2 }, 3);
    expect(a.get('s')).toEqual({ ...session('s'), updatedAt: 3, lastTurn: { turnId: 't1', outcome: 'silent', at: 2 } });
    // INSERT OR IGNORE of an existing id leaves the stored row.
    expect(await a.insert(session('s', { title: 'ignored' }))).toBe(false);
    expect(b.get('s')?.title).toBeUndefined();
    a.deleteAll(['s']);
    expect(b.get('s')).toBeUndefined();
  });

  it('a read hands out a copy: changing it changes nothing stored', async () => {
    const store = new SqliteSessionStore(connection());
    await store.insert(session('s', { originPlatform: 'cli', originChat: { multiParty: true } }));
    await store.saveLastTurn('s', { turnId: 't1', outcome: 'replied', at: 2 }, 3);
    const read = store.get('s')!;
    read.title = 'changed';
    read.originChat!.multiParty = false;
    read.lastTurn!.outcome = 'error';
    const again = store.get('s')!;
    expect(again.title).toBeUndefined();
    expect(again.originChat).toEqual({ multiParty: true });
    expect(again.lastTurn?.outcome).toBe('replied');
  });

  it('a write that rolls back after saving leaves the committed row', async () => {
    const database = connection();
    const store = new SqliteSessionStore(database);
    await store.insert(session('s'));
    expect(store.get('s')?.updatedAt).toBe(1);
    expect(() =>
      database.write(() => {
        store.save({ ...session('s'), title: 'never stored', updatedAt: 9 });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(store.get('s')).toEqual(session('s'));
    // In a group commit: a last turn saved, then a write that fails alone (its savepoint rolled back).
    const outcomes = await Promise.allSettled([
      store.saveLastTurn('s', { turnId: 't1', outcome: 'replied', at: 2 }, 3),
      database.writeSoon(() => {
        store.save({ ...session('s'), title: 'never stored either', updatedAt: 9 });
        throw new Error('fails alone');
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(store.get('s')).toEqual({
      ...session('s'),
      updatedAt: 3,
      lastTurn: { turnId: 't1', outcome: 'replied', at: 2 },
    });
  });
});
