import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_COMMIT_MAX, SqliteDatabase } from './sqlite-database.js';

let dir: string;
let database: SqliteDatabase;
/** A second connection: it sees only what has been committed. */
let reader: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-group-commit-'));
  database = new SqliteDatabase(join(dir, 'test.db'));
  database.write((connection) => connection.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'));
  reader = new Database(join(dir, 'test.db'), { readonly: true });
});
afterEach(() => {
  reader.close();
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (body: string) => (connection: Database.Database) =>
  connection.prepare('INSERT INTO notes (body) VALUES (?)').run(body).lastInsertRowid;
const committed = () =>
  (reader.prepare('SELECT body FROM notes ORDER BY id').all() as { body: string }[]).map((row) => row.body);
const bodies = (count: number, prefix = 'w') => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

describe('SqliteDatabase group commit in bounded chunks', () => {
  it('a burst commits GROUP_COMMIT_MAX writes at a time: the first writes are settled while the rest wait', async () => {
    const count = 2 * GROUP_COMMIT_MAX + 5;
    const seenAtSettle: number[] = [];
    const writes = bodies(count).map((body) =>
      database.writeSoon(insert(body)).then(() => seenAtSettle.push(committed().length)),
    );
    await Promise.all(writes);
    // Each write is settled once its own chunk is committed and before the next chunk is.
    expect(seenAtSettle).toEqual(
      Array.from({ length: count }, (_, index) =>
        Math.min(count, (Math.floor(index / GROUP_COMMIT_MAX) + 1) * GROUP_COMMIT_MAX),
      ),
    );
    expect(committed()).toEqual(bodies(count));
  });

  it('writes queued while a burst is being committed go after the rest of it, in the order asked for', async () => {
    const count = 3 * GROUP_COMMIT_MAX;
    const late: Promise<unknown>[] = [];
    const writes = bodies(count).map((body, index) =>
      database.writeSoon(insert(body)).then(() => {
        if (index % GROUP_COMMIT_MAX === 0) late.push(database.writeSoon(insert(`late${index}`)));
      }),
    );
    await Promise.all(writes);
    await Promise.all(late);
    const order = committed();
    expect(order.slice(0, count)).toEqual(bodies(count));
    expect(order.slice(count)).toEqual(['late0', `late${GROUP_COMMIT_MAX}`, `late${2 * GROUP_COMMIT_MAX}`]);
  });

  it('flushWrites and write still commit everything queued first, however much', async () => {
    const count = 3 * GROUP_COMMIT_MAX;
    const writes = bodies(count).map((body) => database.writeSoon(insert(body)));
    database.flushWrites();
    expect(committed()).toEqual(bodies(count));
    await Promise.all(writes);
    const more = bodies(count, 'm').map((body) => database.writeSoon(insert(body)));
    database.write(insert('sync'));
    expect(committed()).toEqual([...bodies(count), ...bodies(count, 'm'), 'sync']);
    await Promise.all(more);
  });

  it('in a chunk, a write that throws fails alone', async () => {
    const results = await Promise.allSettled(
      bodies(GROUP_COMMIT_MAX + 3).map((body, index) =>
        database.writeSoon((connection) => {
          insert(body)(connection);
          if (index === 2 || index === GROUP_COMMIT_MAX + 1) throw new Error(`no ${body}`);
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(2);
    expect(committed()).toEqual(
      bodies(GROUP_COMMIT_MAX + 3).filter((_, index) => index !== 2 && index !== GROUP_COMMIT_MAX + 1),
    );
  });
});
