// npm run bench peers — how Aalis's cost per turn compares with other agent loops: in one process, against one local
// model server (a child process, so no figure includes the server's work), the raw HTTP floor, LangGraph.js
// createReactAgent, the AI SDK's generateText tool loop and Aalis as the product runs (startAalis: SQLite, hooks, usage
// events, file log). Part 1: wall and CPU ms per tool turn (user message → one tool call → tool result → reply), rounds
// interleaved across the frameworks after a warm-up, medians, and each framework's ratio to its own raw floor (its own
// request bodies replayed over fetch). Part 2: prompt-cache share over a long chat at 4k and 8k token budgets, each
// framework trimming its own way (LangChain trimMessages 'last', an AI SDK sliding window, Aalis's default).
// BENCH_ROUNDS, BENCH_TURNS (tool turns per round) and BENCH_CHAT_TURNS override the sizes (BENCH_CHAT_TURNS=0 skips
// part 2); BENCH_FRAMEWORKS=aalis,… runs only those; BENCH_PROFILE=<file> writes a CPU profile of extra Aalis rounds
// after part 1 (node packages/host/runtime/bench/cpuprofile-summary.mjs <file> reads it); BENCH_HEAP_PROFILE=<file> a
// sampling heap profile of extra Aalis rounds and the KB allocated per turn; BENCH_STATEMENTS=1 counts the SQLite
// statements and commits of an Aalis tool turn.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { userMessage } from '../src/model-script.js';
import { type PromptShare, PromptTokenizer } from '../src/prompt-share.js';
import { aalisForm, createAalisAgent, profileToSources } from './aalis-agent.js';
import { createAiSdkAgent } from './ai-sdk-agent.js';
import type { BenchAgent, BenchAgentOptions } from './bench-agent.js';
import { startHeapSampling } from './heap-sampling.js';
import { createLangGraphAgent } from './langgraph-agent.js';
import { startModelServer } from './model-server-client.js';
import { replayBodies } from './raw-floor.js';
import { countStatements, formatStatementCounts } from './sqlite-statements.js';
import { ThreadShares, threadTicks } from './thread-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/** Rounds each framework runs before any is measured (V8 still compiles the code of all of them through the first). */
const WARM_UP_ROUNDS = Number(process.env.BENCH_WARM_UP_ROUNDS ?? 2);
const TURNS_PER_ROUND = Number(process.env.BENCH_TURNS ?? 5);
const CHAT_TURNS = Number(process.env.BENCH_CHAT_TURNS ?? 200);
/** Every fourth turn of the long chat asks for a lookup (a tool round); the others are plain chat. */
const LOOKUP_EVERY = 4;
const BUDGETS = [4096, 8192];

const ALL_FRAMEWORKS: Array<{ key: string; create: (options: BenchAgentOptions) => Promise<BenchAgent> }> = [
  { key: 'aalis', create: createAalisAgent },
  { key: 'langgraph', create: createLangGraphAgent },
  { key: 'ai-sdk', create: createAiSdkAgent },
];
const WANTED = process.env.BENCH_FRAMEWORKS?.split(',').map((key) => key.trim());
const FRAMEWORKS = ALL_FRAMEWORKS.filter(({ key }) => !WANTED || WANTED.includes(key));
if (FRAMEWORKS.length === 0) {
  throw new Error(
    `BENCH_FRAMEWORKS=${process.env.BENCH_FRAMEWORKS} names none of ${ALL_FRAMEWORKS.map(({ key }) => key).join(', ')}`,
  );
}
/** BENCH_PROFILE=<file>: a CPU profile of ROUNDS more Aalis rounds, run back to back after part 1. */
const PROFILE = process.env.BENCH_PROFILE;
/** BENCH_HEAP_PROFILE=<file>: a sampling heap profile (collected objects included) of ROUNDS more Aalis rounds. */
const HEAP_PROFILE = process.env.BENCH_HEAP_PROFILE;
/** BENCH_STATEMENTS=1: the SQLite statements and commits of an Aalis tool turn, counted over a few more rounds. */
const STATEMENTS = Boolean(process.env.BENCH_STATEMENTS);

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Wall and CPU ms of one piece of work in this process (every thread: process.cpuUsage). No forced GC between
 * pieces: a forced full collection makes V8 drop compiled code, so every framework would run partly cold
 * (docs/decisions/turn-cost.md); collections happen where they fall, as in a real process.
 */
