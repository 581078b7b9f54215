// Vitest global setup: one throwaway PostgreSQL cluster for the whole test run instead of one per test file. The
// workers find it through SHARED_POSTGRES_ENV, throwawayDatabase() makes a fresh database per call in it, and the
// databases of a worker that has ended are dropped here.
import pg from 'pg';
import {
  postgresBinDir,
  SHARED_POSTGRES_ENV,
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayDatabaseOwner,
} from './throwaway-postgres.js';

/**
 * How often the databases of ended processes are looked for. Vitest ends a file's worker with SIGTERM, which runs
 * no exit handler, so the worker cannot drop its own; the run's end removes the whole cluster anyway.
 */
const SWEEP_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops the databases of throwawayDatabase() whose process is gone (FORCE: its children's connections too). */
export async function dropEndedDatabases(serverUrl: string, stopped: () => boolean = () => false): Promise<string[]> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    const ended = rows
      .map((row) => row.datname)
      .filter((name) => {
        const owner = throwawayDatabaseOwner(name);
        return owner !== undefined && !alive(owner);
      });
    const dropped: string[] = [];
    for (const name of ended) {
      // The run is over: the cluster and its directory go as a whole.
      if (stopped()) break;
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      dropped.push(name);
    }
    return dropped;
  } finally {
    await client.end();
  }
}

/**
 * Each Vitest project naming this file runs it (all in the Vitest process): the first starts the cluster and its
 * sweeps, the others share them, and the last teardown stops both and removes the cluster's directory. A Vitest
 * process that dies without a teardown leaves nothing either: startThrowawayPostgres's watchdog stops the cluster
 * once the process is gone.
 */
interface Run {
  readonly started: Promise<{ server: ThrowawayPostgres; stopSweeping: () => Promise<void> } | undefined>;
  users: number;
}
const RUN = Symbol.for('aalis.postgres.throwaway-run');
const holder = globalThis as { [RUN]?: Run };

async function start(): Promise<{ server: ThrowawayPostgres; stopSweeping: () => Promise<void> } | undefined> {
  // Without PostgreSQL installed the files that need it say so themselves (or skip), as before.
  if (!postgresBinDir()) return undefined;
  const server = await startThrowawayPostgres({ manyDatabases: true });
  let sweeping: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    // One sweep at a time; a failed one (the server busy or stopping) is retried by the next.
    sweeping = sweeping.then(() => dropEndedDatabases(server.serverUrl, () => stopped)).catch(() => undefined);
  }, SWEEP_MS);
  timer.unref();
  return {
    server,
    // The drop under way ends; none follows (each drops and checkpoints a database the cluster's removal deletes).
    stopSweeping: async () => {
      stopped = true;
      clearInterval(timer);
      await sweeping;
    },
  };
}

export async function setup(): Promise<() => Promise<void>> {
  holder[RUN] ??= { started: start(), users: 0 };
  const run = holder[RUN];
  run.users++;
  const started = await run.started;
  if (started) process.env[SHARED_POSTGRES_ENV] = started.server.serverUrl;
  return async () => {
    if (--run.users > 0) return;
    delete holder[RUN];
    delete process.env[SHARED_POSTGRES_ENV];
    await started?.stopSweeping();
    started?.server.stop();
  };
}
