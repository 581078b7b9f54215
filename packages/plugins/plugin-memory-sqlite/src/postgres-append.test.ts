// An append on PostgreSQL is one statement (postgres-append.ts). It must count exactly as the SQLite store does
// (batches with dividers and control messages, on new and existing sessions), and appends of two processes (two pools
// on one throwaway PostgreSQL) to one session must never share a seq or lose a message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import type { Message } from '@aalis/schema-message';
import { SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryStore } from './memory-store.js';
import { PostgresMemoryStore } from './postgres-memory-store.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function postgresStore(url: string): Promise<{ store: PostgresMemoryStore; database: PostgresDatabase }> {
  const database = new PostgresDatabase(url);
  cleanups.push(() => database.close());
  return { store: await PostgresMemoryStore.open(database), database };
}

function sqliteStore(): SqliteMemoryStore {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-append-'));
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => database.close());
  return new SqliteMemoryStore(database);
}

const user = (content: string): Message => ({ role: 'user', content, timestamp: 1 }) as Message;
const divider = (content: string): Message => ({ role: 'system', kind: 'compression-divider', content }) as Message;
const stopped = (content: string): Message => ({ role: 'system', kind: 'turn-stopped', content }) as Message;

/** What a reader sees of a session, without the ids each store makes up. */
async function view(store: MemoryStore, sessionId: string) {
  const contents = (messages: Message[]) => messages.map((message) => message.content);
  return {
    all: contents(await store.readAll(sessionId)),
    active: contents(await store.read(sessionId)),
    activeWithControl: contents(await store.read(sessionId, { includeControl: true })),
    fromTwo: contents(await store.read(sessionId, { from: 2 })),
    count: await store.countHistory(sessionId),
    activeStart: await store.activeStart(sessionId),
    divider: (await store.activeDivider(sessionId))?.content,
  };
}

describe('one-statement appends on PostgreSQL', () => {
  it('count as the SQLite store does: dividers and control messages inside batches, new and existing sessions', async () => {
    const { store: postgres } = await postgresStore(await throwawayDatabase());
    const sqlite = sqliteStore();
    const batches: Message[][] = [
      [user('a1'), user('a2')],
      [user('a3'), divider('d1'), user('a4'), stopped('s1'), user('a5')],
      [stopped('s2')],
      [user('a6'), divider('d2'), divider('d3'), user('a7')],
      [user('a8'), user('a9'), user('a10')],
      [divider('d4')],
    ];
    for (const [index, batch] of batches.entries()) {
      await postgres.append('web:same', batch);
      sqlite.append('web:same', batch);
      // After every batch, and for a session whose first append is this batch.
      expect(await view(postgres, 'web:same')).toEqual(await view(sqlite, 'web:same'));
      await postgres.append(`web:first-${index}`, batch);
      sqlite.append(`web:first-${index}`, batch);
      expect(await view(postgres, `web:first-${index}`)).toEqual(await view(sqlite, `web:first-${index}`));
    }
    // A rollback (which renumbers) after one-statement appends, then more appends.
    const turn = { ...user('t1'), metadata: { turnId: 'turn-x' } } as Message;
    for (const store of [postgres, sqlite]) {
      await store.append('web:same', [turn, user('t2')]);
      await store.deleteByTurn('web:same', 'turn-x');
      await store.append('web:same', [user('after')]);
    }
    expect(await view(postgres, 'web:same')).toEqual(await view(sqlite, 'web:same'));
  });

  it('appends of two processes to one session at once never share a seq nor lose a message', async () => {
    const url = await throwawayDatabase();
    const a = await postgresStore(url);
    const b = await postgresStore(url);
    const batch = (name: string, index: number) => [user(`${name}${index}.1`), user(`${name}${index}.2`)];
    // The session's first append from both at once too (the counter row does not exist yet).
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => [
        a.store.append('web:both', batch('a', index)),
        b.store.append('web:both', batch('b', index)),
      ]).flat(),
    );
    const all = (await a.store.readAll('web:both')).map((message) => message.content);
    expect(all).toHaveLength(80);
    expect(new Set(all).size).toBe(80);
    // Each batch stays together and in order (batches of one process run on several pooled connections at once, so
    // their order among themselves is whichever committed first).
    for (let index = 0; index < all.length; index += 2) expect(all[index + 1]).toBe(all[index]!.replace('.1', '.2'));
    expect(await b.store.countHistory('web:both')).toBe(80);
    const seqs = await a.database.query<{ seq: number; conversation_index: number }>(
      "SELECT seq, conversation_index FROM memory_messages WHERE session_id = 'web:both' ORDER BY seq",
    );
    expect(seqs.map((row) => [row.seq, row.conversation_index])).toEqual(
      Array.from({ length: 80 }, (_, index) => [index, index]),
    );
  });
});