async function measure(work: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number; systemMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, systemMs: used.system / 1000 };
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The installed version of a package, found as Node resolves it from here (the package's own node_modules first). */
function version(name: string): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', ...name.split('/'), 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

const server = await startModelServer();
const root = mkdtempSync(join(tmpdir(), 'aalis-bench-peers-'));
const fresh = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Takes the server's recorded bodies, failing the bench when any request was rejected or the count is off. */
async function takeBodies(label: string, expected?: number): Promise<Array<Record<string, unknown>>> {
  const { bodies, rejected } = await server.take();
  if (rejected.length > 0) throw new Error(`${label}: the model server rejected ${rejected.length}: ${rejected[0]}`);
  if (expected !== undefined && bodies.length !== expected) {
    throw new Error(`${label}: ${bodies.length} model calls, expected ${expected} (2 per tool turn)`);
  }
  return bodies;
}

/** Agents not closed yet: a failing run closes them too, so it leaves nothing running. */
const openAgents = new Set<BenchAgent>();
async function open(create: (options: BenchAgentOptions) => Promise<BenchAgent>, options: BenchAgentOptions) {
  const agent = await create(options);
  openAgents.add(agent);
  return agent;
}
async function close(agent: BenchAgent): Promise<void> {
  openAgents.delete(agent);
  await agent.close();
}

/** Starts the V8 sampling profiler in this process; the function returned stops it and gives the profile. */
async function startProfiler(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

async function toolTurns(agent: BenchAgent, session: string): Promise<void> {
  for (let turn = 1; turn <= TURNS_PER_ROUND; turn++) await agent.turn(session, userMessage(turn, true));
}

try {
  console.log(
    `Node ${process.version}; peers: @langchain/langgraph ${version('@langchain/langgraph')}, @langchain/core ${version('@langchain/core')}, @langchain/openai ${version('@langchain/openai')}, @langchain/langgraph-checkpoint-sqlite ${version('@langchain/langgraph-checkpoint-sqlite')}, ai ${version('ai')}, @ai-sdk/openai-compatible ${version('@ai-sdk/openai-compatible')}`,
  );

  // Part 1: CPU and wall time per tool turn.
  const agents = new Map<string, BenchAgent>();
  for (const { key, create } of FRAMEWORKS) agents.set(key, await open(create, { url: server.url, dir: fresh(key) }));
  if (agents.has('aalis')) console.log(`Aalis runs as ${await aalisForm()}`);
  const floorBodies = new Map<string, string[]>();
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const [key, agent] of agents) {
      await toolTurns(agent, `warm-${round}`);
      const bodies = await takeBodies(agent.name, 2 * TURNS_PER_ROUND);
      if (round === 0)
        floorBodies.set(
          key,
          bodies.map((body) => JSON.stringify(body)),
        );
    }
  }
  for (const [key, bodies] of floorBodies)
    await replayBodies(server.url, bodies).then(() => takeBodies(`${key} floor`));
  const subjects = [...agents.keys()].flatMap((key) => [key, `${key}:floor`]);
  const figures = new Map<string, Array<{ wallMs: number; cpuMs: number; systemMs: number }>>(
    subjects.map((key) => [key, []]),
  );
  const threads = new ThreadShares();
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another subject, so no one always runs right after the same neighbour.
    const order = subjects.map((_, index) => subjects[(index + round) % subjects.length]!);
    for (const subject of order) {
      const [key, floor] = subject.split(':');
      const ticks = threadTicks();
      const figure = floor
        ? await measure(() => replayBodies(server.url, floorBodies.get(key!)!))
        : await measure(() => toolTurns(agents.get(key!)!, `round-${round}`));
      threads.add(subject, ticks, threadTicks());
      await takeBodies(subject, 2 * TURNS_PER_ROUND);
      figures.get(subject)!.push({
        wallMs: figure.wallMs / TURNS_PER_ROUND,
        cpuMs: figure.cpuMs / TURNS_PER_ROUND,
        systemMs: figure.systemMs / TURNS_PER_ROUND,
      });
    }
  }
  const aalisAgent = agents.get('aalis');
  if (PROFILE && aalisAgent) {
    const stop = await startProfiler();
    for (let round = 0; round < ROUNDS; round++) {
      await toolTurns(aalisAgent, `profiled-${round}`);
      await takeBodies('aalis (profiled)', 2 * TURNS_PER_ROUND);
    }
    writeFileSync(PROFILE, JSON.stringify(await profileToSources(await stop())));
    console.log(`CPU profile of ${ROUNDS} more Aalis rounds written to ${PROFILE}`);
  }
  if (HEAP_PROFILE && aalisAgent) {
    const stop = await startHeapSampling();
    for (let round = 0; round < ROUNDS; round++) {
      await toolTurns(aalisAgent, `heap-${round}`);
      await takeBodies('aalis (heap profile)', 2 * TURNS_PER_ROUND);
    }
    const { profile, bytes } = await stop();
    writeFileSync(HEAP_PROFILE, JSON.stringify(await profileToSources(profile)));
    const perTurn = bytes / 1024 / (ROUNDS * TURNS_PER_ROUND);
    console.log(
      `Aalis allocated ${perTurn.toFixed(1)} KB per tool turn (sampled, collected objects and the bench's IPC included); heap profile of ${ROUNDS} more rounds written to ${HEAP_PROFILE}`,
    );
  }
  if (STATEMENTS && aalisAgent) {
    const stop = countStatements();
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      await toolTurns(aalisAgent, `counted-${round}`);
      await takeBodies('aalis (statements counted)', 2 * TURNS_PER_ROUND);
    }
    console.log(formatStatementCounts(stop(), rounds * TURNS_PER_ROUND));
  }
  for (const agent of agents.values()) await close(agent);
  await takeBodies('closing');

  const perTurn = (subject: string) => ({
    wallMs: median(figures.get(subject)!.map((figure) => figure.wallMs)),
    cpuMs: median(figures.get(subject)!.map((figure) => figure.cpuMs)),
    systemMs: median(figures.get(subject)!.map((figure) => figure.systemMs)),
  });
  const aalisCpu = agents.has('aalis') ? perTurn('aalis').cpuMs : Number.NaN;
  console.log(
    `\nPart 1 — one tool turn (user message → tool call → tool result → reply, 2 model calls), ${TURNS_PER_ROUND} turns per round, ${WARM_UP_ROUNDS} warm-up rounds, medians of ${ROUNDS} interleaved rounds; no trimming`,
  );
  console.log(
    table(
      [
        'framework',
        'ms per turn',
        'CPU ms per turn (system)',
        'its raw floor: ms / CPU ms (system)',
        'CPU × its floor',
        'CPU × Aalis',
      ],
      [...agents].map(([key, agent]) => {
        const own = perTurn(key);
        const floor = perTurn(`${key}:floor`);
        return [
          agent.name,
          own.wallMs.toFixed(2),
          `${own.cpuMs.toFixed(2)} (${own.systemMs.toFixed(2)})`,
          `${floor.wallMs.toFixed(2)} / ${floor.cpuMs.toFixed(2)} (${floor.systemMs.toFixed(2)})`,
          `${(own.cpuMs / floor.cpuMs).toFixed(2)}×`,
          `${(own.cpuMs / aalisCpu).toFixed(2)}×`,
        ];
      }),
    ),
  );
  console.log(
    'raw floor: the framework’s own request bodies of one round, replayed in order over fetch, each response read to its end',
  );
  // The same ratio per round (a framework's round against its floor's round of the same pass, seconds apart), so a
  // change of the machine's load between rounds cancels out; their median and spread.
  const roundRatios = (key: string) =>
    figures.get(key)!.map((figure, round) => figure.cpuMs / figures.get(`${key}:floor`)![round]!.cpuMs);
  for (const [key, agent] of agents) {
    const ratios = roundRatios(key);
    const sorted = [...ratios].sort((a, b) => a - b);
    const split = [threads.describe(key), threads.describe(`${key}:floor`)];
    console.log(
      `${agent.name}: CPU × its floor per round, median ${median(ratios).toFixed(2)}× (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})` +
        (split[0] && split[1] ? `; its CPU: ${split[0]}, its floor's: ${split[1]}` : ''),
    );
  }
  const aalisRatio = aalisCpu / (agents.has('aalis') ? perTurn('aalis:floor').cpuMs : Number.NaN);
  if (agents.has('aalis'))
    console.log(
      `Aalis CPU per tool turn ${aalisRatio.toFixed(2)}× its floor (median of rounds' ratios ${median(roundRatios('aalis')).toFixed(2)}×) — issue #15 goal 2 (≤ 1.5×, one session here; npm run bench concurrency measures it under load) ${aalisRatio <= 1.5 ? 'met' : 'NOT met'}`,
    );

  // Part 2: prompt-cache share over a long chat with each framework's own trimming.
  if (CHAT_TURNS > 0) await longChats();
} finally {
  for (const agent of openAgents) await agent.close().catch(() => {});
  await server.close();
  rmSync(root, { recursive: true, force: true });
}

