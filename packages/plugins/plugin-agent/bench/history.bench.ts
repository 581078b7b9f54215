// npm run bench history — a tool-calling turn's cost over its own replay floor (the same request bodies over raw HTTP)
// at 1k and 100k active messages, summary off and no historyLimit, so the request stays capped by the trim while the
// stored history grows. Goal: ratio at 100k ≤ 1.2× the ratio at 1k.
//
// How it stays honest (before, the model server and the floor ran in this process and the sizes sent different
// requests):
// - Three processes: the agent here, the model server (history-model-server.ts) and the floor (history-floor.ts)
//   each in their own. In this process the server's CPU was added to both sides (pulling the ratio towards 1) and
//   the floor ran on the agent's heap, so at 100k it paid for GC of the 100k messages and looked slower than at 1k.
// - The same work per turn at both sizes: the seeds end in the same messages (numbered from the end) and a padding
//   pair at the start of each makes its history a multiple of the trim's unit in tokens, so step 1 keeps the same
//   tail and every turn sends the same request at both sizes (printed: "same requests").
// - BENCH_SIZES=1000,1000 is the control: two identical subjects show what the machine's noise and the order of
//   the subjects alone make of the ratio (on a loaded machine the wall ratio reads up to ~1.3× that way).
// - Both sizes are set up first and their turns alternate after warm-up turns of each (one size after the other
//   gave the later one a warmer floor); each figure is the median over the counted turns, CPU and wall, and the
//   goal's growth is the median of the turns' paired ratios (each turn's two sizes ran milliseconds apart).
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { memory } from '@aalis/api-memory';
import { estimateMessageTokens, trimBudget } from '@aalis/context-budget';
import type { Message } from '@aalis/schema-message';
import { type OpenAiTestServer, type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { startHarness } from '../src/agent-harness.case.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const TURNS = Number(process.env.BENCH_TURNS ?? 100);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
/** BENCH_PROFILE=<file>: a CPU profile of the counted turns (node packages/host/runtime/bench/cpuprofile-summary.mjs). */
const PROFILE = process.env.BENCH_PROFILE;
const CONTEXT_WINDOW = 32_000;
const MAX_OUTPUT_TOKENS = 1_024;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** A helper process run through tsx like this one; `ask` sends a message and waits for the next answer. */
async function startChild<T>(
  file: string,
): Promise<{ child: ChildProcess; first: T; ask<A>(message: unknown): Promise<A> }> {
  const child = fork(join(import.meta.dirname, file), [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: 'inherit',
  });
  const next = <A>() =>
    new Promise<A>((resolve, reject) => {
      // A helper that is gone (crashed, or killed from outside) fails the bench instead of leaving it waiting.
      if (child.exitCode !== null || child.signalCode !== null)
        return reject(new Error(`${file} is gone (${child.exitCode ?? child.signalCode})`));
      const exit = (code: number | null, signal: string | null) =>
        reject(new Error(`${file} exited with ${code ?? signal}`));
      child.once('exit', exit);
      child.once('message', (message) => {
        child.off('exit', exit);
        resolve(message as A);
      });
    });
  const first = await next<T>();
  return {
    child,
    first,
    ask<A>(message: unknown) {
      const answer = next<A>();
      child.send(message as object);
      return answer;
    },
  };
}

/** `size` messages, user and assistant in turn, numbered from the end: every seed ends in the same messages. */
export function seedHistory(size: number): Message[] {
  const seed: Message[] = [];
  for (let index = 0; index < size; index++) {
    const fromEnd = size - index;
    seed.push(
      fromEnd % 2 === 0
        ? { role: 'user', content: `[2026-11-29 10:00] owner: question number ${fromEnd} about the plan and its risks` }
        : {
            role: 'assistant',
            content: `answer ${fromEnd}: a reasonably sized reply with some detail about the plan.`,
          },
    );
  }
  return seed;
}

const tokensOf = (messages: readonly Message[]) => messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);

/**
 * A user/assistant pair to put before `seed` so that its tokens are a multiple of the trim unit: step 1 then drops
 * whole units down to the same tail at every size, and all sizes send the same request. Every size gets one, so
 * their histories have the same shape.
 */
