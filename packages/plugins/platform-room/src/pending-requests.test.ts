// The pending-request store on SQLite (two connections to one file: two processes), PostgreSQL (two pools on one
// throwaway database) and in memory: kept across a reopen, taken once whichever process asks, bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_PENDING,
  memoryPendingRequests,
  type PendingRequestStore,
  postgresPendingRequests,
  sqlitePendingRequests,
} from './pending-requests.js';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Two stores on one database, as two processes have. */
const engines: Record<string, (now: () => number) => Promise<[PendingRequestStore, PendingRequestStore]>> = {
  sqlite: async (now) => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-pending-'));
    const one = new SqliteDatabase(join(dir, 'db'));
    const two = new SqliteDatabase(join(dir, 'db'));
    cleanups.push(() => {
      one.close();
      two.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return [sqlitePendingRequests(one, now), sqlitePendingRequests(two, now)];
  },
  postgres: async (now) => {
    const url = await throwawayDatabase();
    const one = new PostgresDatabase(url);
    const two = new PostgresDatabase(url);
    cleanups.push(() => Promise.all([one.close(), two.close()]));
    return [await postgresPendingRequests(one, now), await postgresPendingRequests(two, now)];
  },
};

const request = (id: string, createdAt: number, platform = 'onebot') => ({
  id,
  platform,
  kind: 'friend',
  data: { flag: `flag-${id}`, userId: '77' },
  createdAt,
});

describe.each(Object.keys(engines))('pending requests on %s', (engine) => {
  it('keeps a request for every process, gives it to the first taker only, and bounds what waits', async () => {
    let clock = 1_000_000;
    const [here, there] = await engines[engine]!(() => clock);
    await here.put(request('r1', clock));
    await here.put(request('r1', clock + 5)); // the same id again changes nothing
    await here.put(request('t1', clock, 'telegram'));
    expect(await there.list('onebot')).toEqual([request('r1', clock)]);
    const [first, second] = await Promise.all([there.take('onebot', 'r1'), here.take('onebot', 'r1')]);
    expect([first, second].filter(Boolean)).toEqual([request('r1', clock)]);
    expect(await here.take('onebot', 'r1')).toBeUndefined();
    expect(await here.take('onebot', 't1')).toBeUndefined();
    expect((await there.list('telegram')).map((entry) => entry.id)).toEqual(['t1']);

    // At most MAX_PENDING per platform: the oldest go first; and none older than a week.
    for (let index = 0; index < MAX_PENDING + 3; index++) await here.put(request(`n${index}`, clock + index));
    const waiting = await there.list('onebot');
    expect(waiting).toHaveLength(MAX_PENDING);
    expect(waiting[0]?.id).toBe('n3');
    clock += 8 * 24 * 3600_000;
    await here.put(request('late', clock));
    expect((await there.list('onebot')).map((entry) => entry.id)).toEqual(['late']);
  });
});

describe('pending requests in memory', () => {
  it('are taken once and bounded the same way', async () => {
    const store = memoryPendingRequests(() => 5);
    for (let index = 0; index < MAX_PENDING + 1; index++) await store.put(request(`m${index}`, index));
    expect(await store.list('onebot')).toHaveLength(MAX_PENDING);
    expect(await store.take('onebot', 'm0')).toBeUndefined();
    expect(await store.take('onebot', 'm1')).toMatchObject({ id: 'm1' });
    expect(await store.take('onebot', 'm1')).toBeUndefined();
  });
});
