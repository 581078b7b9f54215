// npm run bench concurrency — Aalis as the product runs (startAalis: SQLite, hooks, usage events, the file log at info)
// with 100 and 1000 sessions each running tool turns at once against one local model server that answers after 50 ms,
// against the raw floor: the same number of clients replaying the agent's own request bodies over HTTP (fetch) to the
// same server, turn by turn (the floor's n-th turn sends the bodies of a session's n-th turn), with the same pacing
// (every client starts at once, each turn right after the last one). Three processes, so each CPU figure is one
// process's own work: this one runs the product, a child runs the floor, another child is the model server (its CPU is
// printed apart). The product runs as the aalis command runs it: one esbuild bundle of the sources
// (concurrency-product.ts); BENCH_SOURCE=1 runs the TypeScript sources through tsx instead. On a loaded machine a
// single pass says more about the neighbours than about the product, so product and floor run interleaved (AB BA AB …;
// BENCH_ROUNDS rounds per level, default 9 at 100 sessions and 5 at 1000, after BENCH_WARM_ROUNDS uncounted rounds of
// each, default 12); throughput and CPU ratios are the median of the rounds' ratios, each round comparing two runs
// seconds apart. The p99 is not a per-round figure: a round at 100 sessions has 300 turns, so its p99 is decided by its
// 3 slowest turns, and per-round p99 ratios spread 0.5–8× on a loaded machine. It is the p99 of every round's turns
// pooled (2700 at the defaults), with a 90 % interval from resampling whole rounds (concurrency-tail.ts), so how noisy
// it is gets printed with it. Each turn's added latency is also split where it accrued, from the model server's times
// of its two calls (before the first call, the server's own delay, between the calls, after the second), for all turns
// and for the slowest 1 %, and each process's event-loop delay and GC pauses are printed (concurrency-observe.ts).
// Prints turns/s (and the share of the ideal, sessions ÷ 100 ms), p50/p99 added latency (turn time − 2 × 50 ms), CPU ms
// per turn of each process, heap per idle session and the listener warnings seen. BENCH_PROFILE=<file> also writes a
// CPU profile of the product's first round, BENCH_HEAP_PROFILE=<file> a sampling heap profile of it; `node
// packages/host/runtime/bench/cpuprofile-summary.mjs <file>` sums either up by concern and by function, and a CPU profile's
// longest synchronous runs. Goals: throughput ≥ 0.65× the raw floor's, p99 added latency at 100 ≤ 1.5× the floor's, ≤
// 10 KB heap per idle session, CPU per tool turn ≤ 1.5× the floor's, no listener warnings.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Observed, observe } from './concurrency-observe.js';
import { loadProduct } from './concurrency-product.js';
import { type Run, reportLines } from './concurrency-report.js';
import type { Call, TurnSpan } from './concurrency-tail.js';

const LATENCY_MS = 50;
const TURNS_PER_SESSION = Number(process.env.BENCH_TURNS ?? 3);
const LEVELS = (process.env.BENCH_SESSIONS ?? '100,1000').split(',').map(Number);
/**
 * Uncounted rounds of each at the first level before measuring (BENCH_WARM_ROUNDS, default 12: the product's CPU
 * per turn keeps falling for about ten rounds of 300 turns as V8 compiles its hot paths; the first and last warm-up
 * round's figures are printed, so the cold cost stays visible).
 */
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 12);
/** BENCH_PROFILE=<file>: a CPU profile of the product's first round at the first level (cpuprofile-summary.mjs reads it). */
const PROFILE = process.env.BENCH_PROFILE;
/**
 * BENCH_HEAP_PROFILE=<file>: a sampling heap profile of the same round, objects the GC collected included, i.e.
 * where the turn's allocations come from (what feeds the scavenges); cpuprofile-summary.mjs reads it too.
 */
const HEAP_PROFILE = process.env.BENCH_HEAP_PROFILE;
/** Rounds per level: BENCH_ROUNDS, else 9 at up to 100 sessions (a round takes a second or two) and 5 above. */
const roundsAt = (count: number) => Number(process.env.BENCH_ROUNDS ?? (count <= 100 ? 9 : 5));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

/** Starts a helper process (run through tsx like this one) and waits for its first message. */
async function startChild<T>(file: string, args: string[] = []): Promise<{ child: ChildProcess; first: T }> {
  const child = fork(join(import.meta.dirname, file), args, { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const first = await new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
  });
  return { child, first };
}

