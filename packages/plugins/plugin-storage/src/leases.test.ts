// Leases on both engines, as two processes see them (two connections, two holders): one holder at a time, the
// next waiter gets a released lease, an expired holder's lease is taken over with its note, and a holder that
// could not renew learns it lost the lease.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type LeaseBackend, postgresLeases, sqliteLeases } from './lease-backends.js';
import { Leases } from './leases.js';

interface Engine {
  backend(): Promise<LeaseBackend>;
  close(): Promise<void>;
}

const engines: Record<string, () => Promise<Engine>> = {
  sqlite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-leases-'));
    const opened: SqliteDatabase[] = [];
    return {
      async backend() {
        const database = new SqliteDatabase(join(dir, 'aalis.db'));
        opened.push(database);
        return sqliteLeases(database);
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
      async backend() {
        const database = new PostgresDatabase(url);
        opened.push(database);
        return postgresLeases(database);
      },
      async close() {
        for (const database of opened) await database.close();
      },
    };
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(Object.keys(engines))('leases on %s', (engineName) => {
  let engine: Engine | undefined;
  const open: Leases[] = [];
  const start = async (ttlMs = 1000) => {
    engine ??= await engines[engineName]!();
    const leases = new Leases(await engine.backend(), { ttlMs });
    open.push(leases);
    return leases;
  };
  afterEach(async () => {
    for (const leases of open.splice(0)) await leases.close();
    await engine?.close();
    engine = undefined;
  });

  it('keeps a lease claimed while a renewal was under way (the renewal could not see it yet)', async () => {
    engine ??= await engines[engineName]!();
    const backend = await engine.backend();
    let slow = true;
    let resume: (() => void) | undefined;
    const leases = new Leases(
      {
        ...backend,
        async renew(holder, ttlMs) {
          const still = await backend.renew(holder, ttlMs);
          if (slow) await new Promise<void>((resolve) => (resume = resolve));
          return still;
        },
      },
      { ttlMs: 400 },
    );
    open.push(leases);
    const first = (await leases.acquire('a'))!;
    while (!resume) await sleep(5);
    const second = (await leases.acquire('b'))!;
    slow = false;
    resume();
    await sleep(20);
    expect(second.lost.aborted).toBe(false);
    expect(first.lost.aborted).toBe(false);
  });

  it('lets one process hold a name; the waiting process gets it once released', async () => {
    const a = await start();
    const b = await start();
    const held = (await a.acquire('session:s1'))!;
    expect(await b.tryAcquire('session:s1')).toBeUndefined();
    let bHolds = false;
    const waiting = b.acquire('session:s1').then((lease) => {
      bHolds = true;
      return lease;
    });
    await sleep(100);
    expect(bHolds).toBe(false);
    await held.release();
    const next = await waiting;
    expect(next?.takenOver).toBeUndefined();
    expect(next?.previousHolder).toBe(a.holder);
    expect(await a.tryAcquire('session:s1')).toBeUndefined();
    await next?.release();
    expect(await a.tryAcquire('session:s1')).toBeDefined();
  });

  it('queues waiters of one process in order and stops waiting on abort', async () => {
    const a = await start();
    const first = (await a.acquire('n'))!;
    const order: string[] = [];
    const controller = new AbortController();
    const aborted = a.acquire('n', { signal: controller.signal });
    const second = a.acquire('n').then(async (lease) => {
      order.push('second');
      await lease?.release();
    });
    controller.abort();
    expect(await aborted).toBeUndefined();
    order.push('first');
    await first.release();
    await second;
    expect(order).toEqual(['first', 'second']);
  });

  it('takes over the lease of a holder that stopped renewing, with its note, and tells that holder it lost it', async () => {
    engine ??= await engines[engineName]!();
    const backend = await engine.backend();
    // A holder that dies: it claimed and noted its turn, then never renewed.
    expect((await backend.claim('session:s2', 'dead-holder', 300)).acquired).toBe(true);
    await backend.note('session:s2', 'dead-holder', 'turn_1');
    const b = await start(1000);
    await sleep(350);
    expect(await b.abandoned('session:')).toEqual(['session:s2']);
    const started = Date.now() - 350;
    const lease = (await b.acquire('session:s2'))!;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(lease.takenOver).toEqual({ note: 'turn_1' });
    // Now b stalls past its ttl (its heartbeat is stopped) and another holder takes the lease: b is told.
    const stalled = await start(300);
    const stalledLease = (await stalled.acquire('session:s3'))!;
    stalled.pauseHeartbeat();
    await sleep(400);
    const c = await start(1000);
    const taken = (await c.acquire('session:s3'))!;
    expect(taken.takenOver).toEqual({ note: undefined });
    await stalled.resumeHeartbeat();
    expect(stalledLease.lost.aborted).toBe(true);
    // Awake again, it renews what it takes from now on: a lease it holds past its ttl is still its own.
    const after = (await stalled.acquire('session:s4'))!;
    await sleep(400);
    expect(after.lost.aborted).toBe(false);
    expect(await c.tryAcquire('session:s4')).toBeUndefined();
    await after.release();
    await lease.release();
    await taken.release();
  });

  it('keeps the note given to acquire or tryAcquire from the claim on, and hands it to whoever takes over', async () => {
    const dying = await start(300);
    const held = (await dying.acquire('session:n1', { note: 'turn_a' }))!;
    const tried = (await dying.tryAcquire('session:n2', { note: 'turn_b' }))!;
    expect(held).toBeDefined();
    expect(tried).toBeDefined();
    // The holder dies (its heartbeat stops) without noting anything more: the next holder learns the claims' notes.
    dying.pauseHeartbeat();
    await sleep(400);
    const next = await start(1000);
    expect((await next.acquire('session:n1'))!.takenOver).toEqual({ note: 'turn_a' });
    expect((await next.tryAcquire('session:n2'))!.takenOver).toEqual({ note: 'turn_b' });
  });
});

describe('leases on sqlite: commits', () => {
  it('claims with their notes and releases made in one loop turn share one commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-leases-'));
    const database = new SqliteDatabase(join(dir, 'aalis.db'));
    const leases = new Leases(sqliteLeases(database), { ttlMs: 1000 });
    try {
      let commits = 0;
      const write = database.write.bind(database);
      database.write = <T>(fn: (connection: SqliteDatabase['connection']) => T): T => {
        if (!database.connection.inTransaction) commits++;
        return write(fn);
      };
      const names = Array.from({ length: 8 }, (_, index) => `session:c${index}`);
      const held = await Promise.all(names.map((name) => leases.acquire(name, { note: `turn_${name}` })));
      expect(commits).toBe(1);
      const rows = database.connection
        .prepare('SELECT name, holder, note, released FROM aalis_leases ORDER BY name')
        .all() as { name: string; holder: string; note: string; released: number }[];
      expect(rows).toEqual(names.map((name) => ({ name, holder: leases.holder, note: `turn_${name}`, released: 0 })));
      await Promise.all(held.map((lease) => lease!.release()));
      expect(commits).toBe(2);
      const released = database.connection.prepare('SELECT released, note FROM aalis_leases').all();
      expect(released).toEqual(names.map(() => ({ released: 1, note: null })));
      // Released for real: another holder takes every name at once.
      const other = new Leases(sqliteLeases(database), { ttlMs: 1000 });
      for (const name of names) expect((await other.tryAcquire(name))?.previousHolder).toBe(leases.holder);
      await other.close();
    } finally {
      await leases.close();
      database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
