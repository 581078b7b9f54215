// `npm run bench scale`: turns per second of one `aalis serve` process against three on one PostgreSQL, the same
// closed-loop workload through each: SCALE_SESSIONS sessions (default 100) each running SCALE_TURNS turns (default 4,
// after one warm-up turn) one after the other, every message sent through the session protocol to a random process (or,
// `3-sticky`, a session always to one process); odd turns call a tool (two model calls), even ones answer at once;
// every model response takes SCALE_MODEL_MS (default 50 ms). The model server runs in a process of its own (this file
// with `model-server`), so its CPU is charged to no aalis process. SCALE_ROUNDS rounds (default 3) in alternating
// order. Printed per run and as medians: turns per second, the ratio to one process, p50/p99 latency (send → the turn's
// last model response ended), CPU per component (the aalis processes, PostgreSQL and its backends, the model server,
// this client; also per turn, which the machine's other load moves less than turns per second), how long the aalis main
// threads waited for a CPU, PostgreSQL transactions, statements and per-table work per turn (pg_stat_database,
// pg_stat_statements, pg_stat_user_tables) and busy connections.
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PostgresDatabase } from '@aalis/postgres';
import { startThrowawayPostgres } from '@aalis/postgres/throwaway';
import { startOpenAiTestServer, textReply } from '@aalis/testing';
import { opensToolTurn, scriptTurns, tagsOf } from '../src/multi-process.case.js';
import { type ServeProcess, serveConfig, startServe } from '../src/multi-process-serve.case.js';
import { formatStatements, resetStatements, type StatementFigures, statementFigures } from './scale-statements.js';

const SESSIONS = Number(process.env.SCALE_SESSIONS ?? 100);
const TURNS = Number(process.env.SCALE_TURNS ?? 4);
const MODEL_MS = Number(process.env.SCALE_MODEL_MS ?? 50);
const TICKS_PER_SECOND = 100;
const TURN_TIMEOUT_MS = 20_000;
const REPEATS = Number(process.env.SCALE_ROUNDS ?? 3);
/** SCALE_SETUPS: comma-separated `<processes>` or `<processes>-sticky`; default 1, 3 (random) and 3-sticky. */
const SETUPS: Setup[] = (process.env.SCALE_SETUPS ?? '1,3,3-sticky').split(',').map((entry) => ({
  processes: Number(entry.split('-')[0]),
  routing: entry.endsWith('-sticky') ? 'sticky' : 'random',
}));

type FromModel = { url: string } | { done: string; at: number } | { cpuMs: number };

/** The child: the scripted test server, reporting each turn's last response and its own CPU to the parent. */
async function modelServer(delayMs: number): Promise<void> {
  const server = await startOpenAiTestServer({ models: ['test-model'] });
  const send = (message: FromModel) => process.send!(message);
  // Checked first for every call and never matching: notes the turn's last call as it arrives and reports its end.
  server.enqueueWhen((body) => {
    const request = server.requests.at(-1);
    const tag = tagsOf(body).at(-1);
    if (request?.body === body && tag && !opensToolTurn(body)) {
      void request.closed.then(() => {
        if (!request.abortedByClient) send({ done: tag, at: Date.now() });
      });
    }
    // Only open calls' bodies are needed; the log would otherwise keep every history ever sent.
    setImmediate(() => {
      if (request) request.body = undefined;
    });
    return false;
  }, textReply('never'));
  scriptTurns(server, { delayMs, turns: 20 * SESSIONS * (TURNS + 1) });
  let since = process.cpuUsage();
  process.on('message', (message) => {
    if (message === 'cpu') {
      const used = process.cpuUsage(since);
      since = process.cpuUsage();
      send({ cpuMs: (used.user + used.system) / 1000 });
    } else if (message === 'stop') {
      void server.close().then(() => process.exit(0));
    }
  });
  send({ url: server.url });
}

/** CPU seconds a process (and, for PostgreSQL, its backends) used so far, from /proc. */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Seconds the process's main thread (where Node runs JavaScript) was ready to run but waited for a CPU. */
function runQueueSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
  } catch {
    return 0;
  }
}

