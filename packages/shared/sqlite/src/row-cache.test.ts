import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from './sqlite-database.js';

let dir: string;
let mine: SqliteDatabase;
let theirs: SqliteDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-row-cache-'));
  mine = new SqliteDatabase(join(dir, 'db'));
  theirs = new SqliteDatabase(join(dir, 'db'));
  mine.connection.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
});
afterEach(() => {
  mine.close();
  theirs.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (database: SqliteDatabase, id: string, body: string) =>
  database.write((c) => c.prepare('INSERT OR REPLACE INTO notes (id, body) VALUES (?, ?)').run(id, body));
const bodyIn = (database: SqliteDatabase, id: string) =>
  (database.connection.prepare('SELECT body FROM notes WHERE id = ?').pluck().get(id) as string | undefined) ?? null;

describe('SqliteDatabase.changeToken and RowCache', () => {
  it("moves on another connection's commit and this one's rollbacks, never on this one's commits", async () => {
    const start = mine.changeToken();
    insert(mine, 'a', '1');
    expect(mine.changeToken()).toBe(start);
    insert(theirs, 'a', '2');
    const afterTheirs = mine.changeToken();
    expect(afterTheirs).not.toBe(start);
    expect(() =>
      mine.write(() => {
        throw new Error('rolled back');
      }),
    ).toThrow();
    const afterRollback = mine.changeToken();
    expect(afterRollback).not.toBe(afterTheirs);
    // A savepoint rolled back in a group commit moves it too.
    await Promise.allSettled([
      mine.writeSoon(() => insert(mine, 'b', '1')),
      mine.writeSoon(() => {
        throw new Error('alone');
      }),
    ]);
    expect(mine.changeToken()).not.toBe(afterRollback);
  });

  it('a cached row is read again after another connection changed it, and kept while nothing did', () => {
    const cache = mine.rowCache<string | null>('notes');
    let loads = 0;
    const read = (id: string) =>
      cache.read(id, () => {
        loads++;
        return bodyIn(mine, id);
      });
    insert(mine, 'a', 'mine');
    expect(read('a')).toBe('mine');
    expect(read('a')).toBe('mine');
    expect(loads).toBe(1);
    insert(theirs, 'a', 'theirs');
    expect(read('a')).toBe('theirs');
    expect(loads).toBe(2);
    // Inside a write transaction nobody else can commit: the database is asked once for the whole transaction.
    mine.write(() => {
      expect(read('a')).toBe('theirs');
      insert(mine, 'a', 'written here');
      cache.set('a', 'written here');
      expect(read('a')).toBe('written here');
    });
    expect(loads).toBe(2);
    expect(mine.rowCache('notes')).toBe(cache);
  });

  it('a value set in a write that then rolls back is not kept', () => {
    const cache = mine.rowCache<string | null>('notes');
    insert(mine, 'a', 'committed');
    const read = () => cache.read('a', () => bodyIn(mine, 'a'));
    expect(read()).toBe('committed');
    expect(() =>
      mine.write(() => {
        read();
        insert(mine, 'a', 'never committed');
        cache.set('a', 'never committed');
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(read()).toBe('committed');
  });
});
