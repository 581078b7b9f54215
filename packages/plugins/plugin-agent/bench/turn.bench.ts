// npm run bench turn — per-turn time of a tool-calling turn (two model calls against the zero-latency test server,
// SQLite persistence, every hook and service of the real App) against a raw-fetch loop making the same two calls
// with the same request bodies, at 50 and 500 history messages.
import { memory } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { startHarness } from '../src/agent-harness.case.js';

const TURNS = 100;
const WARMUP = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function rawCall(url: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // Read the whole SSE stream, as a minimal client would.
  const reader = response.body!.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
}

async function measure(historySize: number): Promise<{ agentMs: number; rawMs: number }> {
  const harness = await startHarness({
    tools: [
      {
        name: 'lookup',
        description: 'Looks something up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        handler: ({ q }) => `result for ${String(q)}`,
      },
    ],
  });
  try {
    const store = harness.booted.app.services.selected(memory)!.impl;
    const seed: Message[] = [];
    for (let index = 0; index < historySize; index++) {
      seed.push(
        index % 2 === 0
          ? {
              role: 'user',
              content: `[2026-11-29 10:00] owner: question number ${index} about the project plan and its risks`,
            }
          : {
              role: 'assistant',
              content: `answer ${index}: here is a reasonably sized reply with some detail about the plan.`,
            },
      );
    }
    await store.append('cli:owner', seed);
    const agentTimes: number[] = [];
    for (let turn = 0; turn < TURNS + WARMUP; turn++) {
      harness.server.enqueue(
        toolCallReply([{ id: `c${turn}`, name: 'lookup', arguments: { q: `t${turn}` } }]),
        textReply('done'),
      );
      const start = performance.now();
      await harness.say(`turn ${turn}`);
      if (turn >= WARMUP) agentTimes.push(performance.now() - start);
    }
    // The raw loop replays the bodies the agent sent (same sizes, same server work).
    const bodies = harness.requests();
    const rawTimes: number[] = [];
    for (let turn = 0; turn < TURNS + WARMUP; turn++) {
      harness.server.enqueue(
        toolCallReply([{ id: `r${turn}`, name: 'lookup', arguments: { q: 'x' } }]),
        textReply('done'),
      );
      const first = bodies[turn * 2]!;
      const second = bodies[turn * 2 + 1]!;
      const start = performance.now();
      await rawCall(harness.server.url, first);
      await rawCall(harness.server.url, second);
      if (turn >= WARMUP) rawTimes.push(performance.now() - start);
    }
    return { agentMs: median(agentTimes), rawMs: median(rawTimes) };
  } finally {
    await harness.close();
  }
}

const rows: string[] = [];
for (const size of [50, 500]) {
  const { agentMs, rawMs } = await measure(size);
  rows.push(
    `| ${String(size).padStart(7)} | ${agentMs.toFixed(2).padStart(9)} | ${rawMs.toFixed(2).padStart(9)} | ${(agentMs / rawMs).toFixed(2).padStart(6)}× |`,
  );
}
console.log('Tool-calling turn (2 model calls), median of 100 turns after 5 warm-up turns');
console.log('| history | agent ms  | raw ms    | ratio   |');
console.log('|---------|-----------|-----------|---------|');
for (const row of rows) console.log(row);
console.log('Goal: ratio ≤ 1.5×');
