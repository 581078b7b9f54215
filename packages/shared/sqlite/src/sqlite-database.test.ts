import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const migrations = [
  { version: 1, name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' },
  { version: 2, name: 'notes.session', up: 'ALTER TABLE notes ADD COLUMN session TEXT' },
];

describe('SqliteDatabase', () => {
  it('opens in WAL mode', () => {
    const lease = openDatabase(dir);
    expect(lease.database.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    lease.release();
  });

  it('applies migrations once and records their versions across reopen', () => {
    const first = openDatabase(dir);
    expect(first.database.migrate('notes', migrations)).toEqual([1, 2]);
    first.release();
    const second = openDatabase(dir);
    expect(second.database.migrate('notes', migrations)).toEqual([]);
    expect(second.database.schemaVersion('notes')).toBe(2);
    second.release();
  });

  it('refuses migrations with gaps', () => {
    const lease = openDatabase(dir);
    expect(() => lease.database.migrate('x', [{ version: 2, name: 'x', up: 'SELECT 1' }])).toThrow(/without gaps/);
    lease.release();
  });

  it('rolls a failing write back', () => {
    const lease = openDatabase(dir);
    lease.database.migrate('notes', migrations);
    expect(() =>
      lease.database.write((c) => {
        c.prepare('INSERT INTO notes (body) VALUES (?)').run('kept?');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(lease.database.connection.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
    lease.release();
  });

  it('shares one connection per data directory and closes it with the last lease', () => {
    const a = openDatabase(dir);
    const b = openDatabase(dir);
    expect(a.database).toBe(b.database);
    a.release();
    expect(b.database.isOpen).toBe(true);
    b.release();
    expect(b.database.isOpen).toBe(false);
  });

  it('writeSoon: the writes of one loop turn share one commit, in order; one that throws fails alone', async () => {
    const lease = openDatabase(dir);
    const database = lease.database;
    database.migrate('notes', migrations);
    let commits = 0;
    const write = database.write.bind(database);
    database.write = <T>(fn: (connection: typeof database.connection) => T): T => {
      if (!database.connection.inTransaction) commits++;
      return write(fn);
    };
    const insert = (body: string) => () =>
      Number(database.statement('INSERT INTO notes (body) VALUES (?)').run(body).lastInsertRowid);
    const outcomes = await Promise.allSettled([
      database.writeSoon(insert('a')),
      database.writeSoon((connection) => {
        connection.prepare('INSERT INTO notes (body) VALUES (?)').run('rolled back');
        throw new Error('refused');
      }),
      database.writeSoon(insert('b')),
    ]);
    expect(commits).toBe(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(database.connection.prepare('SELECT body FROM notes ORDER BY id').pluck().all()).toEqual(['a', 'b']);
    // A write asked for after a queued one commits it first: writes take effect in the order they were asked.
    const queued = database.writeSoon(insert('c'));
    database.write(insert('d'));
    expect(database.connection.prepare('SELECT body FROM notes ORDER BY id').pluck().all()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    await queued;
    // Closing commits what is still queued.
    void database.writeSoon(insert('e'));
    lease.release();
    const reopened = openDatabase(dir);
    expect(reopened.database.connection.prepare('SELECT body FROM notes ORDER BY id').pluck().all()).toContain('e');
    reopened.release();
  });
});
