// Which real driver errors count as "the database cannot be used right now" (retried by the agent, 503 in the session
// server): SQLite locked past its busy timeout is; a constraint violation on either engine never is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { storageFailure } from './storage-failure.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function thrown(run: () => unknown): Promise<unknown> {
  return Promise.resolve()
    .then(run)
    .then(
      () => {
        throw new Error('expected a throw');
      },
      (error: unknown) => error,
    );
}

function sqlite(dir: string): SqliteDatabase {
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  cleanups.push(() => database.close());
  return database;
}

describe('storageFailure on real driver errors', () => {
  it('SQLite: a database locked by another connection past the busy timeout is one; a UNIQUE violation is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-storage-failure-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const holder = sqlite(dir);
    holder.connection.exec('CREATE TABLE replies (turn TEXT PRIMARY KEY)');
    holder.connection.prepare('INSERT INTO replies VALUES (?)').run('t1');
    const writer = sqlite(dir);
    writer.connection.pragma('busy_timeout = 50');
    holder.connection.exec('BEGIN EXCLUSIVE');
    const busy = await thrown(() => writer.connection.prepare('INSERT INTO replies VALUES (?)').run('t2'));
    holder.connection.exec('ROLLBACK');
    expect(storageFailure(busy)).toBe('SQLITE_BUSY');
    const duplicate = await thrown(() => writer.connection.prepare('INSERT INTO replies VALUES (?)').run('t1'));
    expect((duplicate as { code?: string }).code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(storageFailure(duplicate)).toBeUndefined();
  });

  it('PostgreSQL: a unique violation (23505) and a syntax error are not', async () => {
    const database = new PostgresDatabase(await throwawayDatabase(), { max: 1 });
    cleanups.push(() => database.close());
    await database.query('CREATE TABLE replies (turn TEXT PRIMARY KEY)');
    await database.query('INSERT INTO replies VALUES ($1)', ['t1']);
    const duplicate = await thrown(() => database.query('INSERT INTO replies VALUES ($1)', ['t1']));
    expect((duplicate as { code?: string }).code).toBe('23505');
    expect(storageFailure(duplicate)).toBeUndefined();
    expect(storageFailure(await thrown(() => database.query('SELEC 1')))).toBeUndefined();
  });
});
