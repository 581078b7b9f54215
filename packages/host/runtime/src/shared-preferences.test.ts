// SharedPreferences on a throwaway PostgreSQL, each "process" a real App with the host plugin and its own pool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type LogRecord, type PreferenceSnapshot } from '@aalis/core';
import { openPostgres, PREFERENCES_CHANNEL } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostPlugin } from './host-plugin.js';
import { PersistedPreferences } from './persisted-preferences.js';
import { SharedPreferences } from './shared-preferences.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const BASELINE: PreferenceSnapshot = { global: { llm: 'openai/a' }, plugins: {} };

/** One process: SharedPreferences opened before the App, the App built with its preferences, the host plugin on. */
async function startProcess(url: string, name: string, options: { baseline?: PreferenceSnapshot; file?: string } = {}) {
  const baseline = options.baseline ?? BASELINE;
  const shared = await SharedPreferences.open({
    url: `${url}?application_name=${name}`,
    baseline,
    ...(options.file
      ? { file: { path: options.file, preferences: new PersistedPreferences(options.file, baseline) } }
      : {}),
  });
  const logs: LogRecord[] = [];
  const app = new App({
    logSinks: [{ level: 'trace', write: (record) => logs.push(record) }],
    preferences: shared.initial,
  });
  app.plugin(createHostPlugin({ app, preferences: shared }));
  await app.start();
  await app.settled();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.stop();
    await shared.close();
  };
  cleanups.push(stop);
  return { app, logs, stop, initial: shared.initial };
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Counts the notifications on the preferences channel (every write sends one). */
async function countWrites(url: string) {
  const lease = openPostgres(`${url}?application_name=observer`);
  const seen: string[] = [];
  const stop = await lease.database.listen(PREFERENCES_CHANNEL, (payload) => seen.push(payload));
  cleanups.push(async () => {
    stop();
    await lease.release();
  });
  return { seen, database: lease.database };
}

describe('SharedPreferences', () => {
  it('a change on one process is in effect on the other without restart, written once (no echo)', async () => {
    const url = await throwawayDatabase();
    const writes = await countWrites(url);
    const a = await startProcess(url, 'a');
    const b = await startProcess(url, 'b');
    const changes: PreferenceSnapshot[] = [];
    b.app.events.on('preferences:changed', (snapshot) => void changes.push(snapshot));

    a.app.services.setGlobalPreference('llm', 'openai/b');
    a.app.services.setPluginPreference('@aalis/plugin-agent', 'tts', 'voice/x');
    await until(() => b.app.services.preferences().plugins['@aalis/plugin-agent']?.tts === 'voice/x', 'b applying');
    expect(b.app.services.preferences()).toEqual({
      global: { llm: 'openai/b' },
      plugins: { '@aalis/plugin-agent': { tts: 'voice/x' } },
    });
    // b's own listeners (the session server's admin push) saw the change as they see a local one.
    expect(changes.at(-1)?.global.llm).toBe('openai/b');
    // Removed on b: a follows.
    b.app.services.setGlobalPreference('llm', undefined);
    await until(() => a.app.services.preferences().global.llm === undefined, 'a applying the removal');
    // Three changes, three writes: applying another process's change wrote nothing back.
    await until(() => writes.seen.length >= 3, 'three writes');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes.seen).toHaveLength(3);
  });

  it('the changes survive restarting every process; a changed configuration wins over them', async () => {
    const url = await throwawayDatabase();
    const a = await startProcess(url, 'a');
    a.app.services.setGlobalPreference('llm', 'openai/b');
    a.app.services.setGlobalPreference('tts', 'voice/y');
    await a.stop(); // waits for the writes
    const again = await startProcess(url, 'a2');
    expect(again.initial).toEqual({ global: { llm: 'openai/b', tts: 'voice/y' }, plugins: {} });
    // Another configuration (llm edited in the file): the file's llm wins, the tts change still applies.
    const edited = await startProcess(url, 'a3', { baseline: { global: { llm: 'openai/z' }, plugins: {} } });
    expect(edited.initial).toEqual({ global: { llm: 'openai/z', tts: 'voice/y' }, plugins: {} });
    // Setting a preference back to its configured value removes the stored change.
    again.app.services.setGlobalPreference('tts', undefined);
    await again.stop();
    const [row] = await writesOf(url);
    expect(row).toEqual({ plugin: '', service: 'llm', value: 'openai/b', over: 'openai/a' });
  });

  it('imports a host file once into an empty table, says so in the log, and never again', async () => {
    const url = await throwawayDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'aalis-prefs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'preferences.json');
    new PersistedPreferences(file, BASELINE).record({ global: { llm: 'openai/from-file' }, plugins: {} });

    const a = await startProcess(url, 'a', { file });
    expect(a.initial.global.llm).toBe('openai/from-file');
    expect(a.logs.find((record) => record.message.startsWith('imported 1 run-time service preference'))).toBeDefined();
    // The deployment reverts the change; a restart with the same file does not bring it back.
    a.app.services.setGlobalPreference('llm', 'openai/a');
    await a.stop();
    const again = await startProcess(url, 'a2', { file });
    expect(again.initial.global.llm).toBe('openai/a');
    expect(again.logs.find((record) => record.message.includes('was not imported'))).toBeDefined();
  });

  it('a failed write is logged with a code and the change stays applied locally', async () => {
    const url = await throwawayDatabase();
    const a = await startProcess(url, 'a');
    const { database } = await countWrites(url);
    await database.query('ALTER TABLE aalis_preferences RENAME TO aalis_preferences_gone');
    a.app.services.setGlobalPreference('llm', 'openai/b');
    const line = await until(
      () => a.logs.find((record) => record.fields?.code === 'AALIS_RUNTIME_PREFERENCES_NOT_SHARED'),
      'the coded log line',
    );
    expect(line.level).toBe('warn');
    expect(line.fields?.keys).toBe('llm');
    expect(a.app.services.preferences().global.llm).toBe('openai/b');
    await database.query('ALTER TABLE aalis_preferences_gone RENAME TO aalis_preferences');
  });

  it('a database that cannot be used at start fails with the storage code, without its password', async () => {
    const start = SharedPreferences.open({
      url: 'postgres://aalis:hunter2-secret@127.0.0.1:1/aalis',
      baseline: BASELINE,
    });
    await expect(start).rejects.toMatchObject({ code: 'AALIS_STORAGE_DATABASE_UNREACHABLE' });
    const error = await start.catch((caught: Error) => caught);
    expect(String((error as Error).message)).not.toContain('hunter2-secret');
  });
});

async function writesOf(url: string) {
  const lease = openPostgres(`${url}?application_name=reader`);
  try {
    return await lease.database.query('SELECT plugin, service, value, over FROM aalis_preferences ORDER BY service');
  } finally {
    await lease.release();
  }
}
