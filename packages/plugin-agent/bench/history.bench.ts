// npm run bench history — issue #15 goal 1: a tool-calling turn's cost over its own replay floor (the same request
// bodies over raw HTTP) at 1k and 100k active messages, summary off and no historyLimit, so the request stays capped
// by the trim while the stored history grows. Goal: ratio at 100k ≤ 1.2× the ratio at 1k.
import { memory } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { startHarness } from '../src/agent-harness.case.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const TURNS = Number(process.env.BENCH_TURNS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);

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

type Harness = Awaited<ReturnType<typeof startHarness>>;

interface Subject {
  size: number;
  harness: Harness;
  wall: number[];
  cpu: number[];
  rawWall: number[];
  rawCpu: number[];
}

async function subject(size: number): Promise<Subject> {
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
  const store = harness.booted.app.services.selected(memory)!.impl;
  const seed = seedHistory(size);
  for (let offset = 0; offset < seed.length; offset += 10_000)
    await store.append('cli:owner', seed.slice(offset, offset + 10_000));
  return { size, harness, wall: [], cpu: [], rawWall: [], rawCpu: [] };
}

/** One agent turn, then at once the raw replay of its two request bodies, so both see the same load. */
async function turnOf(subject: Subject, turn: number, counted: boolean): Promise<void> {
  const { harness } = subject;
  harness.server.enqueue(
    toolCallReply([{ id: `c${turn}`, name: 'lookup', arguments: { q: `t${turn}` } }]),
    textReply('done'),
  );
  let start = performance.now();
  let cpuStart = process.cpuUsage();
  await harness.say(`turn ${turn}`);
  if (counted) {
    subject.cpu.push(cpuMs(cpuStart));
    subject.wall.push(performance.now() - start);
  }
  const [first, second] = harness.requests().slice(-2);
  harness.server.enqueue(toolCallReply([{ id: `r${turn}`, name: 'lookup', arguments: { q: 'x' } }]), textReply('done'));
  start = performance.now();
  cpuStart = process.cpuUsage();
  await rawCall(harness.server.url, first);
  await rawCall(harness.server.url, second);
  if (counted) {
    subject.rawCpu.push(cpuMs(cpuStart));
    subject.rawWall.push(performance.now() - start);
  }
}

// Every size is set up first, then their turns alternate (1k, 100k, 1k, …): the process warms up (JIT, caches) over
// the whole run, so measuring one size after the other would give the later one a warmer floor and skew the ratio.
const subjects: Subject[] = [];
for (const size of SIZES) subjects.push(await subject(size));
const rows: Row[] = [];
try {
  for (let turn = 0; turn < TURNS + WARMUP; turn++) {
    for (const each of turn % 2 === 0 ? subjects : [...subjects].reverse()) await turnOf(each, turn, turn >= WARMUP);
  }
  for (const each of subjects) {
    const bodies = each.harness.requests();
    rows.push({
      size: each.size,
      agentMs: median(each.wall),
      agentCpu: median(each.cpu),
      rawMs: median(each.rawWall),
      rawCpu: median(each.rawCpu),
      sent: bodies[bodies.length - 1]!.messages.length,
    });
  }
} finally {
  for (const each of subjects) await each.harness.close();
}
const fmt = (value: number, width = 8) => value.toFixed(2).padStart(width);
console.log(
  `Tool-calling turn (2 model calls), median of ${TURNS} turns after ${WARMUP} warm-up turns of each size, the sizes' turns alternating; summary off`,
);
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
