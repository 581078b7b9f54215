// The session manager keeps copies of session rows on PostgreSQL (a turn asked the store for its session a dozen
// times); another process's update, recorded turn or deletion is seen through the store's change notices. Two managers
// on two pools of one throwaway PostgreSQL stand for two processes. On SQLite every read goes to the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@aalis/core';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionManager } from './session-manager.js';
import type { SessionStore } from './session-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet: Logger = {
  name: 'test',
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  enabled: () => false,
  child: () => quiet,
};

/** A manager over `store`, counting the rows and children lists it asks the store for. */
async function managerOn(store: SessionStore) {
  const reads = { count: 0 };
  const get = store.get.bind(store);
  const children = store.children.bind(store);
  store.get = (id) => {
    reads.count++;
    return get(id);
  };
  store.children = (id) => {
    reads.count++;
    return children(id);
  };
  const manager = new SessionManager({
    store,
    events: { emit: () => {}, emitAsync: async () => {} },
    logger: quiet,
    agent: () => undefined,
    memory: () => undefined,
  });
  cleanups.push(await manager.watchOtherProcesses());
  return { manager, reads };
}

async function postgresProcess(url: string) {
  const database = new PostgresDatabase(url);
  cleanups.push(() => database.close());
  return { database, ...(await managerOn(await PostgresSessionStore.open(database))) };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('copies of session rows on PostgreSQL', () => {
  it('a turn reads its session once: later gets and rootOf answer from the copy', async () => {
    const a = await postgresProcess(await throwawayDatabase());
    await a.manager.ensure({ id: 'web:root', kind: 'web', platform: 'webui', title: 'root' });
    await a.manager.ensure({ id: 'web:child', kind: 'child', platform: 'webui', parentId: 'web:root' });
    const before = a.reads.count;
    for (let index = 0; index < 5; index++) {
      expect((await a.manager.get('web:child'))?.parentId).toBe('web:root');
      expect((await a.manager.rootOf('web:child'))?.title).toBe('root');
    }
    expect(a.reads.count - before).toBe(0);
    // A caller changing what it got does not change the copy.
    const got = (await a.manager.get('web:root'))!;
    got.title = 'changed by a caller';
    expect((await a.manager.get('web:root'))?.title).toBe('root');
  });

  it("another process's update, recorded turn and deletion are seen by a process holding the row", async () => {
    const url = await throwawayDatabase();
    const a = await postgresProcess(url);
    const b = await postgresProcess(url);
    await a.manager.ensure({ id: 'web:s1', kind: 'web', platform: 'webui', title: 'first' });
    expect((await a.manager.get('web:s1'))?.title).toBe('first');
    expect((await b.manager.get('web:s1'))?.title).toBe('first');

    await b.manager.update('web:s1', { title: 'second' });
    await until(async () => (await a.manager.get('web:s1'))?.title === 'second', "B's title on A");

    await b.manager.recordTurn('web:s1', { turnId: 't1', outcome: 'replied', at: 1 });
    await until(async () => (await a.manager.get('web:s1'))?.lastTurn?.turnId === 't1', "B's last turn on A");
    // The recorded turn changed only its columns: B's title stayed.
    expect((await a.manager.get('web:s1'))?.title).toBe('second');

    await b.manager.deleteSession('web:s1');
    await until(async () => (await a.manager.get('web:s1')) === undefined, "B's deletion on A");
    await until(async () => (await a.manager.rootOf('web:s1')) === undefined, "B's deletion on A's rootOf");
  });

  it("children lists are kept too: another process's new child, its title and its deletion are seen", async () => {
    const url = await throwawayDatabase();
    const a = await postgresProcess(url);
    const b = await postgresProcess(url);
    await a.manager.ensure({ id: 'web:parent', kind: 'web', platform: 'webui' });
    await a.manager.ensure({ id: 'web:c1', kind: 'child', platform: 'webui', parentId: 'web:parent' });
    const titles = async () => (await a.manager.children('web:parent')).map((child) => child.title ?? child.id);
    expect(await titles()).toEqual(['web:c1']);
    const before = a.reads.count;
    expect(await titles()).toEqual(['web:c1']);
    expect(a.reads.count).toBe(before);

    await b.manager.ensure({ id: 'web:c2', kind: 'child', platform: 'webui', parentId: 'web:parent' });
    await until(async () => (await titles()).join() === 'web:c1,web:c2', "B's child in A's list");
    await b.manager.update('web:c2', { title: 'second child' });
    await until(async () => (await titles()).join() === 'web:c1,second child', "B's child title in A's list");
    await b.manager.deleteSession('web:c1');
    await until(async () => (await titles()).join() === 'second child', "B's deletion in A's list");
    // A change of the parent's own row leaves its children list held (only the row is read again).
    expect(await titles()).toEqual(['second child']);
    await b.manager.recordTurn('web:parent', { turnId: 't3', outcome: 'replied', at: 3 });
    await until(async () => (await a.manager.get('web:parent'))?.lastTurn?.turnId === 't3', "B's turn on A");
    const held = a.reads.count;
    expect(await titles()).toEqual(['second child']);
    expect(a.reads.count).toBe(held);
    // A's own child appears in its list at once.
    await a.manager.ensure({ id: 'web:c3', kind: 'child', platform: 'webui', parentId: 'web:parent' });
    expect(await titles()).toEqual(['second child', 'web:c3']);
  });

  it('a title and a recorded turn written by two processes at once both stay', async () => {
    const url = await throwawayDatabase();
    const a = await postgresProcess(url);
    const b = await postgresProcess(url);
    // Ten sessions: with a read-and-write-back of whole rows, some write would land between the other's two.
    const ids = Array.from({ length: 10 }, (_, index) => `web:s2-${index}`);
    for (const id of ids) {
      await a.manager.ensure({ id, kind: 'web', platform: 'webui' });
      await b.manager.get(id);
    }
    await Promise.all(
      ids.flatMap((id) => [
        a.manager.recordTurn(id, { turnId: 't9', outcome: 'replied', at: 9 }),
        b.manager.update(id, { title: 'named' }),
      ]),
    );
    for (const process of [a, b]) {
      for (const id of ids) {
        await until(async () => {
          const row = await process.manager.get(id);
          return row?.title === 'named' && row.lastTurn?.turnId === 't9';
        }, `both writes of ${id} on each process`);
      }
    }
  });

  it('while the notices cannot arrive (listening connection cut) every read goes to the store', async () => {
    const url = await throwawayDatabase();
    const a = await postgresProcess(url);
    const b = await postgresProcess(url);
    await a.manager.ensure({ id: 'web:s3', kind: 'web', platform: 'webui', title: 'before' });
    expect((await a.manager.get('web:s3'))?.title).toBe('before');
    // Every listening connection of the database goes (the pools' connections never LISTEN).
    const killer = new PostgresDatabase(url);
    cleanups.push(() => killer.close());
    await killer.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    );
    await until(async () => !a.database.listening, 'A noticing its listening connection is gone');
    await b.manager.update('web:s3', { title: 'during the outage' });
    // No waiting: the change notice may never come, so the copy is not used.
    expect((await a.manager.get('web:s3'))?.title).toBe('during the outage');
    // Listening again, the copies are used again and kept current again.
    await until(async () => a.database.listening && b.database.listening, 'both listening again');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await a.manager.get('web:s3');
    await b.manager.update('web:s3', { title: 'after' });
    await until(async () => (await a.manager.get('web:s3'))?.title === 'after', "B's title on A after reconnecting");
  });
});

describe('session rows on SQLite', () => {
  it('two processes on one data directory see each other’s writes at once (rows are not kept)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-session-rows-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const open = () => {
      const database = new SqliteDatabase(join(dir, 'aalis.db'));
      cleanups.push(() => database.close());
      return managerOn(new SqliteSessionStore(database));
    };
    const a = await open();
    const b = await open();
    await a.manager.ensure({ id: 'web:s4', kind: 'web', platform: 'webui', title: 'first' });
    expect((await b.manager.get('web:s4'))?.title).toBe('first');
    await b.manager.update('web:s4', { title: 'second' });
    expect((await a.manager.get('web:s4'))?.title).toBe('second');
    await b.manager.recordTurn('web:s4', { turnId: 't2', outcome: 'replied', at: 2 });
    expect((await a.manager.get('web:s4'))?.lastTurn?.turnId).toBe('t2');
  });
});
