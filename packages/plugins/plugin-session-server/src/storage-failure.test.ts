// The errors the drivers really throw when the database cannot be used are recognised (a server refusing connections,
// a connection cut by the server, a full SQLite database); errors that are bugs are not.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import { serverErrors, toProtocolError } from './server-errors.js';
import { storageFailure } from './storage-failure.js';

async function thrown(run: () => Promise<unknown> | unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('storageFailure', () => {
  it('a PostgreSQL server that is not there: ECONNREFUSED, answered 503 STORAGE_UNAVAILABLE', async () => {
    const database = new PostgresDatabase(`postgres://aalis@127.0.0.1:${await closedPort()}/aalis`);
    const error = await thrown(() => database.query('SELECT 1'));
    await database.close();
    expect(storageFailure(error)).toBe('ECONNREFUSED');
    const answer = toProtocolError(error, 'en');
    expect(answer.status).toBe(503);
    expect(answer.error.code).toBe('AALIS_WEBUI_STORAGE_UNAVAILABLE');
    expect(answer.error.details).toEqual({ reason: 'ECONNREFUSED' });
    expect(toProtocolError(error, 'zh-CN').error.message).toContain('数据库现在用不了（ECONNREFUSED）');
  });

  it('a connection the server ended (pg_terminate_backend, as a restart does); the next query gets a new one', async () => {
    const url = await throwawayDatabase();
    const victim = new PostgresDatabase(url, { max: 1 });
    const admin = new PostgresDatabase(url, { max: 1 });
    try {
      const [{ pid }] = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
      const during = thrown(() => victim.query('SELECT pg_sleep(5)'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(storageFailure(await during)).toMatch(/^(57P01|CONNECTION_LOST)$/);
      expect(await victim.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await admin.close();
      await victim.close();
    }
  });

  it('a full SQLite database: SQLITE_FULL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-full-'));
    const database = new SqliteDatabase(join(dir, 'full.db'));
    try {
      const { connection } = database;
      connection.exec('CREATE TABLE t (v TEXT)');
      connection.pragma('max_page_count = 8');
      const insert = connection.prepare('INSERT INTO t (v) VALUES (?)');
      const error = await thrown(() => {
        for (let index = 0; index < 1000; index++) insert.run('x'.repeat(1000));
      });
      expect(storageFailure(error)).toBe('SQLITE_FULL');
      expect(toProtocolError(error, 'en').error.code).toBe('AALIS_WEBUI_STORAGE_UNAVAILABLE');
    } finally {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('follows a cause; bugs and coded errors stay what they are', async () => {
    const cut = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(storageFailure(new Error('could not list sessions', { cause: cut }))).toBe('ECONNRESET');
    expect(storageFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeUndefined();
    // A constraint or a syntax error is a bug, not an outage.
    expect(storageFailure(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT' }))).toBe(
      undefined,
    );
    expect(storageFailure(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeUndefined();
    expect(toProtocolError(new RangeError('boom'), 'en')).toMatchObject({
      status: 500,
      error: { code: 'AALIS_WEBUI_INTERNAL' },
    });
    expect(toProtocolError(serverErrors.AALIS_WEBUI_SESSION_UNKNOWN({ sessionId: 'x' }), 'en').status).toBe(404);
  });
});