/** Sends a message to a helper and waits for its answer; a helper that is gone fails the bench instead of hanging it. */
function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const gone = (code: number | null, signal: string | null) =>
      reject(new Error(`a bench helper process ended (${signal ?? `exit code ${code}`}) before it answered`));
    child.once('exit', gone);
    child.once('message', (reply) => {
      child.off('exit', gone);
      resolve(reply as T);
    });
    if (child.exitCode !== null || child.signalCode !== null) gone(child.exitCode, child.signalCode);
    else child.send(message as string);
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

/** Starts V8's sampling heap profiler (collected objects kept); the function returned stops it and gives the profile. */
async function startHeapProfiler(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 8192,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    return profile;
  };
}

interface ServerFigures {
  cpuMs: number;
  connections: number;
  calls: Call[];
}

/** A turn's message; the tag lets the model server's timings of its calls be matched to it. */
const content = (tag: string) => `what is 6*7? [t:${tag}]`;

async function runProduct(count: number, turn: (client: number, index: number) => Promise<void>): Promise<Run> {
  const added: number[] = [];
  const spans: TurnSpan[] = [];
  await ask(model, 'cpu');
  const stop = observe();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, client) => {
      for (let index = 0; index < TURNS_PER_SESSION; index++) {
        const began = performance.now();
        await turn(client, index);
        const ended = performance.now();
        added.push(ended - began - 2 * LATENCY_MS);
        spans.push([`${client}/${index}`, performance.timeOrigin + began, performance.timeOrigin + ended]);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const observed = stop();
  const server = await ask<ServerFigures>(model, 'cpu');
  const turns = count * TURNS_PER_SESSION;
  return {
    turnsPerSecond: turns / elapsed,
    added,
    cpuPerTurn: (used.user + used.system) / 1000 / turns,
    serverCpuPerTurn: server.cpuMs / turns,
    connections: server.connections,
    spans,
    calls: server.calls,
    observed,
  };
}

async function runFloor(count: number, bodies: string[]): Promise<Run> {
  await ask(model, 'cpu');
  const result = await ask<{
    elapsedMs: number;
    added: number[];
    spans: TurnSpan[];
    cpuMs: number;
    observed: Observed;
    error?: string;
  }>(floor, {
    url,
    bodies,
    count,
    turns: TURNS_PER_SESSION,
    latencyMs: LATENCY_MS,
  });
  if (result.error) throw new Error(`floor: ${result.error}`);
  const server = await ask<ServerFigures>(model, 'cpu');
  const turns = count * TURNS_PER_SESSION;
  return {
    turnsPerSecond: turns / (result.elapsedMs / 1000),
    added: result.added,
    cpuPerTurn: result.cpuMs / turns,
    serverCpuPerTurn: server.cpuMs / turns,
    connections: server.connections,
    spans: result.spans,
    calls: server.calls,
    observed: result.observed,
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
  for (let index = 0; index < TURNS_PER_SESSION; index++) await say('bench:warm', content(`w/${index}`));
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
      await runProduct(warmLevel, (client, index) =>
        say(`bench:warm:${round}:${client}`, content(`${client}/${index}`)),
      ),
    );
    warmFloor.push(await runFloor(warmLevel, bodies));
  }

  const measured: { count: number; product: Run[]; raw: Run[] }[] = [];
  for (const count of LEVELS) {
    const product: Run[] = [];
    const raw: Run[] = [];
    for (let round = 0; round < roundsAt(count); round++) {
      const runThisProduct = async () => {
        const first = round === 0 && count === LEVELS[0];
        const profiler = PROFILE && first ? await startProfiler() : undefined;
        const heapProfiler = HEAP_PROFILE && first ? await startHeapProfiler() : undefined;
        product.push(
          await runProduct(count, (client, index) =>
            say(`bench:${count}:${round}:${client}`, content(`${client}/${index}`)),
          ),
        );
        if (profiler) writeFileSync(PROFILE!, JSON.stringify(toSources(await profiler())));
        if (heapProfiler) writeFileSync(HEAP_PROFILE!, JSON.stringify(toSources(await heapProfiler())));
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
        say(`bench:heap:${count}:${round}:${client}`, content(`${client}/${index}`)),
      );
      gc();
      heapAt.set(count, [...(heapAt.get(count) ?? []), (process.memoryUsage().heapUsed - before) / count / 1024]);
    }
  }
  console.log(
    `Request bodies of a session's turns, bytes: ${bodies.map((body) => Buffer.byteLength(body)).join(', ')}`,
  );
  for (const line of reportLines({
    measured,
    heapAt,
    latencyMs: LATENCY_MS,
    form,
    turnsPerSession: TURNS_PER_SESSION,
    rounds: LEVELS.map(roundsAt),
    warmRounds: WARM_ROUNDS,
  }))
    console.log(line);
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
