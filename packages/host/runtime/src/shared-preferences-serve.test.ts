// Run-time service preferences are the deployment's. Two `serve` hosts (each its own workspace and data directory, each
// its own pool) on one throwaway PostgreSQL; an owner's WebUI client on each (a real WebSocket): a preference set
// through the session protocol on A is in effect on B without restart (its admin push, its listing, its next model
// call) and after restarting both; a host's preferences.json is imported once; SQLite keeps the file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { type AdminFrame, SessionClient, type WebSocketLike } from '@aalis/session-client';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe } from './multi-process-serve.case.js';
import { PersistedPreferences } from './persisted-preferences.js';
import { waitFor } from './spawn-aalis.case.js';
import { type RunningAalis, startAalis } from './start-aalis.js';

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model', 'other-model'] });
});
afterAll(() => model.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  model.reset();
});

function workspace(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `aalis-prefs-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // apiKey tells the model server's request log which host called it.
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
consoleLogLevel: off
llm: { baseUrl: ${model.url}, model: test-model, apiKey: key-${name} }
webui: { port: 0 }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, models: [{ id: other-model }] }
  memory-summary: false
  storage: { leaseTtlMs: 1000 }
`,
  );
  return dir;
}

interface Host {
  aalis: RunningAalis;
  client: SessionClient;
  admin: AdminFrame[];
  stop(): Promise<void>;
}

/** Starts `serve` in `dir` (on `database`, or SQLite when undefined) and logs an owner's client in. */
async function host(dir: string, database: string | undefined, name: string): Promise<Host> {
  // A URL of its own per host: its own pool and listening connection, as on another machine.
  const env: Record<string, string> = database ? { AALIS_DATABASE_URL: `${database}?application_name=${name}` } : {};
  const aalis = await startAalis({ cwd: dir, env, mode: 'serve', banner: false });
  let stopped = false;
  const base = aalis.webui!.url()!;
  const token = new URL(aalis.webui!.loginLink()!).searchParams.get('token')!;
  const response = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ token }),
  });
  expect(response.ok).toBe(true);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const client = new SessionClient({
    baseUrl: base,
    headers: { cookie },
    reconnectDelayMs: { min: 20, max: 200 },
    requestTimeoutMs: 10_000,
    createSocket: (url) => new WebSocket(url, { headers: { cookie, origin: base } }) as unknown as WebSocketLike,
  });
  const admin: AdminFrame[] = [];
  client.on('admin', (frame) => void admin.push(frame));
  await client.connect();
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    client.close();
    await aalis.stop();
  };
  cleanups.push(stop);
  return { aalis, client, admin, stop };
}

const until = (check: () => boolean | Promise<boolean>, what: string) => waitFor(check, { what, timeoutMs: 15_000 });
const globalLlm = async (on: Host) => (await on.client.request('admin.preferences.get', {})).preferences.global.llm;