/** The postmaster listening on `port` and every process it started (backends, writer, WAL, …). */
function postgresPids(port: number): number[] {
  const parents = new Map<number, number>();
  let postmaster: number | undefined;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (/\/postgres /.test(cmdline) && cmdline.includes(`-p ${port}`)) postmaster = pid;
      parents.set(pid, Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // gone
    }
  }
  if (postmaster === undefined) return [];
  return [postmaster, ...[...parents].filter(([, parent]) => parent === postmaster).map(([pid]) => pid)];
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface RunResult {
  processes: number;
  routing: Setup['routing'];
  turns: number;
  /** PostgreSQL transactions (statements outside one count as one) committed while measuring. */
  transactions: number;
  busyConnections: number;
  /** Rows written and scans per table while measuring. */
  tables: Array<{ name: string; writes: number; scans: number }>;
  statements: StatementFigures;
  seconds: number;
  latencies: number[];
  /** CPU seconds per component; `waited`: seconds each aalis main thread was runnable but not running. */
  cpu: { aalis: number[]; waited: number[]; postgres: number; model: number; client: number };
}

class Model {
  private readonly waiting = new Map<string, (at: number) => void>();
  private cpuWaiter: ((ms: number) => void) | undefined;
  constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (message: FromModel) => {
      if ('done' in message) {
        this.waiting.get(message.done)?.(message.at);
        this.waiting.delete(message.done);
      } else if ('cpuMs' in message) {
        this.cpuWaiter?.(message.cpuMs);
      }
    });
  }
  static start(): Promise<Model> {
    const child = fork(fileURLToPath(import.meta.url), ['model-server', String(MODEL_MS)], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
    });
    return new Promise((resolve, reject) => {
      child.once('message', (message: FromModel) => {
        if ('url' in message) resolve(new Model(child, message.url));
      });
      child.once('exit', (code) => reject(new Error(`the model server exited (${code})`)));
    });
  }
  turnEnded(tag: string): Promise<number> {
    return new Promise((resolve) => this.waiting.set(tag, resolve));
  }
  cpuMs(): Promise<number> {
    return new Promise((resolve) => {
      this.cpuWaiter = resolve;
      this.child.send('cpu');
    });
  }
}

interface Setup {
  processes: number;
  /** Random: every message to a random process; sticky: a session's messages always to one process. */
  routing: 'random' | 'sticky';
}

