import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type PostgresLease } from './open-postgres.js';
import { PostgresPreferences, type PreferencesChanged } from './postgres-preferences.js';
import { throwawayDatabase } from './throwaway-postgres.js';

const leases: PostgresLease[] = [];
const stores: PostgresPreferences[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  for (const lease of leases.splice(0)) await lease.release();
});

/** A store on `url` through its own pool (as another process would have), or a fresh database's. */
async function store(url?: string, name = 'a') {
  const base = url ?? (await throwawayDatabase());
  // A distinct URL per "process" gives each its own pool and listening connection.
  const lease = openPostgres(`${base}?application_name=${name}`);
  leases.push(lease);
  const opened = await PostgresPreferences.open(lease.database);
  stores.push(opened);
  return { url: base, store: opened, database: lease.database };
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('PostgresPreferences', () => {
  it('keeps set and removed preferences with the value each replaced, upserts and removes them', async () => {
    const { store: a } = await store();
    expect(await a.read()).toEqual([]);
    await a.write([
      { plugin: '', service: 'llm', value: 'openai/b', over: 'openai/a' },
      { plugin: '', service: 'tts', value: null, over: 'x' },
      { plugin: '@aalis/plugin-agent', service: 'llm', value: 'openai/c', over: null },
    ]);
    expect(await a.read()).toEqual([
      { plugin: '', service: 'llm', value: 'openai/b', over: 'openai/a' },
      { plugin: '', service: 'tts', value: null, over: 'x' },
      { plugin: '@aalis/plugin-agent', service: 'llm', value: 'openai/c', over: null },
    ]);
    await a.write([
      { plugin: '', service: 'llm', value: 'openai/d', over: 'openai/a' },
      { plugin: '', service: 'tts', remove: true },
    ]);
    expect(await a.read()).toEqual([
      { plugin: '', service: 'llm', value: 'openai/d', over: 'openai/a' },
      { plugin: '@aalis/plugin-agent', service: 'llm', value: 'openai/c', over: null },
    ]);
  });

  it('migrates once per database and shares the rows between processes', async () => {
    const { url, store: a, database } = await store();
    await a.write([{ plugin: '', service: 'llm', value: 'openai/b', over: null }]);
    const { store: b } = await store(url, 'b');
    expect(await b.read()).toEqual([{ plugin: '', service: 'llm', value: 'openai/b', over: null }]);
    expect(await database.schemaVersion('preferences')).toBe(1);
  });

  it('rolls a failing write back whole (nothing half-written)', async () => {
    const { store: a } = await store();
    await a.write([{ plugin: '', service: 'llm', value: 'openai/b', over: null }]);
    const bad = { plugin: '', service: null as unknown as string, value: 'x', over: null }; // NOT NULL violated
    await expect(a.write([{ plugin: '', service: 'llm', value: 'openai/z', over: null }, bad])).rejects.toThrow();
    expect(await a.read()).toEqual([{ plugin: '', service: 'llm', value: 'openai/b', over: null }]);
  });

  it('notifies the other processes with the keys written, never the writer itself', async () => {
    const { url, store: a } = await store();
    const { store: b } = await store(url, 'b');
    const seenByA: PreferencesChanged[] = [];
    const seenByB: PreferencesChanged[] = [];
    await a.onChanged((changed) => seenByA.push(changed));
    await b.onChanged((changed) => seenByB.push(changed));
    await a.write([
      { plugin: '', service: 'llm', value: 'openai/b', over: null },
      { plugin: 'p', service: 'tts', remove: true },
    ]);
    const changed = await until(() => seenByB[0], 'the notification on b');
    expect(changed).toEqual([
      { plugin: '', service: 'llm' },
      { plugin: 'p', service: 'tts' },
    ]);
    await b.write([{ plugin: '', service: 'llm', value: 'openai/c', over: null }]);
    await until(() => seenByA[0], 'the notification on a');
    expect(seenByA).toEqual([[{ plugin: '', service: 'llm' }]]);
    expect(seenByB).toHaveLength(1);
  });

  it('imports a file once: only into an empty table, never again after', async () => {
    const { url, store: a } = await store();
    const rows = [{ plugin: '', service: 'llm', value: 'openai/b', over: 'openai/a' }];
    const { store: b } = await store(url, 'b');
    // Two hosts starting together, each with its file: exactly one imports.
    const [first, second] = await Promise.all([
      a.importOnce('host-a:/data/preferences.json', rows),
      b.importOnce('host-b:/data/preferences.json', [{ plugin: '', service: 'llm', value: 'openai/x', over: null }]),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const kept = await a.read();
    expect(kept).toHaveLength(1);
    // The change is reverted (the table is empty again): a restart with the old file does not bring it back.
    await a.write([{ plugin: '', service: 'llm', remove: true }]);
    expect(await a.importOnce('host-a:/data/preferences.json', rows)).toBe(false);
    expect(await a.read()).toEqual([]);
  });

  it('says "read everything" after the listening connection was lost and made again', async () => {
    const { url, store: a, database } = await store();
    const seen: PreferencesChanged[] = [];
    await a.onChanged((changed) => seen.push(changed));
    const { database: other } = await store(url, 'b');
    // Cut a's listening connection from the server side, as a restart of PostgreSQL or a network cut would.
    await other.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'a' AND query LIKE 'LISTEN%'",
    );
    await until(() => (seen.includes('all') ? true : undefined), 'the re-read after reconnecting');
    expect(database.listening).toBe(true);
  });
});
