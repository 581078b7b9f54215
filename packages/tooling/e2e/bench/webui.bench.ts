// `npm run bench webui`: the session server's cost on the live stream. A real host (`aalis serve`'s plugin set,
// the scripted model server) streams replies of many chunks; in the same run a direct in-process subscriber
// (events.on('outbound:stream')) and socket clients (@aalis/session-client over ws on 127.0.0.1) see each chunk.
// Reports, per scenario: chunks (messages) per second reaching the socket vs the in-process subscriber, and the
// latency the session server adds per streamed chunk (socket arrival − in-process arrival of the same chunk:
// median, p95, p99). Scenarios: a burst (every chunk in one network read: the server's own throughput) and a paced
// stream (a chunk every 2 ms, like a fast model), with 1 and 4 subscribed tabs. Then the fan-out case (turns per
// second with 20 and with 200 subscribed sockets, ping p99; fanout-case.ts) and what the durable acknowledgement
// costs per input (durable-ack-case.ts).
// The clients run in the host's process (one clock for both arrivals), so in a burst they read only once the host
// is done with it: the burst's latency is mostly the host's own work on the burst, and its socket rate is a batch
// read; the paced scenarios show the server's cost on a live stream.
// BENCH_WEBUI_CASES=fanout (or stream, durable; comma-separated) runs only those parts, e.g. to profile one.
import { performance } from 'node:perf_hooks';
import type { SessionClient } from '@aalis/session-client';
import type { StreamStep } from '@aalis/testing';
import { clientFor, loginCookie, startHost } from '../src/session-protocol/harness.case.js';
import { durableAckCase } from './durable-ack-case.js';
import { fanOutCase } from './fanout-case.js';

interface Scenario {
  name: string;
  chunks: number;
  paceMs: number;
  tabs: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'burst, 1 tab', chunks: 4000, paceMs: 0, tabs: 1 },
  { name: 'burst, 4 tabs', chunks: 4000, paceMs: 0, tabs: 4 },
  { name: 'paced 2 ms, 1 tab', chunks: 500, paceMs: 2, tabs: 1 },
  { name: 'paced 2 ms, 4 tabs', chunks: 500, paceMs: 2, tabs: 4 },
];
const RUNS = 3;
const CASES = new Set((process.env.BENCH_WEBUI_CASES ?? 'stream,fanout,durable').split(','));

function reply(chunks: number, paceMs: number): { type: 'stream'; steps: StreamStep[] } {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  for (let index = 0; index < chunks; index++) {
    steps.push({ text: `c${index} ` });
    if (paceMs > 0) steps.push({ delayMs: paceMs });
  }
  steps.push({ finish: 'stop' }, { usage: { promptTokens: 10, completionTokens: chunks } }, { done: true });
  return { type: 'stream', steps };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

// One login holds the 200 sockets of the fan-out case (the audit's shape): its socket cap is raised for it.
const host = await startHost({ extraConfig: '    maxSocketsPerLogin: 400\n    maxConnectionsPerAddress: 1000\n' });
try {
  const cookie = await loginCookie(host);
  const owner = clientFor(host, cookie);
  await owner.connect();
  console.log(`session server at ${host.base}; ${RUNS} runs per scenario, figures from the median run\n`);
  console.log(
    'scenario'.padEnd(22),
    'in-process chunks/s'.padStart(20),
    'socket chunks/s'.padStart(16),
    'ratio'.padStart(7),
    'added latency median / p95 / p99 (ms)'.padStart(40),
  );
  for (const scenario of CASES.has('stream') ? SCENARIOS : []) {
    const results: { direct: number; socket: number; latencies: number[] }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { session } = await owner.request('session.create', { title: `bench ${scenario.name}` });
      const tabs: SessionClient[] = [];
      const arrivals: number[][] = [];
      const done: Promise<void>[] = [];
      for (let tab = 0; tab < scenario.tabs; tab++) {
        const client = clientFor(host, cookie);
        await client.connect();
        tabs.push(client);
        const times: number[] = [];
        arrivals.push(times);
        done.push(
          new Promise<void>((resolve) => {
            client.subscribe(session.id, {
              event: (event) => {
                if (event.type === 'text.delta') times.push(performance.now());
                if (event.type === 'turn.ended') resolve();
              },
            });
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const direct: number[] = [];
      const off = host.aalis.app.events.on('outbound:stream', (fragment) => {
        if (fragment.sessionId === session.id && fragment.delta) direct.push(performance.now());
      });
      host.model.enqueue(reply(scenario.chunks, scenario.paceMs));
      await owner.send({ sessionId: session.id, text: 'stream' });
      await Promise.all(done);
      off();
      const rate = (times: number[]) => (times.length - 1) / (((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000);
      const latencies: number[] = [];
      for (const times of arrivals) {
        if (times.length !== direct.length) throw new Error(`a tab got ${times.length} of ${direct.length} chunks`);
        times.forEach((at, index) => {
          latencies.push(at - direct[index]!);
        });
      }
      latencies.sort((a, b) => a - b);
      // Through the socket: from the host's first chunk to the slowest tab's last one (server work included).
      const lastArrival = Math.max(...arrivals.map((times) => times.at(-1) ?? 0));
      const throughSocket = (direct.length - 1) / ((lastArrival - direct[0]!) / 1000);
      results.push({ direct: rate(direct), socket: throughSocket, latencies });
      for (const client of tabs) client.close();
    }
    results.sort((a, b) => a.socket - b.socket);
    const median = results[Math.floor(results.length / 2)]!;
    const { latencies } = median;
    console.log(
      scenario.name.padEnd(22),
      median.direct.toFixed(0).padStart(20),
      median.socket.toFixed(0).padStart(16),
      (median.socket / median.direct).toFixed(2).padStart(7),
      `${quantile(latencies, 0.5).toFixed(2)} / ${quantile(latencies, 0.95).toFixed(2)} / ${quantile(latencies, 0.99).toFixed(2)}`.padStart(
        40,
      ),
    );
  }
  owner.close();
  console.log(
    "\nchunks/s: in-process, between the first and last chunk the subscriber saw; socket, from the host's first chunk to the slowest tab's last.",
  );
  console.log('added latency: per chunk, socket client arrival minus in-process subscriber arrival (same clock).');
  if (CASES.has('fanout')) await fanOutCase(host, cookie);
  if (CASES.has('durable')) await durableAckCase(host, cookie);
} finally {
  await host.stop();
}