async function run(setup: Setup, databaseUrl: string, model: Model, postgresPort: number): Promise<RunResult> {
  const processCount = setup.processes;
  const names = Array.from({ length: processCount }, (_, index) => `p${index + 1}`);
  const serves: ServeProcess[] = await Promise.all(
    names.map((name) =>
      startServe({
        name,
        config: serveConfig({ modelUrl: model.url, apiKey: `key-${name}`, leaseTtlMs: 4000 }),
        // SCALE_NODE_OPTIONS: NODE_OPTIONS of every aalis process (e.g. `--require <a profiler preload>`).
        env: {
          AALIS_DATABASE_URL: databaseUrl,
          ...(process.env.SCALE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SCALE_NODE_OPTIONS } : {}),
        },
        startTimeoutMs: 120_000,
      }),
    ),
  );
  try {
    const sessionIds: string[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      const { session } = await serves[0]!.client.request('session.create', { title: `s${index + 1}` });
      sessionIds.push(session.id);
    }
    let seed = 16;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const unanswered: string[] = [];
    // The latency of one turn, or undefined when its answer never came (counted and printed, not waited for).
    const turn = async (index: number, round: number): Promise<number | undefined> => {
      const pick = setup.routing === 'sticky' ? index : Math.floor(random() * serves.length);
      const target = serves[pick % serves.length]!;
      const tag = `[s${index + 1} ${target.name} m${round}]`;
      const ended = model.turnEnded(tag);
      const sentAt = Date.now();
      await target.client.send({ sessionId: sessionIds[index]!, text: `hello ${tag}` });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const at = await Promise.race([
        ended,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), TURN_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (at === undefined) unanswered.push(tag);
      return at === undefined ? undefined : at - sentAt;
    };
    // Warm-up (not measured): every session's first turn (its process picked as for the measured ones), so history
    // copies, leases and connections exist.
    await Promise.all(sessionIds.map((_, index) => turn(index, 1)));

    const pids = serves.map((serve) => serve.process.child.pid!);
    const pg = postgresPids(postgresPort);
    const before = {
      waited: pids.map((pid) => runQueueSeconds(pid)),
      aalis: pids.map((pid) => cpuSeconds([pid])),
      postgres: cpuSeconds(pg),
      client: process.cpuUsage(),
    };
    const stats = new PostgresDatabase(databaseUrl);
    await resetStatements(stats);
    await model.cpuMs();
    const commits = async () =>
      Number(
        (
          await stats.query<{ n: string }>(
            'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
          )
        )[0]!.n,
      );
    const commitsBefore = await commits();
    // Per table: rows written and scans started (the statistics collector's counters), to see where turns differ.
    const tableWork = async () =>
      new Map(
        (
          await stats.query<{ relname: string; writes: string; scans: string }>(
            'SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS writes, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans FROM pg_stat_user_tables',
          )
        ).map((row) => [row.relname, { writes: Number(row.writes), scans: Number(row.scans) }]),
      );
    const tablesBefore = await tableWork();
    // Connections of the aalis processes busy in a query or an open transaction, sampled every 50 ms.
    const busy: number[] = [];
    const sampler = setInterval(() => {
      void stats
        .query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()",
        )
        .then(([row]) => busy.push(Number(row!.n)))
        .catch(() => {});
    }, 50);
    const latencies: number[] = [];
    const start = Date.now();
    await Promise.all(
      sessionIds.map(async (_, index) => {
        for (let round = 2; round <= TURNS + 1; round++) {
          const latency = await turn(index, round);
          if (latency !== undefined) latencies.push(latency);
        }
      }),
    );
    const seconds = (Date.now() - start) / 1000;
    clearInterval(sampler);
    // Commits by this sampler excluded: one per sample (autocommit) and one per commits() call.
    const transactions = (await commits()) - commitsBefore - busy.length - 1;
    // The counters reach pg_stat_user_tables from each backend within a second (PostgreSQL 15).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const tables = [...(await tableWork())]
      .map(([name, after]) => {
        const before = tablesBefore.get(name) ?? { writes: 0, scans: 0 };
        return { name, writes: after.writes - before.writes, scans: after.scans - before.scans };
      })
      .filter((table) => table.writes + table.scans > 0)
      .sort((a, b) => b.writes + b.scans - (a.writes + a.scans));
    const statements = await statementFigures(stats, Number(process.env.SCALE_STATEMENTS ?? 8));
    await stats.close();
    if (unanswered.length > 0) {
      console.log(
        `  ${unanswered.length} turns never answered (${TURN_TIMEOUT_MS} ms): ${unanswered.slice(0, 5).join(', ')}`,
      );
    }
    const client = process.cpuUsage(before.client);
    return {
      processes: processCount,
      routing: setup.routing,
      turns: latencies.length,
      transactions,
      tables,
      statements,
      busyConnections: busy.reduce((sum, value) => sum + value, 0) / Math.max(1, busy.length),
      seconds,
      latencies,
      cpu: {
        aalis: pids.map((pid, index) => cpuSeconds([pid]) - before.aalis[index]!),
        waited: pids.map((pid, index) => runQueueSeconds(pid) - before.waited[index]!),
        postgres: cpuSeconds(postgresPids(postgresPort)) - before.postgres,
        model: (await model.cpuMs()) / 1000,
        client: (client.user + client.system) / 1e6,
      },
    };
  } finally {
    for (const serve of serves) {
      await serve.stop();
      serve.removeWorkspace();
    }
  }
}