async function longChats(): Promise<void> {
  const tokenizer = new PromptTokenizer();
  const isConversation = (body: Record<string, unknown>) =>
    Array.isArray(body.tools) &&
    body.tool_choice !== 'none' &&
    (body.tools as Array<{ function?: { name?: string } }>).some((tool) => tool.function?.name === 'lookup');
  const chatRows: string[][] = [];
  const shares = new Map<string, PromptShare>();
  const uncachedPerTurn = new Map<string, number>();
  for (const budget of BUDGETS) {
    for (const { key, create } of FRAMEWORKS) {
      const agent = await open(create, { url: server.url, dir: fresh(`${key}-${budget}`), budget });
      const figure = await measure(async () => {
        for (let turn = 1; turn <= CHAT_TURNS; turn++) {
          await agent.turn('long-chat', userMessage(turn, turn % LOOKUP_EVERY === 0));
        }
      });
      await close(agent);
      const bodies = await takeBodies(`${agent.name} long chat`);
      const conversation = bodies.filter(isConversation);
      const share = tokenizer.share(conversation);
      const all = tokenizer.share(bodies);
      const other = bodies.filter((body) => !isConversation(body));
      const otherTokens = other.reduce((sum, body) => sum + tokenizer.count(body), 0);
      shares.set(`${key}:${budget}`, share);
      // What a turn costs in input the cache cannot serve, every request counted (summary calls included).
      const uncached = (all.promptTokens - all.prefixTokens) / CHAT_TURNS;
      uncachedPerTurn.set(`${key}:${budget}`, uncached);
      chatRows.push([
        agent.name,
        `${budget / 1024}k`,
        String(conversation.length),
        String(Math.round(share.promptTokens / Math.max(1, share.requests))),
        `${(100 * share.share).toFixed(1)}%`,
        other.length === 0 ? '—' : `${other.length} (${otherTokens} tokens); all: ${(100 * all.share).toFixed(1)}%`,
        Math.round(uncached).toString(),
        (figure.wallMs / CHAT_TURNS).toFixed(2),
        (figure.cpuMs / CHAT_TURNS).toFixed(2),
      ]);
    }
  }
  console.log(
    `\nPart 2 — a ${CHAT_TURNS}-turn chat (every ${LOOKUP_EVERY}th turn a tool round), each framework trimming its own way to the budget; share = prompt tokens (o200k) of each conversation request that equal the start of the previous one's prompt ÷ all their prompt tokens, requests 2…n`,
  );
  console.log(
    table(
      [
        'framework',
        'budget',
        'requests',
        'mean prompt tokens',
        'prompt-cache share',
        'other requests (summary)',
        'uncached tokens per turn',
        'ms per turn',
        'CPU ms per turn',
      ],
      chatRows,
    ),
  );
  console.log(
    'uncached tokens per turn: prompt tokens of every request (summary calls included) that do not repeat the previous request’s prefix, ÷ turns — the input a provider bills at the full rate',
  );
  console.log(
    'trimming: LangGraph trimMessages (strategy last, startOn human, includeSystem, gpt-tokenizer counts) in a preModelHook; AI SDK a sliding window (system kept, the latest messages that fit, from a user message) in prepareStep; Aalis its default (the 5-step trim, memory summary on); Aalis’s window = budget + 1024 max output + 512 margin',
  );
  for (const budget of FRAMEWORKS.length === ALL_FRAMEWORKS.length ? BUDGETS : []) {
    const aalis = shares.get(`aalis:${budget}`)!.share;
    console.log(
      `share ratio at ${budget / 1024}k: Aalis ÷ LangGraph ${(aalis / shares.get(`langgraph:${budget}`)!.share).toFixed(2)}×, Aalis ÷ AI SDK ${(aalis / shares.get(`ai-sdk:${budget}`)!.share).toFixed(2)}×`,
    );
    const cost = uncachedPerTurn.get(`aalis:${budget}`)!;
    console.log(
      `uncached tokens per turn at ${budget / 1024}k: LangGraph ÷ Aalis ${(uncachedPerTurn.get(`langgraph:${budget}`)! / cost).toFixed(2)}×, AI SDK ÷ Aalis ${(uncachedPerTurn.get(`ai-sdk:${budget}`)! / cost).toFixed(2)}×`,
    );
  }
}
