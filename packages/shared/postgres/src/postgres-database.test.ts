import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from './postgres-database.js';
import { throwawayDatabase } from './throwaway-postgres.js';

let url: string;
let database: PostgresDatabase;
beforeAll(async () => {
  url = await throwawayDatabase();
  database = new PostgresDatabase(url);
}, 60_000);
afterAll(async () => {
  await database?.close();
});

const migrations = [
  { version: 1, name: 'notes', up: 'CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)' },
  { version: 2, name: 'notes.session', up: 'ALTER TABLE notes ADD COLUMN session TEXT' },
];

describe('PostgresDatabase', () => {
  it('applies migrations once and records their versions, also when processes race', async () => {
    const other = new PostgresDatabase(url);
    const [a, b] = await Promise.all([database.migrate('notes', migrations), other.migrate('notes', migrations)]);
    expect([...a, ...b].sort()).toEqual([1, 2]);
    expect(await database.migrate('notes', migrations)).toEqual([]);
    expect(await database.schemaVersion('notes')).toBe(2);
    await other.close();
  });

  it('refuses migrations with gaps', async () => {
    await expect(database.migrate('x', [{ version: 2, name: 'x', up: 'SELECT 1' }])).rejects.toThrow(/without gaps/);
  });

  it('rolls a failing transaction back', async () => {
    await expect(
      database.transaction(async (client) => {
        await client.query("INSERT INTO notes (body) VALUES ('kept?')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await database.query('SELECT COUNT(*)::int AS n FROM notes')).toEqual([{ n: 0 }]);
  });

  it('delivers NOTIFY payloads to listeners', async () => {
    const received: string[] = [];
    await database.listen('aalis_test', (payload) => received.push(payload));
    await database.notify('aalis_test', 'hello');
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual(['hello']);
  });

  it('listens again after its listening connection was cut, and says so (missed notifications get re-checked)', async () => {
    const received: string[] = [];
    let reconnected = 0;
    await database.listen('aalis_cut', (payload) => received.push(payload));
    database.onReconnect(() => reconnected++);
    const [listener] = await database.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(listener).toBeDefined();
    await database.query('SELECT pg_terminate_backend($1)', [listener!.pid]);
    for (let i = 0; i < 150 && reconnected === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(reconnected).toBe(1);
    await database.notify('aalis_cut', 'after the cut');
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual(['after the cut']);
  });

  it('statements with parameters are prepared once per connection under one name per text, in transactions too', async () => {
    const one = new PostgresDatabase(url, { max: 1 });
    try {
      const prepared = async () =>
        (
          await one.query<{ name: string; statement: string }>(
            'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
          )
        ).map((row) => `${row.name}: ${row.statement}`);
      expect(await prepared()).toEqual([]);
      expect(await one.query<{ n: number }>('SELECT $1::int + 1 AS n', [1])).toEqual([{ n: 2 }]);
      expect(await one.query<{ n: number }>('SELECT $1::int + 1 AS n', [41])).toEqual([{ n: 42 }]);
      await one.transaction(async (client) => {
        const { rows } = await client.query('SELECT $1::text AS t', ['in a transaction']);
        expect(rows).toEqual([{ t: 'in a transaction' }]);
        // Without parameters: unnamed, so several statements in one text still run.
        await client.query('SELECT 1; SELECT 2');
      });
      expect(await prepared()).toEqual(['aalis_1: SELECT $1::int + 1 AS n', 'aalis_2: SELECT $1::text AS t']);
    } finally {
      await one.close();
    }
  });
});
