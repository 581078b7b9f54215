// Writes asked for in one synchronous stretch share one commit, each in its own savepoint; a later stretch commits
// on its own; a turn's lease note and its item's note land in one commit. Commits are counted as the write
// transactions begun on the connection (a write inside a write is a savepoint of it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteHandOver } from './hand-over-backends.js';
import { sqliteLeases } from './lease-backends.js';
import { writeTogether } from './stretch-writes.js';

const dirs: string[] = [];
const closing: Array<() => void> = [];
afterEach(() => {
  for (const close of closing.splice(0)) close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-stretch-'));
  dirs.push(dir);
  const path = join(dir, 'aalis.db');
  const database = new SqliteDatabase(path);
  const observer = database.connection;
  closing.push(() => database.connection.close());
  let begun = 0;
  const write = database.write.bind(database);
  database.write = <T>(fn: (connection: Connection) => T): T => {
    if (!database.connection.inTransaction) begun += 1;
    return write(fn);
  };
  return { database, observer, commits: () => begun, commitsSince: (before: number) => begun - before };
}

describe('writes asked for together', () => {
  it('share one commit; one that throws is rolled back and rejected alone', async () => {
    const { database, observer, commits, commitsSince } = open();
    database.write((connection) => connection.exec('CREATE TABLE t (v TEXT NOT NULL)'));
    const before = commits();
    const insert = (v: string | null) => () => database.statement('INSERT INTO t (v) VALUES (?)').run(v).changes;
    const results = await Promise.allSettled([
      writeTogether(database, insert('a')),
      writeTogether(database, insert(null)),
      writeTogether(database, insert('c')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commitsSince(before)).toBe(1);
    expect(observer.prepare('SELECT v FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'c']);
  });

  it('commits a write asked for after an await on its own; one alone that throws is rejected and leaves nothing', async () => {
    const { database, observer, commits, commitsSince } = open();
    database.write((connection) => connection.exec('CREATE TABLE t (v TEXT NOT NULL)'));
    const before = commits();
    await writeTogether(database, () => database.statement('INSERT INTO t (v) VALUES (?)').run('a'));
    await writeTogether(database, () => database.statement('INSERT INTO t (v) VALUES (?)').run('b'));
    expect(commitsSince(before)).toBe(2);
    await expect(
      writeTogether(database, () => database.statement('INSERT INTO t (v) VALUES (?)').run(null)),
    ).rejects.toThrow(/NOT NULL/);
    expect(observer.prepare('SELECT v FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'b']);
  });

  it('a lease note and the notes of its items, asked for at once (as a turn begins), land in one commit', async () => {
    const { database, observer, commits, commitsSince } = open();
    const leases = sqliteLeases(database);
    const queue = sqliteHandOver(database);
    const claim = await leases.claim('session:s', 'me', 10_000);
    expect(claim.acquired).toBe(true);
    const first = await queue.put('session:s', 'one', 'me');
    const second = await queue.put('session:s', 'two', 'me');
    await queue.take('session:s', 'me', 10);
    const before = commits();
    await Promise.all([
      leases.note('session:s', 'me', 'turn t1'),
      queue.note(first, 'entered t1'),
      queue.note(second, 'entered t1'),
    ]);
    expect(commitsSince(before)).toBe(1);
    expect(observer.prepare('SELECT note FROM aalis_leases WHERE name = ?').pluck().get('session:s')).toBe('turn t1');
    expect(observer.prepare('SELECT note FROM aalis_hand_over ORDER BY id').pluck().all()).toEqual([
      'entered t1',
      'entered t1',
    ]);
  });
});