function paddingPair(seed: readonly Message[], unit: number): Message[] {
  const reply: Message = { role: 'assistant', content: 'noted.' };
  const missing = ((-tokensOf(seed) % unit) + unit) % unit;
  const words = 'the plan and its risks, ';
  const user = (length: number): Message => ({
    role: 'user',
    content: words.repeat(Math.ceil(length / words.length) + 1).slice(0, length),
  });
  for (let wanted = missing; wanted < missing + 3 * unit; wanted += unit) {
    const target = wanted - estimateMessageTokens(reply);
    // The estimate grows with the text's length: bisect to the shortest text that reaches the target, then step.
    let low = 0;
    let high = 8 * Math.max(target, 1) + 64;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (estimateMessageTokens(user(middle)) >= target) high = middle;
      else low = middle + 1;
    }
    for (let length = low; length < low + 16; length++) {
      const candidate = user(length);
      if (estimateMessageTokens(candidate) === target) return [candidate, reply];
    }
  }
  throw new Error(`bench history: no padding makes the seed a multiple of ${unit} tokens`);
}

type Harness = Awaited<ReturnType<typeof startHarness>>;

interface Subject {
  size: number;
  harness: Harness;
  wall: number[];
  cpu: number[];
  rawWall: number[];
  rawCpu: number[];
  /** Request bodies of each counted turn (to compare the sizes). */
  sent: string[][];
}

const modelServer = await startChild<{ url: string }>('history-model-server.ts');
const floor = await startChild<'ready'>('history-floor.ts');
const url = modelServer.first.url;
const unavailable = () => {
  throw new Error('bench history: the model server runs in its own process (history-model-server.ts)');
};
// The harness talks to the server by its URL; what it would read from an in-process server is asked over IPC here.
const remoteServer: OpenAiTestServer = {
  url,
  requests: [],
  chatBodies: unavailable,
  enqueue: unavailable,
  enqueueWhen: unavailable,
  failModels: unavailable,
  failEmbeddings: unavailable,
  embeddedTexts: unavailable,
  pending: unavailable,
  reset: unavailable,
  close: async () => {},
};

