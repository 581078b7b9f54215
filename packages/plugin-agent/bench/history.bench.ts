// npm run bench history — issue #15 goal 1: a tool-calling turn's cost over its own replay floor (the same request
// bodies over raw HTTP) at 1k and 100k active messages, summary off and no historyLimit, so the request stays capped
// by the trim while the stored history grows. Goal: ratio at 100k ≤ 1.2× the ratio at 1k.
import { memory } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { startHarness } from '../src/agent-harness.case.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const WARMUP = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function rawCall(url: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const reader = response.body!.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
}

export function seedHistory(size: number): Message[] {
  const seed: Message[] = [];
  for (let index = 0; index < size; index++) {
    seed.push(
      index % 2 === 0
        ? { role: 'user', content: `[2026-11-29 10:00] owner: question number ${index} about the plan and its risks` }
        : { role: 'assistant', content: `answer ${index}: a reasonably sized reply with some detail about the plan.` },
    );
  }
  return seed;
}

interface Row {
  size: number;
  agentMs: number;
  agentCpu: number;
  rawMs: number;
  rawCpu: number;
  sent: number;
}

async function measure(size: number, turns = TURNS): Promise<Row> {
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
    const seed = seedHistory(size);
    for (let offset = 0; offset < seed.length; offset += 10_000)
      await store.append('cli:owner', seed.slice(offset, offset + 10_000));
    // Each agent turn is followed at once by the raw replay of its two request bodies, so both see the same load
    // on a shared machine.
    const wall: number[] = [];
    const cpu: number[] = [];
    const rawWall: number[] = [];
    const rawCpu: number[] = [];
    for (let turn = 0; turn < turns + WARMUP; turn++) {
      harness.server.enqueue(
        toolCallReply([{ id: `c${turn}`, name: 'lookup', arguments: { q: `t${turn}` } }]),
        textReply('done'),
      );
      let start = performance.now();
      let cpuStart = process.cpuUsage();
      await harness.say(`turn ${turn}`);
      if (turn >= WARMUP) {
        cpu.push(cpuMs(cpuStart));
        wall.push(performance.now() - start);
      }
      const bodies = harness.requests();
      const [first, second] = bodies.slice(-2);
      harness.server.enqueue(
        toolCallReply([{ id: `r${turn}`, name: 'lookup', arguments: { q: 'x' } }]),
        textReply('done'),
      );
      start = performance.now();
      cpuStart = process.cpuUsage();
      await rawCall(harness.server.url, first);
      await rawCall(harness.server.url, second);
      if (turn >= WARMUP) {
        rawCpu.push(cpuMs(cpuStart));
        rawWall.push(performance.now() - start);
      }
    }
    const bodies = harness.requests();
    const sent = bodies[bodies.length - 1]!.messages.length;
    return {
      size,
      agentMs: median(wall),
      agentCpu: median(cpu),
      rawMs: median(rawWall),
      rawCpu: median(rawCpu),
      sent,
    };
  } finally {
    await harness.close();
  }
}

// A throw-away run first, so the first size measured does not also pay for warming the process up.
await measure(SIZES[0]!, 10);
const rows: Row[] = [];
for (const size of SIZES) rows.push(await measure(size));
const fmt = (value: number, width = 8) => value.toFixed(2).padStart(width);
console.log(`Tool-calling turn (2 model calls), median of ${TURNS} turns after ${WARMUP} warm-up turns; summary off`);
console.log('| active   | sent  | agent ms | agent CPU ms | raw ms   | raw CPU ms | ms ratio | CPU ratio |');
console.log('|----------|-------|----------|--------------|----------|------------|----------|-----------|');
for (const row of rows) {
  console.log(
    `| ${String(row.size).padStart(8)} | ${String(row.sent).padStart(5)} | ${fmt(row.agentMs)} | ${fmt(row.agentCpu, 12)} | ${fmt(row.rawMs)} | ${fmt(row.rawCpu, 10)} | ${fmt(row.agentMs / row.rawMs, 7)}× | ${fmt(row.agentCpu / row.rawCpu, 8)}× |`,
  );
}
const [small, large] = rows as [Row, Row];
const growth = (pick: (row: Row) => number) => pick(large) / pick(small);
console.log(
  `Goal 1: ratio at ${large.size} ÷ ratio at ${small.size} ≤ 1.2× — wall ${growth((row) => row.agentMs / row.rawMs).toFixed(2)}×, CPU ${growth((row) => row.agentCpu / row.rawCpu).toFixed(2)}×`,
);