async function main(): Promise<void> {
  const postgres = await startThrowawayPostgres({ statementStatistics: true });
  const model = await Model.start();
  try {
    console.log(
      `${SESSIONS} sessions × ${TURNS} measured turns (odd turns call a tool: two model calls), model ${MODEL_MS} ms per response, setups ${SETUPS.map((setup) => `${setup.processes}${setup.routing === 'sticky' ? '-sticky' : ''}`).join(', ')}`,
    );
    const label = (setup: Setup) =>
      `${setup.processes} process${setup.processes === 1 ? '' : 'es'}${setup.processes > 1 ? ` (${setup.routing})` : ''}`;
    const rate = (result: RunResult) => result.turns / result.seconds;
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    // Rounds in alternating order (A B C, C B A, …): the machine's other load drifts, each round's ratio compares
    // neighbours in time, and the medians are printed.
    const bySetup = new Map<Setup, RunResult[]>(SETUPS.map((setup) => [setup, []]));
    const ratios = new Map<Setup, number[]>(SETUPS.map((setup) => [setup, []]));
    for (let round = 0; round < REPEATS; round++) {
      const order = round % 2 === 0 ? SETUPS : [...SETUPS].reverse();
      const inRound = new Map<Setup, RunResult>();
      for (const setup of order) {
        const database = postgres.createDatabase(`scale_${round}_${setup.processes}_${setup.routing}`);
        const result = await run(setup, database, model, postgres.port);
        inRound.set(setup, result);
        bySetup.get(setup)!.push(result);
        const cpu = result.cpu;
        console.log(
          `round ${round + 1}, ${label(setup)}: ${rate(result).toFixed(1)} turns/s (${result.turns} turns in ${result.seconds.toFixed(1)} s), latency p50 ${percentile(result.latencies, 50)} ms p99 ${percentile(result.latencies, 99)} ms\n` +
            `    CPU s: aalis ${cpu.aalis.map((s) => s.toFixed(1)).join(' + ')}, PostgreSQL ${cpu.postgres.toFixed(1)}, model server ${cpu.model.toFixed(1)}, client ${cpu.client.toFixed(1)} (of ${(2 * result.seconds).toFixed(1)} on 2 cores); aalis waited for a CPU ${cpu.waited.map((s) => s.toFixed(1)).join(' + ')} s; PostgreSQL ${(result.transactions / result.turns).toFixed(1)} transactions per turn, ${result.busyConnections.toFixed(1)} connections busy on average; load average ${loadavg()[0]!.toFixed(1)}\n` +
            `    CPU ms per turn: aalis ${((1000 * cpu.aalis.reduce((x, y) => x + y, 0)) / result.turns).toFixed(1)}, PostgreSQL ${((1000 * cpu.postgres) / result.turns).toFixed(1)}\n` +
            `    per turn (rows written/scans): ${result.tables.map((table) => `${table.name} ${(table.writes / result.turns).toFixed(1)}/${(table.scans / result.turns).toFixed(1)}`).join(', ')}\n` +
            formatStatements(result.statements, result.turns),
        );
      }
      const one = [...inRound].find(([setup]) => setup.processes === 1)?.[1];
      for (const [setup, result] of inRound)
        if (one && setup.processes > 1) ratios.get(setup)!.push(rate(result) / rate(one));
    }
    console.log(`medians of ${REPEATS} rounds:`);
    for (const [setup, results] of bySetup) {
      const ratio = ratios.get(setup)!;
      console.log(
        `  ${label(setup)}: ${median(results.map(rate)).toFixed(1)} turns/s, p50 ${median(results.map((r) => percentile(r.latencies, 50)))} ms, p99 ${median(results.map((r) => percentile(r.latencies, 99)))} ms, aalis CPU ${median(results.map((r) => r.cpu.aalis.reduce((x, y) => x + y, 0) / r.seconds)).toFixed(2)} cores, PostgreSQL ${median(results.map((r) => r.cpu.postgres / r.seconds)).toFixed(2)} cores; per turn: aalis ${median(results.map((r) => (1000 * r.cpu.aalis.reduce((x, y) => x + y, 0)) / r.turns)).toFixed(1)} ms, PostgreSQL ${median(results.map((r) => (1000 * r.cpu.postgres) / r.turns)).toFixed(1)} ms CPU, ${median(results.map((r) => r.transactions / r.turns)).toFixed(1)} transactions, ${median(results.map((r) => r.statements.calls / r.turns)).toFixed(1)} statements` +
          (ratio.length > 0
            ? `; ratio to 1 process ${median(ratio).toFixed(2)}× (goal ≥ 1.5×; rounds ${ratio.map((x) => x.toFixed(2)).join(', ')})`
            : ''),
      );
    }
  } finally {
    model.child.send('stop');
    postgres.stop();
  }
}

if (process.argv[2] === 'model-server') {
  await modelServer(Number(process.argv[3] ?? MODEL_MS));
} else {
  await main();
}
