// The hand-over queue on both engines, as two processes see it (two connections, two holders): arrival order, two
// takers never sharing an item, outcomes waited for from another connection, and a dead holder's items taken
// over with their notes by the next holder of the lease.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HandOver } from './hand-over.js';
import { type HandOverBackend, postgresHandOver, sqliteHandOver } from './hand-over-backends.js';
import { type LeaseBackend, postgresLeases, sqliteLeases } from './lease-backends.js';
import { Leases } from './leases.js';

interface Process {
  leases: Leases;
  queue: HandOver;
  leaseBackend: LeaseBackend;
  backend: HandOverBackend;
}

interface Engine {
  /** PostgreSQL: the database's URL. */
  url?: string;
  open(): Promise<{ leases: LeaseBackend; handOver: HandOverBackend }>;
  close(): Promise<void>;
}

const engines: Record<string, () => Promise<Engine>> = {
  sqlite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-hand-over-'));
    const opened: SqliteDatabase[] = [];
    return {
      async open() {
        const database = new SqliteDatabase(join(dir, 'aalis.db'));
        opened.push(database);
        return { leases: sqliteLeases(database), handOver: sqliteHandOver(database) };
      },
      async close() {
        for (const database of opened) database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  postgres: async () => {
    const url = await throwawayDatabase();
    const opened: PostgresDatabase[] = [];
    return {
      url,
      async open() {
        const database = new PostgresDatabase(url);
        opened.push(database);
        return { leases: await postgresLeases(database), handOver: await postgresHandOver(database) };
      },
      async close() {
        for (const database of opened) await database.close();
      },
    };
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(Object.keys(engines))('hand-over on %s', (engineName) => {
  let engine: Engine | undefined;
  const started: Process[] = [];
  const start = async (ttlMs = 1000): Promise<Process> => {
    engine ??= await engines[engineName]!();
    const { leases: leaseBackend, handOver: backend } = await engine.open();
    const leases = new Leases(leaseBackend, { ttlMs });
    const queue = new HandOver(backend, { holder: leases.holder });
    await queue.ready;
    const process = { leases, queue, leaseBackend, backend };
    started.push(process);
    return process;
  };
  afterEach(async () => {
    for (const process of started.splice(0)) {
      process.queue.close();
      await process.leases.close();
    }
    await engine?.close();
    engine = undefined;
  });

  it('hands items to the lease holder in the order they were put, payloads unchanged', async () => {
    const a = await start();
    const b = await start();
    const payloads = ['{"n":1}', 'zwei ✓', JSON.stringify({ attachments: [{ type: 'image', data: 'AAAA' }] })];
    const ids: number[] = [];
    for (const [index, payload] of payloads.entries()) {
      const process = index % 2 === 0 ? a : b;
      ids.push((await process.queue.put('session:s1', payload)).id);
    }
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    await b.queue.put('session:other', 'not this name');
    const lease = (await a.leases.acquire('session:s1'))!;
    const taken = await a.queue.take('session:s1');
    expect(taken.map((item) => item.payload)).toEqual(payloads);
    expect(taken.map((item) => item.id)).toEqual(ids);
    expect(taken.every((item) => !item.orphaned && item.note === undefined)).toBe(true);
    // Taken items are not handed out again while their taker holds the lease.
    expect(await a.queue.take('session:s1')).toEqual([]);
    expect(await b.queue.take('session:s1')).toEqual([]);
    await lease.release();
  });

  it('never gives one item to two takers taking at the same time (SKIP LOCKED)', async () => {
    const a = await start();
    const b = await start();
    const put = new Set<number>();
    for (let index = 0; index < 40; index++) put.add((await a.queue.put('platform:x', String(index))).id);
    const seen: number[] = [];
    for (let round = 0; round < 6; round++) {
      const [fromA, fromB] = await Promise.all([
        a.queue.take('platform:x', { limit: 5 }),
        b.queue.take('platform:x', { limit: 5 }),
      ]);
      seen.push(...fromA.map((item) => item.id), ...fromB.map((item) => item.id));
    }
    const rest = [...(await a.queue.take('platform:x')), ...(await b.queue.take('platform:x'))];
    seen.push(...rest.map((item) => item.id));
    expect(seen.length).toBe(40);
    expect(new Set(seen)).toEqual(put);
  });

  it('tells a waiter on another connection the outcome once the item is finished', async () => {
    const a = await start();
    const b = await start();
    const { id } = await a.queue.put('session:s2', 'hello');
    let outcome: string | undefined;
    const waiting = a.queue.settled(id).then((value) => {
      outcome = value;
    });
    const lease = (await b.leases.acquire('session:s2'))!;
    const [item] = await b.queue.take('session:s2');
    expect(item?.id).toBe(id);
    await sleep(100);
    expect(outcome).toBeUndefined();
    const finishedAt = Date.now();
    await b.queue.finish(id, 'answered');
    await waiting;
    expect(outcome).toBe('answered');
    // Told by NOTIFY (PostgreSQL) or the short poll (SQLite), not by the one-second safety net.
    expect(Date.now() - finishedAt).toBeLessThan(engineName === 'postgres' ? 500 : 200);
    // A second finish keeps the first outcome; a late waiter gets it at once.
    await b.queue.finish(id, 'stopped');
    expect(await a.queue.settled(id)).toBe('answered');
    // An aborted wait ends with undefined.
    const other = await a.queue.put('session:s2', 'later');
    const controller = new AbortController();
    const aborted = a.queue.settled(other.id, { signal: controller.signal });
    controller.abort();
    expect(await aborted).toBeUndefined();
    await lease.release();
  });

  it('hands a dead holder’s unfinished items, with their notes, to the next holder of the lease', async () => {
    const b = await start(1000);
    engine ??= await engines[engineName]!();
    // A holder that dies: it holds the lease (never renewed), took two items and noted the first one's turn.
    const dead = await engine.open();
    const deadQueue = new HandOver(dead.handOver, { holder: 'dead-holder' });
    await deadQueue.ready;
    const first = await b.queue.put('session:s3', 'one');
    const second = await b.queue.put('session:s3', 'two');
    expect((await dead.leases.claim('session:s3', 'dead-holder', 300)).acquired).toBe(true);
    expect((await deadQueue.take('session:s3')).map((item) => item.id)).toEqual([first.id, second.id]);
    await deadQueue.note(first.id, 'turn_1');
    deadQueue.close();
    const third = await b.queue.put('session:s3', 'three');
    // While the holder's lease lasts, its items are its own; only the new one is waiting.
    expect(await b.queue.waiting('session:')).toEqual(['session:s3']);
    const early = await b.leases.tryAcquire('session:s3');
    expect(early).toBeUndefined();
    await sleep(350);
    const lease = (await b.leases.acquire('session:s3'))!;
    expect(lease.takenOver).toEqual({ note: undefined });
    const taken = await b.queue.take('session:s3');
    expect(taken.map((item) => [item.payload, item.orphaned, item.note])).toEqual([
      ['one', true, 'turn_1'],
      ['two', true, undefined],
      ['three', false, undefined],
    ]);
    expect(taken.map((item) => item.id)).toEqual([first.id, second.id, third.id]);
    expect(await b.queue.waiting('session:')).toEqual([]);
    for (const item of taken) await b.queue.finish(item.id, 'done');
    await lease.release();
  });

  it('lists names whose items nobody live holds, and tells every process of each put', async () => {
    const a = await start();
    const b = await start();
    const heard: string[] = [];
    const stop = b.queue.onPut((name, mine) => heard.push(`${name}${mine ? ' (mine)' : ''}`));
    const own: string[] = [];
    const stopOwn = a.queue.onPut((name, mine) => own.push(`${name}${mine ? ' (mine)' : ''}`));
    await a.queue.put('session:w1', 'x');
    await a.queue.put('other:w2', 'y');
    for (let i = 0; i < 50 && heard.length < 2; i++) await sleep(20);
    expect(heard.sort()).toEqual(['other:w2', 'session:w1']);
    // The putting process hears its own puts once, as its own (not again by the NOTIFY's echo or the poll).
    await sleep(100);
    expect(own.sort()).toEqual(['other:w2 (mine)', 'session:w1 (mine)']);
    stop();
    stopOwn();
    expect(await a.queue.waiting('session:')).toEqual(['session:w1']);
    // Just put: its own process is about to take it.
    expect(await a.queue.waiting('session:', { olderThanMs: 60_000 })).toEqual([]);
    const lease = (await a.leases.acquire('session:w1'))!;
    await a.queue.take('session:w1');
    // Taken by a live holder: not waiting. Released without finishing: waiting again for the next holder.
    expect(await b.queue.waiting('session:')).toEqual([]);
    await lease.release();
    expect(await b.queue.waiting('session:')).toEqual(['session:w1']);
  });

  it.runIf(engineName === 'postgres')(
    'a taker whose listening connection was cut still hears of items put while it was gone',
    async () => {
      const a = await start();
      const b = await start();
      const heard: string[] = [];
      a.queue.onPut((name) => heard.push(name));
      const admin = new PostgresDatabase(engine!.url!);
      const [listener] = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' ORDER BY backend_start LIMIT 1",
      );
      await admin.query('SELECT pg_terminate_backend($1)', [listener!.pid]);
      await admin.close();
      // Put while a's listener is gone (it listens again after half a second): its NOTIFY reaches nobody there.
      await b.queue.put('session:cut', 'x');
      for (let i = 0; i < 100 && !heard.includes('session:cut'); i++) await sleep(20);
      expect(heard).toContain('session:cut');
    },
  );
});

describe('hand-over on sqlite: what a take reads and writes', () => {
  it('looks first whether anything waits, except right after this process put under the name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-hand-over-reads-'));
    const here = new SqliteDatabase(join(dir, 'aalis.db'));
    const there = new SqliteDatabase(join(dir, 'aalis.db'));
    const leases = new Leases(sqliteLeases(here), { ttlMs: 1000 });
    const queue = new HandOver(sqliteHandOver(here), { holder: leases.holder });
    const other = new HandOver(sqliteHandOver(there), { holder: 'another-process' });
    try {
      const lease = (await leases.acquire('session:s'))!;
      const statements = vi.spyOn(here, 'statement');
      const writes = vi.spyOn(here, 'write');
      const lookups = () => statements.mock.calls.filter(([sql]) => sql.includes('taker AS previous')).length;
      const takeCounting = async () => {
        statements.mockClear();
        writes.mockClear();
        const payloads = (await queue.take('session:s')).map((item) => item.payload);
        return { payloads, lookups: lookups(), writes: writes.mock.calls.length };
      };
      // Its own put: straight to the write, whose read under the lock decides what is taken.
      await queue.put('session:s', 'mine');
      expect(await takeCounting()).toEqual({ payloads: ['mine'], lookups: 1, writes: 1 });
      // Nothing waits: one read, no write transaction.
      expect(await takeCounting()).toEqual({ payloads: [], lookups: 1, writes: 0 });
      // Another process's put: found by the read, taken under the lock.
      await other.put('session:s', 'theirs');
      expect(await takeCounting()).toEqual({ payloads: ['theirs'], lookups: 2, writes: 1 });
      // Several puts, one take, in order.
      await queue.put('session:s', 'twice');
      await queue.put('session:s', 'thrice');
      expect((await takeCounting()).payloads).toEqual(['twice', 'thrice']);
      // Its own put finished before the take (the put is only a hint): the write finds nothing and takes nothing.
      const { id } = await queue.put('session:s', 'done');
      await queue.finish(id, 'settled');
      expect(await takeCounting()).toEqual({ payloads: [], lookups: 1, writes: 1 });
      expect(await takeCounting()).toEqual({ payloads: [], lookups: 1, writes: 0 });
      await lease.release();
    } finally {
      queue.close();
      other.close();
      await leases.close();
      here.close();
      there.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
