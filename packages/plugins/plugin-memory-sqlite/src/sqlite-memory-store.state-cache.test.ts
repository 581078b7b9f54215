import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { DATABASE_FILE, openDatabase, SqliteDatabase } from '@aalis/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupedAppends } from './grouped-appends.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

// The session counters (memory_sessions) are kept in the connection's row cache. A cached copy that missed a write
// would number the next append wrong: a seq already taken (the insert fails) or a gap, and the counts would be off.

let dir: string;
const cleanups: (() => void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-memory-state-'));
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function shared(): SqliteDatabase {
  const lease = openDatabase(dir);
  cleanups.push(lease.release);
  return lease.database;
}

/** A second connection to the same file, as a second `aalis` process on the data directory has. */
function otherConnection(): SqliteDatabase {
  const database = new SqliteDatabase(join(dir, DATABASE_FILE));
  cleanups.push(() => database.close());
  return database;
}

const message = (content: string, turnId = 't1'): Message => ({
  role: 'user',
  content,
  timestamp: 1_700_000_000_000,
  metadata: { [WellKnownMetadataKeys.TurnId]: turnId },
});

const seqs = (database: SqliteDatabase, sessionId: string) =>
  (
    database.connection.prepare('SELECT seq FROM memory_messages WHERE session_id = ? ORDER BY seq').all(sessionId) as {
      seq: number;
    }[]
  ).map((row) => row.seq);

const flushLoop = () => new Promise((resolve) => setImmediate(resolve));

describe('SqliteMemoryStore session counters cache', () => {
  it("another connection's appends are seen by the next count, read and append (seq numbered after them)", () => {
    const mine = new SqliteMemoryStore(shared());
    const theirs = new SqliteMemoryStore(otherConnection());
    mine.append('s', [message('one')]);
    expect(mine.countHistory('s')).toBe(1);
    theirs.append('s', [message('two'), message('three')]);
    expect(mine.countHistory('s')).toBe(3);
    expect(mine.read('s', { from: 1 }).map((m) => m.content)).toEqual(['two', 'three']);
    // Appended right after the other connection's commit, with no read in between.
    theirs.append('s', [message('four')]);
    mine.append('s', [message('five')]);
    expect(seqs(shared(), 's')).toEqual([0, 1, 2, 3, 4]);
    expect(theirs.countHistory('s')).toBe(5);
    expect(mine.read('s').map((m) => m.content)).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it("another connection's deletion is seen: the session starts again from nothing", () => {
    const mine = new SqliteMemoryStore(shared());
    const theirs = new SqliteMemoryStore(otherConnection());
    mine.append('s', [message('one'), message('two')]);
    expect(mine.countHistory('s')).toBe(2);
    theirs.delete(['s']);
    expect(mine.countHistory('s')).toBe(0);
    mine.append('s', [message('again')]);
    expect(mine.read('s').map((m) => m.content)).toEqual(['again']);
    expect(seqs(shared(), 's')).toEqual([0]);
  });

  it('a write that fails in a group commit leaves no cached counters: the next append numbers seq right', async () => {
    const database = shared();
    const store = new SqliteMemoryStore(database);
    const grouped = new GroupedAppends(store, database);
    await grouped.append('s', [message('first')]);
    // In one commit: an append, then a write that appends and fails after its rows and counters were saved (its
    // savepoint is rolled back), then another append.
    const results = await Promise.allSettled([
      grouped.append('s', [message('second')]),
      database.writeSoon(() => {
        store.appendInTransaction('s', [message('rolled back'), message('rolled back too')]);
        throw new Error('fails after saving');
      }),
      grouped.append('s', [message('third')]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await grouped.append('s', [message('fourth')]);
    expect(seqs(database, 's')).toEqual([0, 1, 2, 3]);
    expect(grouped.countHistory('s')).toBe(4);
    expect(grouped.read('s').map((m) => m.content)).toEqual(['first', 'second', 'third', 'fourth']);
    await flushLoop();
  });

  it('a write transaction that fails after an append leaves no cached counters', () => {
    const database = shared();
    const store = new SqliteMemoryStore(database);
    store.append('s', [message('first')]);
    expect(() =>
      database.write(() => {
        store.appendInTransaction('s', [message('rolled back')]);
        throw new Error('fails after saving');
      }),
    ).toThrow('fails after saving');
    store.append('s', [message('second')]);
    expect(seqs(database, 's')).toEqual([0, 1]);
    expect(store.countHistory('s')).toBe(2);
  });

  it('two stores on one connection share the counters (their writes do not move data_version for each other)', () => {
    const database = shared();
    const a = new SqliteMemoryStore(database);
    const b = new SqliteMemoryStore(database);
    a.append('s', [message('one')]);
    expect(b.countHistory('s')).toBe(1);
    b.append('s', [message('two')]);
    expect(a.countHistory('s')).toBe(2);
    a.append('s', [message('three')]);
    expect(seqs(database, 's')).toEqual([0, 1, 2]);
  });

  it('a rollback by turn and a clear move the cached counters with them', () => {
    const database = shared();
    const store = new SqliteMemoryStore(database);
    store.append('s', [message('one', 't1'), message('two', 't2')]);
    expect(store.countHistory('s')).toBe(2);
    expect(store.deleteByTurn('s', 't2')).toBe(1);
    expect(store.countHistory('s')).toBe(1);
    store.append('s', [message('three', 't3')]);
    expect(store.read('s').map((m) => m.content)).toEqual(['one', 'three']);
    store.delete(['s']);
    expect(store.countHistory('s')).toBe(0);
    store.append('s', [message('four', 't4')]);
    store.delete(undefined);
    expect(store.countHistory('s')).toBe(0);
    expect(store.read('s')).toEqual([]);
  });
});
