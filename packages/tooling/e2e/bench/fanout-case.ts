// The fan-out case of `npm run bench webui`: 20 sessions run turns back to back, each watched by one socket; then the
// same with 180 more sockets of the same login subscribed to those sessions (200 in all). Reports turns per second
// in both and their ratio (the goal: ≥ 0.8), and the round trip of a `ping` request measured meanwhile (p50 / p99;
// the goal: p99 ≤ 100 ms). Every session change reaches every socket that may see it, so this is the cost of that.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { SessionClient } from '@aalis/session-client';
import { clientFor, type Host } from '../src/session-protocol/harness.case.js';

const require = createRequire(import.meta.url);
const SESSIONS = 20;
const RUN_MS = 3000;
const ROUNDS = 3;

interface Result {
  turnsPerSecond: number;
  busyMsPerTurn: number;
  /** This process's event loop delay (the host's and its 21 clients'): p99 and the longest, in ms. */
  loopP99: number;
  loopMax: number;
  p50: number;
  p99: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function turnsPerSecond(host: Host, cookie: string, extraSockets: number, runMs = RUN_MS): Promise<Result> {
  const clients: SessionClient[] = [];
  const open = async () => {
    const client = clientFor(host, cookie);
    await client.connect();
    clients.push(client);
    return client;
  };
  const owner = await open();
  const sessions: string[] = [];
  for (let index = 0; index < SESSIONS; index++) {
    sessions.push((await owner.request('session.create', { title: `fan-out ${extraSockets} ${index}` })).session.id);
  }
  // One socket per session runs its turns and hears each end.
  const runners: { client: SessionClient; sessionId: string; ended: () => Promise<void> }[] = [];
  for (const sessionId of sessions) {
    const client = await open();
    let wake: (() => void) | undefined;
    client.subscribe(sessionId, {
      event: (event) => {
        if (event.type === 'turn.ended') wake?.();
      },
    });
    runners.push({
      client,
      sessionId,
      ended: () =>
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
    });
  }
  // The other sockets are tabs elsewhere (their own process, as browsers are): a child process holds them, subscribed,
  // reading every frame without parsing it, so this process's clock and CPU time measure the host, not 180 clients.
  const tabs = extraSockets > 0 ? await idleTabs(host, cookie, sessions, extraSockets) : undefined;
  await new Promise((resolve) => setTimeout(resolve, 200));
  let turns = 0;
  let running = true;
  const pings: number[] = [];
  const pinger = (async () => {
    while (running) {
      const started = performance.now();
      await owner.request('ping', {});
      pings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  await Promise.all(
    runners.map(async (runner) => {
      while (performance.now() - started < runMs) {
        const ended = runner.ended();
        await runner.client.send({ sessionId: runner.sessionId, text: 'hi' });
        await ended;
        turns++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  // This process's CPU time (the host and the 21 sockets that run turns and ping; the tabs are another process): what
  // a turn costs, which the machine's other load changes far less than it changes turns per second.
  const cpu = process.cpuUsage(cpuBefore);
  const busyMs = (cpu.user + cpu.system) / 1000;
  loop.disable();
  running = false;
  await pinger;
  for (const client of clients) client.close();
  tabs?.stop();
  pings.sort((a, b) => a - b);
  return {
    turnsPerSecond: turns / elapsed,
    busyMsPerTurn: busyMs / turns,
    p50: quantile(pings, 0.5),
    p99: quantile(pings, 0.99),
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
  };
}

/** `count` sockets of the login, subscribed round-robin to `sessions`, in a process of their own. */
async function idleTabs(host: Host, cookie: string, sessions: string[], count: number): Promise<{ stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `
    const { WebSocket } = require(process.env.TABS_WS);
    const { base, cookie, sessions, count } = JSON.parse(process.env.TABS);
    let subscribed = 0;
    for (let index = 0; index < count; index++) {
      const socket = new WebSocket(base.replace('http', 'ws') + '/api/v1/socket', { headers: { cookie, origin: base } });
      let frames = 0;
      socket.on('message', () => {
        frames++;
        if (frames === 1) socket.send(JSON.stringify({ id: 's', type: 'subscribe', sessionId: sessions[index % sessions.length] }));
        if (frames === 2 && ++subscribed === count) process.stdout.write('ready\\n');
      });
    }
    `,
    ],
    {
      env: {
        ...process.env,
        TABS_WS: require.resolve('ws'),
        TABS: JSON.stringify({ base: host.base, cookie, sessions, count }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the tabs' process ended (${code})`)));
  });
  return {
    stop: () => {
      child.kill();
    },
  };
}

/** `ping` round trips while no turn runs: what the machine's own load puts on the figures above. */
async function idlePings(host: Host, cookie: string): Promise<{ p50: number; p99: number }> {
  const client = clientFor(host, cookie);
  await client.connect();
  const pings: number[] = [];
  const until = performance.now() + RUN_MS;
  while (performance.now() < until) {
    const started = performance.now();
    await client.request('ping', {});
    pings.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  client.close();
  pings.sort((a, b) => a - b);
  return { p50: quantile(pings, 0.5), p99: quantile(pings, 0.99) };
}

export async function fanOutCase(host: Host, cookie: string): Promise<void> {
  console.log(
    `\nfan-out: ${SESSIONS} sessions running turns for ${RUN_MS / 1000} s a round; a warm-up round, then ${ROUNDS} rounds of each case taken in turn (the machine's other load falls on both alike), medians`,
  );
  // The first turns load modules and fill caches: not measured.
  await turnsPerSecond(host, cookie, 0, 1000);
  const floor = await idlePings(host, cookie);
  const few: Result[] = [];
  const many: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    few.push(await turnsPerSecond(host, cookie, 0));
    many.push(await turnsPerSecond(host, cookie, 200 - SESSIONS));
  }
  const median = (results: Result[], pick: (result: Result) => number) =>
    results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
  const summary = (results: Result[]): Result => ({
    turnsPerSecond: median(results, (result) => result.turnsPerSecond),
    busyMsPerTurn: median(results, (result) => result.busyMsPerTurn),
    loopP99: median(results, (result) => result.loopP99),
    loopMax: median(results, (result) => result.loopMax),
    p50: median(results, (result) => result.p50),
    p99: median(results, (result) => result.p99),
  });
  const line = (name: string, results: Result[]) => {
    const result = summary(results);
    console.log(
      name.padEnd(28),
      `${result.turnsPerSecond.toFixed(1)} turns/s`.padStart(16),
      `${result.busyMsPerTurn.toFixed(2)} ms CPU/turn`.padStart(20),
      `ping p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`.padStart(34),
      `  loop delay p99 ${result.loopP99.toFixed(0)} ms, max ${result.loopMax.toFixed(0)} ms;`,
      `rounds: ${results.map((each) => each.turnsPerSecond.toFixed(0)).join(', ')} turns/s`,
    );
    return result;
  };
  console.log(
    'no turns (the floor)'.padEnd(28),
    ''.padStart(16),
    ''.padStart(20),
    `ping p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms`.padStart(34),
    '  (the machine and its other load, with the host idle)',
  );
  const fewSummary = line(`${SESSIONS} subscribed sockets`, few);
  const manySummary = line('200 subscribed sockets', many);
  const ratios = few.map((result, index) => many[index]!.turnsPerSecond / result.turnsPerSecond);
  console.log(
    `CPU per turn 200/20: ${(manySummary.busyMsPerTurn / fewSummary.busyMsPerTurn).toFixed(2)} (what 180 more sockets cost a turn)`,
  );
  console.log(
    `ratio 200/20: ${(manySummary.turnsPerSecond / fewSummary.turnsPerSecond).toFixed(2)} (goal ≥ 0.80; per round ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}); ping p99 with 200: ${manySummary.p99.toFixed(1)} ms (goal ≤ 100)`,
  );
}
