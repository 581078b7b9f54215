// npm run bench concurrency — issue #15 goals 2 and 3: Aalis as the product runs (startAalis: SQLite, hooks, usage
// events, the file log at info) with 100 and 1000 sessions each running tool turns at once against one local model
// server that answers after 50 ms, against the raw floor: the same number of clients replaying the agent's own
// request bodies over HTTP (fetch) to the same server. Three processes, so each CPU figure is one process's own work:
// this one runs the product, a child runs the floor, another child is the model server (its CPU is printed apart).
// The product runs as the aalis command runs it: one esbuild bundle of the sources (concurrency-product.ts);
// BENCH_SOURCE=1 runs the TypeScript sources through tsx instead.
// On a loaded machine a single pass says more about the neighbours than about the product, so product and floor run
// interleaved (AB BA AB …; BENCH_ROUNDS rounds per level, default 5 at 100 sessions and 3 at 1000, after
// BENCH_WARM_ROUNDS uncounted rounds of each, default 12) and every ratio is the median of the rounds' ratios, each
// round comparing two runs seconds apart.
// Prints turns/s (and the share of the ideal, sessions ÷ 100 ms), p50/p99 added latency (turn time − 2 × 50 ms),
// CPU ms per turn of each process, heap per idle session and the listener warnings seen. BENCH_PROFILE=<file> also
// writes a CPU profile of the product's first round; `node packages/runtime/bench/cpuprofile-summary.mjs <file>`
// sums it up by concern and by function.
// Goals: throughput ≥ 0.65× the raw floor's, p99 added latency at 100 ≤ 1.5× the floor's, ≤ 10 KB heap per idle
// session, CPU per tool turn ≤ 1.5× the floor's, no listener warnings.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadProduct } from './concurrency-product.js';

const LATENCY_MS = 50;
const TURNS_PER_SESSION = Number(process.env.BENCH_TURNS ?? 3);
const LEVELS = (process.env.BENCH_SESSIONS ?? '100,1000').split(',').map(Number);
/** Rounds per level: BENCH_ROUNDS, else 5 at up to 100 sessions (a round takes a second or two) and 3 above. */
/**
 * Uncounted rounds of each at the first level before measuring (BENCH_WARM_ROUNDS, default 12: the product's CPU
 * per turn keeps falling for about ten rounds of 300 turns as V8 compiles its hot paths; the first and last warm-up
 * round's figures are printed, so the cold cost stays visible).
 */
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 12);
/** BENCH_PROFILE=<file>: a CPU profile of the product's first round at the first level (cpuprofile-summary.mjs reads it). */
const PROFILE = process.env.BENCH_PROFILE;
const roundsAt = (count: number) => Number(process.env.BENCH_ROUNDS ?? (count <= 100 ? 5 : 3));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}
const median = (values: number[]): number => percentile(values, 0.5);

/** Starts a helper process (run through tsx like this one) and waits for its first message. */
async function startChild<T>(file: string, args: string[] = []): Promise<{ child: ChildProcess; first: T }> {
  const child = fork(join(import.meta.dirname, file), args, { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const first = await new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
  });
  return { child, first };
}

function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as T));
    child.send(message as string);
  });
}

