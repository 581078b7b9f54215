// npm run bench concurrency — issue #15 goals 2 and 3: Aalis as the product runs (startAalis: SQLite, hooks, usage
// events, the file log at info) with 100 and 1000 sessions each running tool turns at once against one local model
// server that answers after 50 ms, against the raw floor: the same number of clients replaying the agent's own
// request bodies over HTTP to the same server. Prints turns/s (and the share of the ideal, sessions ÷ 100 ms),
// p50/p99 added latency (turn time − 2 × 50 ms), CPU ms per turn, and heap per idle session.
// Goals: throughput ≥ 0.65× the raw floor's, p99 added latency at 100 ≤ 1.5× the floor's, ≤ 10 KB heap per idle
// session, CPU per tool turn ≤ 1.5× the floor's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { agent } from '@aalis/api-agent';
import { startAalis } from '../src/start-aalis.js';

const LATENCY_MS = 50;
const TURNS_PER_SESSION = Number(process.env.BENCH_TURNS ?? 3);
const LEVELS = (process.env.BENCH_SESSIONS ?? '100,1000').split(',').map(Number);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

function sse(res: ServerResponse, chunks: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** A model server: a tool call when the last message is not a tool result, else a short answer, after 50 ms. */
async function startModelServer(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model' }] }));
        return;
      }
      if (bodies.length < 4) bodies.push(text);
      const body = JSON.parse(text) as { messages: Array<{ role: string }> };
      const afterTool = body.messages[body.messages.length - 1]?.role === 'tool';
      const base = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'bench-model' };
      const usage = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 };
      setTimeout(() => {
        if (afterTool) {
          sse(res, [
            {
              ...base,
              choices: [{ index: 0, delta: { role: 'assistant', content: 'It is 42.' }, finish_reason: null }],
            },
            { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage },
          ]);
        } else {
          const call = {
            index: 0,
            id: `call_${Math.random().toString(36).slice(2)}`,
            type: 'function',
            function: { name: 'calculator', arguments: '{"expression":"6*7"}' },
          };
          sse(res, [
            { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null }] },
            { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage },
          ]);
        }
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function rawCall(url: string, body: string): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reader = response.body!.getReader();
  for (;;) if ((await reader.read()).done) break;
}

interface Run {
  turnsPerSecond: number;
  added: number[];
  cpuPerTurn: number;
}

async function runClients(count: number, turn: (client: number, index: number) => Promise<void>): Promise<Run> {
  const added: number[] = [];
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
  const turns = count * TURNS_PER_SESSION;
  return { turnsPerSecond: turns / elapsed, added, cpuPerTurn: (used.user + used.system) / 1000 / turns };
}

const model = await startModelServer();
const dataDir = mkdtempSync(join(tmpdir(), 'aalis-concurrency-'));
const running = await startAalis({
  cwd: dataDir,
  mode: 'none',
  banner: false,
  createConfigIfMissing: false,
  env: {
    AALIS_LLM_BASE_URL: model.url,
    AALIS_LLM_MODEL: 'bench-model',
    AALIS_DATA_DIR: dataDir,
    AALIS_LOG_LEVEL: 'info',
  },
});
const service = running.app.services.selected(agent)!.impl;
const say = (sessionId: string, content: string) =>
  service.handleMessage({ sessionId, platform: 'cli', sender: { userId: `u-${sessionId}` }, content });
try {
  // Warm-up, and the request bodies the raw floor replays.
  for (let index = 0; index < 5; index++) await say('bench:warm', `what is 6*7? (${index})`);
  const [first, second] = model.bodies;
  const rows: string[] = [];
  for (const count of LEVELS) {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const product = await runClients(count, (client, index) =>
      say(`bench:${count}:${client}`, `what is 6*7? (${index})`),
    );
    gc();
    const perSession = (process.memoryUsage().heapUsed - heapBefore) / count / 1024;
    const raw = await runClients(count, async () => {
      await rawCall(model.url, first!);
      await rawCall(model.url, second!);
    });
    const ideal = count / ((2 * LATENCY_MS) / 1000);
    rows.push(
      `| ${String(count).padStart(8)} | ${product.turnsPerSecond.toFixed(0).padStart(7)} (${((100 * product.turnsPerSecond) / ideal).toFixed(0)}%) | ${raw.turnsPerSecond.toFixed(0).padStart(7)} (${((100 * raw.turnsPerSecond) / ideal).toFixed(0)}%) | ${(product.turnsPerSecond / raw.turnsPerSecond).toFixed(2)}× | ${percentile(product.added, 0.5).toFixed(0)} / ${percentile(product.added, 0.99).toFixed(0)} | ${percentile(raw.added, 0.5).toFixed(0)} / ${percentile(raw.added, 0.99).toFixed(0)} | ${(percentile(product.added, 0.99) / Math.max(1, percentile(raw.added, 0.99))).toFixed(2)}× | ${product.cpuPerTurn.toFixed(2)} / ${raw.cpuPerTurn.toFixed(2)} = ${(product.cpuPerTurn / raw.cpuPerTurn).toFixed(2)}× | ${perSession.toFixed(1)} |`,
    );
  }
  console.log(
    `Tool turns (2 model calls, ${LATENCY_MS} ms each), ${TURNS_PER_SESSION} per session, all sessions at once; product = startAalis with SQLite, hooks, usage events, file log`,
  );
  console.log(
    '| sessions | product turns/s (of ideal) | raw turns/s (of ideal) | ratio | product added ms p50 / p99 | raw p50 / p99 | p99 ratio | CPU ms per turn product / raw | heap KB per session |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    'Goals: ratio ≥ 0.65×; p99 ratio at 100 ≤ 1.5×; CPU ratio ≤ 1.5×; ≤ 10 KB heap per idle session (history and caches included)',
  );
} finally {
  await running.stop();
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
}
