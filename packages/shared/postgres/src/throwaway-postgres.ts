// A throwaway PostgreSQL cluster for tests and benchmarks: Debian's postgresql package (initdb, pg_ctl), a temp
// directory, a free port on 127.0.0.1, run as an unprivileged user when we are root (initdb refuses root), and
// stopped and removed by stop(). Never a system service. throwawayDatabase() gives a fresh database on a test run's
// one cluster (throwaway-global-setup.ts) or, outside such a run, on one cluster of this process.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  /** postgres://…@127.0.0.1:<port>/<database> of a fresh database. */
  readonly url: string;
  readonly port: number;
  /** postgres://…@127.0.0.1:<port>, without a database: the server's address. */
  readonly serverUrl: string;
  /** Creates another empty database and returns its URL. */
  createDatabase(name: string): string;
  /** Stops the server (immediate) and removes its directory. */
  stop(): void;
  /**
   * Stops the server as an administrator's restart does (fast: every connection cut, running transactions rolled
   * back, what was committed kept), keeping its data: a fault for tests of a database that goes away.
   * `restartServer()` starts it again. (Not immediate: with this cluster's synchronous_commit off, a crash would lose
   * the last commits the server had confirmed, which no real deployment's settings allow.)
   */
  stopServer(): void;
  /** Starts the server stopped by stopServer() again, on the same port with the same data. */
  restartServer(): void;
}

/** The bin directory of the newest installed PostgreSQL (/usr/lib/postgresql/<n>/bin), or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** The unprivileged account the cluster runs as when we are root ('nobody' exists on every Debian system). */
const RUN_AS = 'nobody';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ThrowawayOptions {
  /**
   * Loads pg_stat_statements (with planning time), for benchmarks that print which statements PostgreSQL spends its
   * time on; each database then needs `CREATE EXTENSION pg_stat_statements` to read the view.
   */
  statementStatistics?: boolean;
  /**
   * For a cluster that makes many short-lived databases (a test run's): wal_level minimal, so that CREATE DATABASE …
   * STRATEGY FILE_COPY writes no WAL for the copied files (160 ms a database against 270–300 ms, measured), and no
   * autovacuum (its launcher would visit every database, none of which lives long enough to need it).
   */
  manyDatabases?: boolean;
}

export async function startThrowawayPostgres(options: ThrowawayOptions = {}): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (its initdb and pg_ctl are used).');
  }
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'aalis-pg-'));
  const data = join(dir, 'data');
  chmodSync(dir, 0o700);
  if (root) {
    const uid = Number(execFileSync('id', ['-u', RUN_AS]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', RUN_AS]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const argv = root ? ['-u', RUN_AS, '--', join(bin, command), ...args] : args;
    execFileSync(root ? 'runuser' : join(bin, command), argv, { stdio: 'pipe', cwd: dir });
  };
  run('initdb', ['-D', data, '-U', 'aalis', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 300',
      'shared_buffers = 32MB',
      ...(options.manyDatabases ? ['wal_level = minimal', 'max_wal_senders = 0', 'autovacuum = off'] : []),
      ...(options.statementStatistics
        ? ["shared_preload_libraries = 'pg_stat_statements'", 'pg_stat_statements.track_planning = on']
        : []),
      '',
    ].join('\n'),
  );
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', `-p ${port}`, 'start']);
      break;
    } catch (error) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const base = `postgres://aalis@127.0.0.1:${port}`;
  const psql = (sql: string) =>
    execFileSync(join(bin, 'psql'), ['-X', '-q', '-d', `${base}/postgres`, '-c', sql], { stdio: 'pipe' });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test run that ends without stop() (a worker killed, a crash) must not leave a server behind: a detached
  // watchdog stops it once this process is gone.
  process.once('exit', stop);
  const pgCtl = [
    ...(root ? ['runuser', '-u', RUN_AS, '--'] : []),
    join(bin, 'pg_ctl'),
    '-D',
    data,
    '-m',
    'immediate',
    'stop',
  ];
  const watchdog = spawn(
    'sh',
    [
      '-c',
      'dir="$1"; shift; while kill -0 "$0" 2>/dev/null && [ -d "$dir" ]; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "$dir"',
      String(process.pid),
      dir,
      ...pgCtl,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  psql('CREATE DATABASE aalis');
  return {
    url: `${base}/aalis`,
    port,
    serverUrl: base,
    createDatabase(name: string) {
      psql(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      return `${base}/${name}`;
    },
    stop,
    stopServer() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    restartServer() {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', `-p ${port}`, 'start']);
    },
  };
}

/**
 * The address (postgres://…@127.0.0.1:<port>, no database) of the one cluster of a Vitest run, set by
 * throwaway-global-setup.ts for the test workers.
 */
export const SHARED_POSTGRES_ENV = 'AALIS_TEST_POSTGRES_URL';

let own: Promise<ThrowawayPostgres> | undefined;
let databases = 0;
/** The databases this process made on the run's cluster and has not dropped yet (dropMyDatabases). */
const made: string[] = [];

/** The id of the process that made a database of throwawayDatabase(), from its name (t<pid>_<n>_<random>). */
export function throwawayDatabaseOwner(name: string): number | undefined {
  const match = /^t(\d+)_\d+_[0-9a-f]+$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * A fresh empty database: on the test run's one cluster when there is one (SHARED_POSTGRES_ENV), dropped by the
 * run once this process is gone (test workers end by a signal, so not by this process); else on this process's own
 * throwaway server (started on first use, stopped when the process exits). Databases keep tests apart: tables,
 * sequences, LISTEN/NOTIFY channels and advisory locks are per database. A test that stops, restarts or kills
 * PostgreSQL itself starts a cluster of its own with startThrowawayPostgres().
 */
export async function throwawayDatabase(): Promise<string> {
  const name = `t${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`;
  const server = process.env[SHARED_POSTGRES_ENV];
  if (!server) {
    own ??= startThrowawayPostgres();
    return (await own).createDatabase(name);
  }
  // A client, not psql: a process less per database.
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" STRATEGY FILE_COPY`);
  } finally {
    await client.end();
  }
  made.push(name);
  return `${server}/${name}`;
}

/**
 * Drops the databases this process made on the run's cluster so far (FORCE: connections left open too). A test
 * worker that runs one file after another (a shared fork) calls it after each file: the run's sweeps drop only the
 * databases of ended processes, and this one lives until the run's end.
 */
export async function dropMyDatabases(): Promise<void> {
  const server = process.env[SHARED_POSTGRES_ENV];
  if (!server || made.length === 0) return;
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    for (const name of made.splice(0)) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