/** Starts the V8 sampling profiler in this process; the function returned stops it and gives the profile. */
async function startProfiler(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // A sample every 250 µs: a round of 300 turns takes a second or two.
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

interface Run {
  turnsPerSecond: number;
  added: number[];
  cpuPerTurn: number;
  serverCpuPerTurn: number;
  /** Connections the model server accepted during the run (a client whose pool keeps them opens none). */
  connections: number;
}

async function runProduct(count: number, turn: (client: number, index: number) => Promise<void>): Promise<Run> {
  const added: number[] = [];
  await ask(model, 'cpu');
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, client) => {
      for (let index = 0; index < TURNS_PER_SESSION; index++) {
        const began = performance.now();
        await turn(client, index);
        added.push(performance.now() - began - 2 * LATENCY_MS);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const server = await ask<{ cpuMs: number; connections: number }>(model, 'cpu');
  const turns = count * TURNS_PER_SESSION;
  return {
    turnsPerSecond: turns / elapsed,
    added,
    cpuPerTurn: (used.user + used.system) / 1000 / turns,
    serverCpuPerTurn: server.cpuMs / turns,
    connections: server.connections,
  };
}

async function runFloor(count: number, bodies: string[]): Promise<Run> {
  await ask(model, 'cpu');
  const result = await ask<{ elapsedMs: number; added: number[]; cpuMs: number; error?: string }>(floor, {
    url,
    bodies,
    count,
    turns: TURNS_PER_SESSION,
    latencyMs: LATENCY_MS,
  });
  if (result.error) throw new Error(`floor: ${result.error}`);
  const server = await ask<{ cpuMs: number; connections: number }>(model, 'cpu');
  const turns = count * TURNS_PER_SESSION;
  return {
    turnsPerSecond: turns / (result.elapsedMs / 1000),
    added: result.added,
    cpuPerTurn: result.cpuMs / turns,
    serverCpuPerTurn: server.cpuMs / turns,
    connections: server.connections,
  };
}

const { child: model, first: ready } = await startChild<{ url: string }>('concurrency-model-server.ts', [
  String(LATENCY_MS),
]);
const { url } = ready;
const { child: floor } = await startChild<string>('concurrency-floor.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'aalis-concurrency-'));
// The product as the aalis command runs it (a bundle of the sources), or the sources through tsx (BENCH_SOURCE=1).
const { startAalis, agent, form, toSources, dispose: disposeProduct } = await loadProduct();
const running = await startAalis({
  cwd: dataDir,
  mode: 'none',
  banner: false,
  createConfigIfMissing: false,
  env: {
    AALIS_LLM_BASE_URL: url,
    AALIS_LLM_MODEL: 'bench-model',
    AALIS_DATA_DIR: dataDir,
    AALIS_LOG_LEVEL: 'info',
  },
});
const service = running.app.services.selected(agent)!.impl;
const say = (sessionId: string, content: string) =>
  service.handleMessage({ sessionId, platform: 'cli', sender: { userId: `u-${sessionId}` }, content });
try {
  // Warm-up: one session's turns give the request bodies the floor replays, turn by turn (a session's n-th turn
  // sends a history of n − 1 turns, so the floor's n-th turn sends the same bodies); then WARM_ROUNDS rounds of each
  // at the first level, not counted.
  for (let index = 0; index < TURNS_PER_SESSION; index++) await say('bench:warm', `what is 6*7? (${index})`);
  const { bodies: sent } = await ask<{ bodies: string[] }>(model, 'bodies');
  const bodies = sent.slice(0, 2 * TURNS_PER_SESSION);
  const lastRoles = bodies.map(
    (body) => (JSON.parse(body) as { messages: Array<{ role: string }> }).messages.at(-1)?.role,
  );
  if (
    lastRoles.length !== 2 * TURNS_PER_SESSION ||
    lastRoles.some((role, index) => role !== (index % 2 ? 'tool' : 'user'))
  )
    throw new Error(`the warm-up session's requests are not ${TURNS_PER_SESSION} tool turns: ${lastRoles.join(', ')}`);
  // V8 compiles the hot paths in tiers over the first few thousand turns: a cold product costs 2-3 times its steady
  // CPU per turn, a cold floor (much less code) far less. Both get the same uncounted warm-up.
  const warmLevel = LEVELS[0]!;
  const warmProduct: Run[] = [];
  const warmFloor: Run[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++) {
    warmProduct.push(
      await runProduct(warmLevel, (client, index) => say(`bench:warm:${round}:${client}`, `what is 6*7? (${index})`)),
    );
    warmFloor.push(await runFloor(warmLevel, bodies));
  }

  const rows: string[] = [];
  const measured: { count: number; product: Run[]; raw: Run[] }[] = [];
  for (const count of LEVELS) {
    const product: Run[] = [];
    const raw: Run[] = [];
    for (let round = 0; round < roundsAt(count); round++) {
      const runThisProduct = async () => {
        const profiler = PROFILE && round === 0 && count === LEVELS[0] ? await startProfiler() : undefined;
        product.push(
          await runProduct(count, (client, index) =>
            say(`bench:${count}:${round}:${client}`, `what is 6*7? (${index})`),
          ),
        );
        if (profiler) writeFileSync(PROFILE!, JSON.stringify(toSources(await profiler())));
      };
      if (round % 2 === 0) {
        await runThisProduct();
        raw.push(await runFloor(count, bodies));
      } else {
        raw.push(await runFloor(count, bodies));
        await runThisProduct();
      }
    }
    measured.push({ count, product, raw });
  }
  // Heap per idle session, last: a forced full GC makes V8 drop compiled code, and the product (much more code than
  // the floor) then runs at about twice its steady CPU per turn for the next thousand turns, so no timed round may
  // follow one. Two rounds per level of new sessions (three turns each, then idle), a full GC on both sides of each.
  const heapAt = new Map<number, number[]>();
  for (const count of LEVELS) {
    for (let round = 0; round < 2; round++) {
      gc();
      const before = process.memoryUsage().heapUsed;
      await runProduct(count, (client, index) =>
        say(`bench:heap:${count}:${round}:${client}`, `what is 6*7? (${index})`),
      );
      gc();
      heapAt.set(count, [...(heapAt.get(count) ?? []), (process.memoryUsage().heapUsed - before) / count / 1024]);
    }
  }
  for (const { count, product, raw } of measured) {
    const heap = heapAt.get(count)!;
    const ratios = (of: (run: Run) => number) => median(product.map((run, index) => of(run) / of(raw[index]!)));
    const med = (runs: Run[], of: (run: Run) => number) => median(runs.map(of));
    const ideal = count / ((2 * LATENCY_MS) / 1000);
    const p50 = (run: Run) => percentile(run.added, 0.5);
    const p99 = (run: Run) => Math.max(1, percentile(run.added, 0.99));
    const throughput = (run: Run) => run.turnsPerSecond;
    const cpu = (run: Run) => run.cpuPerTurn;
    rows.push(
      [
        String(count).padStart(8),
        `${med(product, throughput).toFixed(0).padStart(7)} (${((100 * med(product, throughput)) / ideal).toFixed(0)}%)`,
        `${med(raw, throughput).toFixed(0).padStart(7)} (${((100 * med(raw, throughput)) / ideal).toFixed(0)}%)`,
        `**${ratios(throughput).toFixed(2)}×** (${product.map((run, index) => (throughput(run) / throughput(raw[index]!)).toFixed(2)).join(', ')})`,
        `${med(product, p50).toFixed(0)} / ${med(product, p99).toFixed(0)}`,
        `${med(raw, p50).toFixed(0)} / ${med(raw, p99).toFixed(0)}`,
        `**${ratios(p99).toFixed(2)}×** (${product.map((run, index) => (p99(run) / p99(raw[index]!)).toFixed(2)).join(', ')})`,
        `${med(product, cpu).toFixed(2)} / ${med(raw, cpu).toFixed(2)} = **${ratios(cpu).toFixed(2)}×** (${product.map((run, index) => (cpu(run) / cpu(raw[index]!)).toFixed(2)).join(', ')})`,
        `${med(product, (run) => run.serverCpuPerTurn).toFixed(2)} / ${med(raw, (run) => run.serverCpuPerTurn).toFixed(2)} (new connections ${med(product, (run) => run.connections)} / ${med(raw, (run) => run.connections)})`,
        heap.map((kilobytes) => kilobytes.toFixed(1)).join(' / '),
      ].join(' | '),
    );
  }
  console.log(
    `Tool turns (2 model calls, ${LATENCY_MS} ms each), ${TURNS_PER_SESSION} per session, all sessions at once, ${LEVELS.map(roundsAt).join(' / ')} interleaved rounds per level after ${WARM_ROUNDS} uncounted warm-up rounds of each (medians; per-round ratios in brackets); product = startAalis with SQLite, hooks, usage events, file log, run as ${form}`,
  );
  console.log(
    '| sessions | product turns/s (of ideal) | raw turns/s (of ideal) | ratio | product added ms p50 / p99 | raw p50 / p99 | p99 ratio | CPU ms per turn product / raw (each its own process) | model server CPU ms per turn (product / raw phase) and connections it accepted per round | heap KB per idle session (two rounds of new sessions, after the timed ones) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row} |`);
  if (WARM_ROUNDS > 0) {
    const cpuTrend = (runs: Run[]) => `${runs[0]!.cpuPerTurn.toFixed(2)} → ${runs.at(-1)!.cpuPerTurn.toFixed(2)}`;
    console.log(
      `Warm-up (${WARM_ROUNDS} uncounted rounds at ${warmLevel} sessions), CPU ms per turn first → last round: product ${cpuTrend(warmProduct)}, raw ${cpuTrend(warmFloor)}`,
    );
  }
  console.log(`Warnings: ${warnings.length === 0 ? 'none' : warnings.join('; ')}`);
  console.log(
    'Goals: ratio ≥ 0.65×; p99 ratio at 100 ≤ 1.5×; CPU ratio ≤ 1.5×; ≤ 10 KB heap per idle session (history and caches included); no listener warnings',
  );
} finally {
  await running.stop();
  model.kill();
  floor.kill();
  rmSync(dataDir, { recursive: true, force: true });
  disposeProduct();
}