describe('service preferences shared by every process of one PostgreSQL', () => {
  it('a preference set on A is in effect on B at once (admin push, listing, next model call) and after restarting both', async () => {
    const database = await throwawayDatabase();
    const dirA = workspace('a');
    const dirB = workspace('b');
    const a = await host(dirA, database, 'a');
    const b = await host(dirB, database, 'b');
    expect(await globalLlm(b)).toBe('openai/test-model');

    await a.client.request('admin.preferences.set', { service: 'llm', value: 'openai/other-model' });
    // B's owner clients are told as for a change made on B.
    await until(
      () =>
        b.admin.some(
          (frame) => frame.change === 'preferences' && frame.preferences.global.llm === 'openai/other-model',
        ),
      'the admin push on B',
    );
    expect(await globalLlm(b)).toBe('openai/other-model');
    const pushed = b.admin.findLast((frame) => frame.change === 'preferences');
    expect(pushed?.change === 'preferences' && pushed.preferences.defaultModel?.id).toBe('openai/other-model');

    // B's next turn calls the model the preference names.
    model.enqueue(textReply('answered with the other model'));
    const { session } = await b.client.request('session.create', { title: 'on B' });
    await b.client.send({ sessionId: session.id, text: 'which model?' });
    await until(() => model.chatBodies().length >= 1, 'the model call');
    expect(model.chatBodies()[0]!.model).toBe('other-model');
    const call = model.requests.find((request) => request.path === '/v1/chat/completions');
    expect(call?.headers.authorization).toBe('Bearer key-b');

    // Both restarted: the change is the deployment's, not one process's memory.
    await a.stop();
    await b.stop();
    const b2 = await host(dirB, database, 'b2');
    const a2 = await host(dirA, database, 'a2');
    expect(await globalLlm(b2)).toBe('openai/other-model');
    expect(await globalLlm(a2)).toBe('openai/other-model');
    // Neither data directory got a preferences.json: PostgreSQL holds them.
    expect(existsSync(join(dirA, 'data', 'preferences.json'))).toBe(false);
    expect(existsSync(join(dirB, 'data', 'preferences.json'))).toBe(false);

    // Removed on B (no global llm preference: the provider's priority decides): A follows.
    await b2.client.request('admin.preferences.set', { service: 'llm', value: null });
    await until(async () => (await globalLlm(a2)) === undefined, 'the removal on A');
  }, 60_000);

  it('a host moving to PostgreSQL brings its preferences.json once; SQLite keeps the file', async () => {
    const dir = workspace('sqlite');
    const sqlite = await host(dir, undefined, 'sqlite');
    await sqlite.client.request('admin.preferences.set', { service: 'llm', value: 'openai/other-model' });
    await sqlite.stop();
    const file = join(dir, 'data', 'preferences.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).global.llm).toEqual({
      value: 'openai/other-model',
      over: 'openai/test-model',
    });

    // The same host, now on PostgreSQL: the file's change is imported, and the log says so.
    const database = await throwawayDatabase();
    const moved = await host(dir, database, 'moved');
    expect(await globalLlm(moved)).toBe('openai/other-model');
    const logs = readFileSync(join(dir, 'data', 'logs', 'aalis.log'), 'utf8');
    expect(logs).toContain('imported 1 run-time service preference change(s)');
    // Another host with its own old file joining later does not override the deployment's preferences.
    const other = workspace('other');
    mkdirSync(join(other, 'data'), { recursive: true });
    new PersistedPreferences(join(other, 'data', 'preferences.json'), {
      global: { llm: 'openai/test-model' },
      plugins: {},
    }).record({ global: { llm: 'openai/test-model', tts: 'voice/x' }, plugins: {} });
    const joined = await host(other, database, 'other');
    const listed = (await joined.client.request('admin.preferences.get', {})).preferences;
    expect(listed.global).toEqual({ llm: 'openai/other-model' });
  }, 60_000);

  it('a database that cannot be used stops the start with the storage code, its password not shown', async () => {
    const dir = workspace('down');
    const start = startAalis({
      cwd: dir,
      env: { AALIS_DATABASE_URL: 'postgres://aalis:hunter2-secret@127.0.0.1:1/aalis' },
      mode: 'serve',
      banner: false,
    });
    const error = (await start.catch((caught: unknown) => caught)) as Error & { code?: string };
    expect(error.code).toBe('AALIS_STORAGE_DATABASE_UNREACHABLE');
    expect(error.message).toContain('postgres://aalis:***@127.0.0.1:1/aalis');
    expect(error.message).not.toContain('hunter2-secret');
  });

  it('two spawned `aalis serve` (the database in plugins.storage.database): a change on A is listed on B at once', async () => {
    const database = await throwawayDatabase();
    const config = (name: string) => `locale: en
consoleLogLevel: off
llm: { baseUrl: ${model.url}, model: test-model, apiKey: key-${name} }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, models: [{ id: other-model }] }
  memory-summary: false
  storage: { leaseTtlMs: 1000, database: "${database}" }
`;
    const a = await startServe({ name: 'a', config: config('a'), env: {} });
    cleanups.push(async () => {
      await a.stop();
      a.removeWorkspace();
    });
    const b = await startServe({ name: 'b', config: config('b'), env: {} });
    cleanups.push(async () => {
      await b.stop();
      b.removeWorkspace();
    });
    const listed = async (on: typeof a) =>
      (await on.client.request('admin.preferences.get', {})).preferences.plugins['@aalis/plugin-agent']?.llm;
    await a.client.request('admin.preferences.set', {
      plugin: '@aalis/plugin-agent',
      service: 'llm',
      value: 'openai/other-model',
    });
    await until(async () => (await listed(b)) === 'openai/other-model', "B listing A's change");
  }, 120_000);
});
