// The held end of a turn against a real PostgreSQL: a write that meets a server that is not there (ECONNREFUSED, as
// while it restarts) is held and written once the server answers again (a proxy on the address starts forwarding);
// a constraint violation is never retried; past the time or memory bound, or at a stop, it gives up with a logged
// coded error and nothing is written.
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { AalisError, LogHub, memorySink } from '@aalis/core';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageRetry, type StorageRetryLimits } from './storage-retry.js';

const FAST: StorageRetryLimits = { maxMs: 5000, maxBytes: 1024, firstDelayMs: 10, maxDelayMs: 50 };

let target: URL;
const opened: PostgresDatabase[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  target = new URL(await throwawayDatabase());
  const setup = new PostgresDatabase(target.href, { max: 1 });
  await setup.query('CREATE TABLE replies (turn TEXT PRIMARY KEY, body TEXT NOT NULL)');
  await setup.close();
});

afterAll(async () => {
  // The pools first: their connections through a proxy end with them, so the proxies can close.
  for (const database of opened) await database.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** A port on 127.0.0.1 that refuses connections until `open()` makes it forward to the real server. */
async function gone(): Promise<{ url: string; open(): Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const url = new URL(target.href);
  url.port = String(port);
  return {
    url: url.href,
    async open() {
      const proxy = createServer((client: Socket) => {
        const upstream = tcpConnect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      servers.push(proxy);
      await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    },
  };
}

function database(url: string): PostgresDatabase {
  const db = new PostgresDatabase(url, { max: 1 });
  opened.push(db);
  return db;
}

function retrying(limits: StorageRetryLimits = FAST) {
  const sink = memorySink();
  const retry = new StorageRetry(new LogHub([sink]).logger('agent'), limits);
  return { retry, records: sink.records };
}

async function rows(turn: string): Promise<number> {
  const [row] = await database(target.href).query<{ count: string }>(
    'SELECT count(*) AS count FROM replies WHERE turn = $1',
    [turn],
  );
  return Number(row?.count);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('StorageRetry', () => {
  it('holds a write while the server refuses connections and stores it once when it is back', async () => {
    const { retry, records } = retrying();
    const server = await gone();
    const db = database(server.url);
    let attempts = 0;
    let heldMeanwhile = 0;
    const written = retry.write({ sessionId: 's1', turnId: 't1', bytes: 100 }, async () => {
      attempts++;
      heldMeanwhile = Math.max(heldMeanwhile, retry.heldBytes);
      if (attempts === 3) await server.open();
      await db.query('INSERT INTO replies (turn, body) VALUES ($1, $2)', ['t1', 'the reply']);
      return 'stored';
    });
    await expect(written).resolves.toBe('stored');
    expect(attempts).toBe(3);
    expect(heldMeanwhile).toBe(100);
    expect(retry.heldBytes).toBe(0);
    expect(await rows('t1')).toBe(1);
    expect(records.map((record) => [record.level, record.fields?.reason ?? record.fields?.attempts])).toEqual([
      ['warn', 'ECONNREFUSED'],
      ['info', 3],
    ]);
    // The log names the turn, never what it said.
    expect(JSON.stringify(records)).not.toContain('the reply');
  });

  it('never retries a constraint violation: it is thrown at once and nothing is held', async () => {
    const { retry, records } = retrying();
    const db = database(target.href);
    await db.query('INSERT INTO replies (turn, body) VALUES ($1, $2)', ['t2', 'first']);
    let attempts = 0;
    const error = await refusal(
      retry.write({ sessionId: 's1', turnId: 't2', bytes: 10 }, async () => {
        attempts++;
        await db.query('INSERT INTO replies (turn, body) VALUES ($1, $2)', ['t2', 'again']);
      }),
    );
    expect((error as { code?: string }).code).toBe('23505');
    expect(attempts).toBe(1);
    expect(records).toEqual([]);
    expect(await rows('t2')).toBe(1);
  });

  it('gives up after maxMs with AALIS_AGENT_TURN_NOT_STORED in the log; nothing is written', async () => {
    const { retry, records } = retrying({ ...FAST, maxMs: 200 });
    const db = database((await gone()).url);
    let attempts = 0;
    const error = await refusal(
      retry.write({ sessionId: 's1', turnId: 't3', bytes: 10 }, async () => {
        attempts++;
        await db.query('INSERT INTO replies (turn, body) VALUES ($1, $2)', ['t3', 'lost']);
      }),
    );
    expect(AalisError.isInstance(error) && error.code).toBe('AALIS_AGENT_TURN_NOT_STORED');
    expect(attempts).toBeGreaterThan(2);
    expect(records.at(-1)).toMatchObject({ level: 'error', fields: { code: 'AALIS_AGENT_TURN_NOT_STORED' } });
    expect(records.at(-1)?.message).toContain('ECONNREFUSED');
    expect(retry.heldBytes).toBe(0);
    expect(await rows('t3')).toBe(0);
  });

  it('holds at most maxBytes in all (the next one gives up at once), and a stop gives up what it holds', async () => {
    const { retry, records } = retrying({ ...FAST, maxMs: 60_000, maxBytes: 100 });
    const db = database((await gone()).url);
    const fail = () => db.query('SELECT 1');
    const first = refusal(retry.write({ sessionId: 's1', turnId: 't4', bytes: 60 }, fail));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(retry.heldBytes).toBe(60);
    const second = await refusal(retry.write({ sessionId: 's2', turnId: 't5', bytes: 60 }, fail));
    expect(AalisError.isInstance(second) && second.code).toBe('AALIS_AGENT_TURN_NOT_HELD');
    retry.stop();
    const stopped = await first;
    expect(AalisError.isInstance(stopped) && stopped.code).toBe('AALIS_AGENT_TURN_NOT_STORED_AT_STOP');
    expect(retry.heldBytes).toBe(0);
    expect(records.filter((record) => record.level === 'error').map((record) => record.fields?.code)).toEqual([
      'AALIS_AGENT_TURN_NOT_HELD',
      'AALIS_AGENT_TURN_NOT_STORED_AT_STOP',
    ]);
    // Stopped: a write that fails now is not held at all.
    const after = await refusal(retry.write({ sessionId: 's1', turnId: 't6', bytes: 1 }, fail));
    expect(AalisError.isInstance(after) && after.code).toBe('AALIS_AGENT_TURN_NOT_STORED_AT_STOP');
  });
});