async function subject(size: number): Promise<Subject> {
  const harness = await startHarness({
    server: remoteServer,
    contextWindow: CONTEXT_WINDOW,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
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
  const { unit } = trimBudget({ contextWindow: CONTEXT_WINDOW, maxOutputTokens: MAX_OUTPUT_TOKENS });
  const unpadded = seedHistory(size);
  const seed = [...paddingPair(unpadded, unit), ...unpadded];
  for (let offset = 0; offset < seed.length; offset += 10_000)
    await store.append('cli:owner', seed.slice(offset, offset + 10_000));
  return { size, harness, wall: [], cpu: [], rawWall: [], rawCpu: [], sent: [] };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One agent turn, then at once the floor's replay of its two request bodies, so both see the same load. */
async function turnOf(subject: Subject, turn: number, counted: boolean): Promise<void> {
  const replies: ScriptedReply[] = [
    toolCallReply([{ id: `c${turn}`, name: 'lookup', arguments: { q: `t${turn}` } }]),
    textReply('done'),
  ];
  await modelServer.ask({ enqueue: replies });
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await subject.harness.say(`turn ${turn}`);
  // What the turn left for the loop's next turns (the group commit of its writes) is part of its cost.
  await settle();
  await settle();
  const cpu = cpuMs(cpuStart);
  const wall = performance.now() - start;
  const { bodies, rejected } = await modelServer.ask<{ bodies: string[]; rejected: string[] }>('bodies');
  if (rejected.length > 0) throw new Error(`bench history: the model server rejected: ${rejected.join('; ')}`);
  if (bodies.length !== 2) throw new Error(`bench history: expected 2 model calls per turn, got ${bodies.length}`);
  const raw = await floor.ask<{ cpuMs: number; wallMs: number; error?: string }>({ url, bodies });
  if (raw.error) throw new Error(`bench history: the floor failed: ${raw.error}`);
  await modelServer.ask('bodies'); // the floor's own calls are forgotten
  if (!counted) return;
  subject.cpu.push(cpu);
  subject.wall.push(wall);
  subject.rawCpu.push(raw.cpuMs);
  subject.rawWall.push(raw.wallMs);
  subject.sent.push(bodies);
}

interface Row {
  size: number;
  agentMs: number;
  agentCpu: number;
  rawMs: number;
  rawCpu: number;
  sent: number;
}

// Every size is set up first, then their turns alternate (1k, 100k, 100k, 1k, …): the process warms up (JIT, caches)
// over the whole run, so measuring one size after the other would give the later one a warmer floor.
const subjects: Subject[] = [];
const profiler = {
  session: undefined as Session | undefined,
  async start() {
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.start');
  },
  async stop() {
    const { profile } = await this.session!.post('Profiler.stop');
    this.session!.disconnect();
    return profile;
  },
};
const rows: Row[] = [];
let serverCpu = 0;
try {
  for (const size of SIZES) subjects.push(await subject(size));
  for (let turn = 0; turn < TURNS + WARMUP; turn++) {
    if (turn === WARMUP) {
      await modelServer.ask('cpu');
      if (PROFILE) await profiler.start();
    }
    for (const each of turn % 2 === 0 ? subjects : [...subjects].reverse()) await turnOf(each, turn, turn >= WARMUP);
  }
  serverCpu = (await modelServer.ask<{ cpuMs: number }>('cpu')).cpuMs;
  if (PROFILE) writeFileSync(PROFILE, JSON.stringify(await profiler.stop()));
  for (const each of subjects) {
    const counts = each.sent.map(([first]) => (JSON.parse(first!) as { messages: unknown[] }).messages.length);
    rows.push({
      size: each.size,
      agentMs: median(each.wall),
      agentCpu: median(each.cpu),
      rawMs: median(each.rawWall),
      rawCpu: median(each.rawCpu),
      sent: median(counts),
    });
  }
} finally {
  for (const each of subjects) await each.harness.close();
  for (const helper of [modelServer.child, floor.child]) if (helper.connected) helper.disconnect();
}
const [small, large] = rows as [Row, Row];
const same = subjects[1]
  ? subjects[1].sent.filter((bodies, index) => bodies.join('\n') === subjects[0]!.sent[index]!.join('\n')).length
  : 0;
const fmt = (value: number, width = 8) => value.toFixed(2).padStart(width);
console.log(
  `Tool-calling turn (2 model calls), median of ${TURNS} turns after ${WARMUP} warm-up turns of each size, the sizes' turns alternating; summary off`,
);
console.log(
  `Same requests at both sizes: ${same} of ${TURNS} turns; model server (own process) ${(serverCpu / (TURNS * rows.length)).toFixed(2)} CPU ms per turn, in neither figure`,
);
console.log('| active   | sent  | agent ms | agent CPU ms | raw ms   | raw CPU ms | ms ratio | CPU ratio |');
console.log('|----------|-------|----------|--------------|----------|------------|----------|-----------|');
for (const row of rows) {
  console.log(
    `| ${String(row.size).padStart(8)} | ${String(row.sent).padStart(5)} | ${fmt(row.agentMs)} | ${fmt(row.agentCpu, 12)} | ${fmt(row.rawMs)} | ${fmt(row.rawCpu, 10)} | ${fmt(row.agentMs / row.rawMs, 7)}× | ${fmt(row.agentCpu / row.rawCpu, 8)}× |`,
  );
}
const growth = (pick: (row: Row) => number) => pick(large) / pick(small);
/**
 * The goal's figure: the median over the counted turns of (large's ratio ÷ small's ratio) in the same turn. The two
 * sizes' turn t run within milliseconds of each other, so a change of the machine's load between turns cancels out.
 */
function pairedGrowth(agent: (each: Subject) => number[], raw: (each: Subject) => number[]): number {
  const [a, b] = subjects as [Subject, Subject];
  const ratios = agent(a).map((_, turn) => agent(b)[turn]! / raw(b)[turn]! / (agent(a)[turn]! / raw(a)[turn]!));
  return median(ratios);
}
if (process.env.BENCH_DUMP)
  writeFileSync(
    process.env.BENCH_DUMP,
    JSON.stringify(subjects.map(({ size, wall, cpu, rawWall, rawCpu }) => ({ size, wall, cpu, rawWall, rawCpu }))),
  );
// One size (BENCH_SIZES=100000, e.g. to profile it alone) prints its row only.
if (large) {
  console.log(
    `Ratio of the medians above: at ${large.size} ÷ at ${small.size} — wall ${growth((row) => row.agentMs / row.rawMs).toFixed(2)}×, CPU ${growth((row) => row.agentCpu / row.rawCpu).toFixed(2)}×`,
  );
  console.log(
    `Goal 1: ratio at ${large.size} ÷ ratio at ${small.size} ≤ 1.2× (median of the turns' paired ratios) — wall ${pairedGrowth(
      (each) => each.wall,
      (each) => each.rawWall,
    ).toFixed(2)}×, CPU ${pairedGrowth(
      (each) => each.cpu,
      (each) => each.rawCpu,
    ).toFixed(2)}×`,
  );
}
