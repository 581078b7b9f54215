// The fan-out case of `npm run bench webui`: 20 sessions run turns back to back, each watched by one socket; then the
// same with 180 more sockets of the same login subscribed to those sessions (200 in all). Reports turns per second
// in both and their ratio (the goal: ≥ 0.8), and the round trip of a `ping` request measured meanwhile (p50 / p99;
// the goal: p99 ≤ 100 ms). Every session change reaches every socket that may see it, so this is the cost of that.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { SessionClient } from '@aalis/session-client';
import { clientFor, type Host } from '../src/session-protocol/harness.case.js';

const require = createRequire(import.meta.url);
const SESSIONS = 20;
const RUN_MS = 4000;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function turnsPerSecond(host: Host, cookie: string, extraSockets: number) {
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
  // The other sockets are tabs elsewhere (their own process, as browsers are): a worker thread holds them, subscribed,
  // reading every frame without parsing it, so this process's clock measures the host and not 180 clients.
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
  await Promise.all(
    runners.map(async (runner) => {
      while (performance.now() - started < RUN_MS) {
        const ended = runner.ended();
        await runner.client.send({ sessionId: runner.sessionId, text: 'hi' });
        await ended;
        turns++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  running = false;
  await pinger;
  for (const client of clients) client.close();
  await tabs?.terminate();
  pings.sort((a, b) => a - b);
  return { turnsPerSecond: turns / elapsed, p50: quantile(pings, 0.5), p99: quantile(pings, 0.99) };
}

/** `count` sockets of the login, subscribed round-robin to `sessions`, in a worker thread. */
async function idleTabs(host: Host, cookie: string, sessions: string[], count: number): Promise<Worker> {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const { WebSocket } = require(workerData.ws);
    const { base, cookie, sessions, count } = workerData;
    let subscribed = 0;
    for (let index = 0; index < count; index++) {
      const socket = new WebSocket(base.replace('http', 'ws') + '/api/v1/socket', { headers: { cookie, origin: base } });
      let frames = 0;
      socket.on('message', () => {
        frames++;
        if (frames === 1) socket.send(JSON.stringify({ id: 's', type: 'subscribe', sessionId: sessions[index % sessions.length] }));
        if (frames === 2 && ++subscribed === count) parentPort.postMessage('ready');
      });
    }
    `,
    { eval: true, workerData: { ws: require.resolve('ws'), base: host.base, cookie, sessions, count } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return worker;
}

export async function fanOutCase(host: Host, cookie: string): Promise<void> {
  console.log(`\nfan-out: ${SESSIONS} sessions running turns for ${RUN_MS / 1000} s each case`);
  const few = await turnsPerSecond(host, cookie, 0);
  const many = await turnsPerSecond(host, cookie, 200 - SESSIONS);
  const line = (name: string, result: typeof few) =>
    console.log(
      name.padEnd(28),
      `${result.turnsPerSecond.toFixed(1)} turns/s`.padStart(16),
      `ping p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`.padStart(34),
    );
  line(`${SESSIONS} subscribed sockets`, few);
  line('200 subscribed sockets', many);
  console.log(
    `ratio 200/20: ${(many.turnsPerSecond / few.turnsPerSecond).toFixed(2)} (goal ≥ 0.80); ping p99 with 200: ${many.p99.toFixed(1)} ms (goal ≤ 100)`,
  );
}
