// The throwaway PostgreSQL of the tests: one cluster per test run (the Vitest global setup), a fresh database per
// throwawayDatabase() call in it, dropped when the calling process exits; outside a run, a cluster of the process's
// own, stopped when it exits.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresDatabase } from './postgres-database.js';
import { dropEndedDatabases, setup } from './throwaway-global-setup.js';
import {
  postgresBinDir,
  SHARED_POSTGRES_ENV,
  startThrowawayPostgres,
  throwawayDatabase,
} from './throwaway-postgres.js';

const opened: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});
const open = (url: string) => {
  const database = new PostgresDatabase(url);
  opened.push(database);
  return database;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const serverOf = (url: string) => url.slice(0, url.lastIndexOf('/'));

/** Runs a script in a child Node process (sources through tsx), its env changed by `env`; returns its stdout. */
function child(script: string, env: Record<string, string | undefined> = {}): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: import.meta.dirname,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) throw new Error(`child failed (${run.status ?? run.signal}): ${run.stderr}`);
  return run.stdout.trim();
}
const CREATE_ONE = `import { throwawayDatabase } from './throwaway-postgres.ts'; console.log(await throwawayDatabase());`;

/** The cluster's directory, as the server reports it (its data directory's parent). */
async function clusterDirectory(server: string): Promise<string> {
  const [row] = await open(`${server}/postgres`).query<{ setting: string }>(
    "SELECT setting FROM pg_settings WHERE name = 'data_directory'",
  );
  return join(row!.setting, '..');
}

async function databaseNames(server: string): Promise<string[]> {
  const rows = await open(`${server}/postgres`).query<{ datname: string }>('SELECT datname FROM pg_database');
  return rows.map((row) => row.datname);
}

describe.runIf(postgresBinDir())('throwaway PostgreSQL', () => {
  it("gives each call a fresh database on the run's one cluster, apart in tables and notifications", async () => {
    const shared = process.env[SHARED_POSTGRES_ENV];
    expect(shared).toMatch(/^postgres:\/\/aalis@127\.0\.0\.1:\d+$/);
    const [one, two] = [await throwawayDatabase(), await throwawayDatabase()];
    expect(serverOf(one)).toBe(shared);
    expect(serverOf(two)).toBe(shared);
    expect(one).not.toBe(two);

    const a = open(one);
    const b = open(two);
    await a.query('CREATE TABLE notes (id SERIAL PRIMARY KEY)');
    await expect(b.query('SELECT * FROM notes')).rejects.toThrow(/notes/);
    const heard: string[] = [];
    await b.listen('aalis_apart', (payload) => heard.push(`b:${payload}`));
    await a.listen('aalis_apart', (payload) => heard.push(`a:${payload}`));
    await a.notify('aalis_apart', 'hello');
    for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(20);
    await sleep(100); // time for a stray delivery to b to arrive too
    expect(heard).toEqual(['a:hello']);
    // The run's cluster writes no WAL for a new database's files and runs no autovacuum (it makes hundreds of them).
    expect(await a.query('SHOW wal_level')).toEqual([{ wal_level: 'minimal' }]);
    expect(await a.query('SHOW autovacuum')).toEqual([{ autovacuum: 'off' }]);
  });

  it("drops a process's databases once it has ended, and no other", async () => {
    // On a cluster without the run's sweeps, so that only this call can have dropped them.
    const cluster = await startThrowawayPostgres();
    try {
      const ended = child(CREATE_ONE, { [SHARED_POSTGRES_ENV]: cluster.serverUrl });
      expect(serverOf(ended)).toBe(cluster.serverUrl);
      const endedName = ended.slice(cluster.serverUrl.length + 1);
      const mine = `t${process.pid}_1_abcdef`;
      cluster.createDatabase(mine);
      expect(await databaseNames(cluster.serverUrl)).toEqual(expect.arrayContaining([endedName, mine]));
      expect(await dropEndedDatabases(cluster.serverUrl)).toEqual([endedName]);
      const names = await databaseNames(cluster.serverUrl);
      expect(names).not.toContain(endedName);
      // This process is alive: its databases stay, and so do those not made by throwawayDatabase().
      expect(names).toEqual(expect.arrayContaining([mine, 'aalis', 'postgres']));
    } finally {
      for (const database of opened.splice(0)) await database.close();
      cluster.stop();
    }
  }, 60_000);

  it("the run's sweeps drop an ended process's databases by themselves", async () => {
    const url = child(CREATE_ONE);
    const server = serverOf(url);
    const name = url.slice(server.length + 1);
    for (let i = 0; i < 200 && (await databaseNames(server)).includes(name); i++) await sleep(100);
    expect(await databaseNames(server)).not.toContain(name);
  });

  it('outside a test run, starts a cluster of its own and stops it when the process exits', async () => {
    const url = child(CREATE_ONE, { [SHARED_POSTGRES_ENV]: undefined });
    expect(serverOf(url)).not.toBe(process.env[SHARED_POSTGRES_ENV]);
    const unreachable = new PostgresDatabase(url);
    await expect(unreachable.query('SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await unreachable.close();
  });

  it('the global setup starts one cluster for every project naming it and stops it after the last teardown', async () => {
    const before = process.env[SHARED_POSTGRES_ENV];
    try {
      const first = await setup();
      const server = process.env[SHARED_POSTGRES_ENV]!;
      expect(server).not.toBe(before);
      const dir = await clusterDirectory(server);
      const second = await setup();
      expect(process.env[SHARED_POSTGRES_ENV]).toBe(server);
      const probe = open(`${server}/postgres`);
      await first();
      expect(await probe.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await second();
      expect(process.env[SHARED_POSTGRES_ENV]).toBeUndefined();
      await expect(probe.query('SELECT 1')).rejects.toThrow();
      expect(existsSync(dir)).toBe(false);
    } finally {
      process.env[SHARED_POSTGRES_ENV] = before;
    }
  }, 60_000);
});
