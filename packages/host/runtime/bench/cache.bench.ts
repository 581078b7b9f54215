// npm run bench cache — the prompt-cache share of the product (startAalis with the default plugin set: SQLite history,
// message archive, memory summary on, prompt budget) on the four conversation shapes of `npm run bench prefix`
// (context-budget/bench/conversation-shapes.ts) at trim budgets of 4k and 8k tokens, next to the share an ideal
// append-only client could reach on the same requests.
//
// A local OpenAI-compatible server (@aalis/testing) records every request body and answers each conversation call
// with the shape's next tool calls or reply; the bench's tools return the shape's tool results. Summary calls get a
// summary of about 300 tokens, a different one each time. After each turn the bench waits for the memory summary's
// decision and any compaction to finish, as a person's pause between messages would let them.
//
// The figures (cache share, append-only limit with "new" defined exactly, the gap in points and where it comes
// from) are computed in cache-share.ts. Goal: a gap ≤ 3 points for every shape and budget
// (docs/decisions/prompt-cache-share.md). With long-term memory on it also prints what its recalled blocks take of
// the share: their tokens past each request's reused prefix, new recalled text (no cache can hold it) apart from a
// block the previous request carried too (re-sent after a break elsewhere), and the share without the new text
// (docs/decisions/long-term-memory.md).
// Knobs: BENCH_TURNS (default the shapes' 300), BENCH_BUDGETS (4096,8192), BENCH_SHAPES (all), BENCH_SUMMARY_TOKENS
// (300), BENCH_DEBUG=1 (each break), BENCH_VOLATILE=last (a what-if layout, see volatileLast), BENCH_RECALL=keep (a
// what-if: recalled blocks kept with their turns, see recallKeep), BENCH_MEMORY_VECTOR_CONFIG, BENCH_KEEP=1 and
// BENCH_LOG_LEVEL (keep the data directory and its log), BENCH_MEMORY_VECTOR=off.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, type BoundAgent } from '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { tools } from '@aalis/api-tools';
import { definePlugin, type LogRecord } from '@aalis/core';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { type OpenAiTestServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  PROFILES,
  type Profile,
  SHAPE_TOOLS,
  simulate,
  TURNS,
  type Turn,
} from '../../../shared/context-budget/bench/conversation-shapes.js';
import { startAalis } from '../src/start-aalis.js';
import { type Body, type NewMaterial, tally } from './cache-share.js';

const TURN_COUNT = Number(process.env.BENCH_TURNS ?? TURNS);
const BUDGETS = (process.env.BENCH_BUDGETS ?? '4096,8192').split(',').map(Number);
const MAX_OUTPUT_TOKENS = 1024;
const GOAL_POINTS = 3;
/** BENCH_MEMORY_VECTOR=off runs without long-term memory (its recalled block sits after the history). */
const MEMORY_VECTOR_OFF = process.env.BENCH_MEMORY_VECTOR === 'off';
/** BENCH_MEMORY_VECTOR_CONFIG: long-term memory's plugin config as a JSON object (e.g. '{"minTermShare":0.34}'). */
const MEMORY_VECTOR_CONFIG = process.env.BENCH_MEMORY_VECTOR_CONFIG;
/** BENCH_DEBUG=1 prints, per request that loses more than its new material, where its prefix broke. */
const DEBUG = process.env.BENCH_DEBUG === '1';
/**
 * What the summary calls answer: about BENCH_SUMMARY_TOKENS (default 300) o200k tokens of prose, a different text
 * each time (a real summary changes with every compaction: it merges the previous one with what came since).
 */
const SUMMARY_TOKENS = Number(process.env.BENCH_SUMMARY_TOKENS ?? 300);
const SUMMARY_SENTENCES = [
  '之前聊过的要点:大家在安排周末的徒步活动,报名截止提前到了周五晚上八点,集合地点和路线还没最后定。',
  'The nightly export job kept failing on a proxy timeout; the timeout was raised to ten minutes and is being watched.',
  '阿杰的前端构建因为内存不够被系统杀掉,已经用 NODE_OPTIONS 调大了堆内存,之后考虑关掉 sourcemap。',
  'Maya asked how to learn SQL window functions; PARTITION BY was explained against GROUP BY with an example.',
  '有人问了房贷的等额本息怎么算,给了公式和一个三十年的例子,提醒以银行的实际报价为准。',
  'Open items: confirm the hiking route, check the export job tonight, and send the reminder on Friday morning.',
];
function summaryText(index: number): string {
  let text = `(${index + 1}) `;
  for (let at = index; encode(text).length < SUMMARY_TOKENS; at++)
    text += SUMMARY_SENTENCES[at % SUMMARY_SENTENCES.length];
  return text;
}

/** The results the bench's tools return, queued per tool name and query in the order the shape calls them. */
const pendingResults = new Map<string, string[]>();
const resultKey = (name: string, args: string) => `${name}\u0000${args}`;

const shapeTools = definePlugin({
  name: 'bench/shape-tools',
  uses: { tools },
  apply({ tools }) {
    for (const name of SHAPE_TOOLS) {
      tools.use.register({
        name,
        description: `Bench tool ${name}: answers with the conversation shape's scripted result.`,
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        handler: (args: { query: string }) =>
          pendingResults.get(resultKey(name, JSON.stringify({ query: args.query })))?.shift() ?? '',
      });
    }
  },
});

/**
 * BENCH_VOLATILE=last: a what-if, not the product's layout. An agent:llm:before middleware moves the volatile
 * context block (time, platform, session kind) from ahead of the turn's inputs to the end of the list, to show what
 * the specification's placement (「本轮(易变上下文、本轮材料与提示、本轮的输入…)」) costs against the limit.
 */
const VOLATILE_LAST = process.env.BENCH_VOLATILE === 'last';
const volatileLast = definePlugin({
  name: 'bench/volatile-last',
  uses: { hooks },
  apply({ hooks }) {
    hooks.use.middleware('agent:llm:before', async (context, next) => {
      const isVolatile = (message: Message) =>
        message.role === 'system' && message.metadata?.[WellKnownMetadataKeys.Injector] === 'volatile-context';
      const volatile = context.messages.filter(isVolatile);
      context.messages = [...context.messages.filter((message) => !isVolatile(message)), ...volatile];
      await next();
    });
  },
});

/**
 * BENCH_RECALL=keep: a what-if, not the product's layout. Each turn's recalled block (long-term memory, at
 * turn-context) stays in the following requests where it stood, just before that turn's first input, as if it were
 * stored with the turn and trimmed or compacted with it; a later block carries only the lines no kept block in the
 * request already holds, and one left with none is not sent. It shows what keeping the block would give the share
 * and cost in history tokens (docs/decisions/long-term-memory.md). The product would fill a shortened block up with
 * other matches; this one only drops lines, so its blocks are a little smaller than the product's would be.
 */
const RECALL_KEEP = process.env.BENCH_RECALL === 'keep';
const RECALL_HEADER = '[Long-term memory]';
/** Per session: the input that followed a block when it was first sent (its JSON) → the block as sent ('' none). */
const keptBlocks = new Map<string, Map<string, string>>();
/** Tokens of kept blocks the requests carried, for the what-if's cost line. */
const keptTally = { requests: 0, tokens: 0 };

const isRecallBlock = (message: Message) =>
  message.role === 'system' && typeof message.content === 'string' && message.content.startsWith(RECALL_HEADER);

/** The block without the lines already sent (a part whose lines all are goes); '' when nothing is left. */
function withoutKept(block: string, sent: ReadonlySet<string>): string {
  const [head, ...rest] = block.split('\n\n');
  const parts = rest
    .join('\n\n')
    .split('\n\n')
    .map((part) => {
      const [label, ...lines] = part.split('\n');
      const fresh = lines.filter((line) => !sent.has(line));
      return fresh.length === 0 ? undefined : [label, ...fresh].join('\n');
    })
    .filter((part) => part !== undefined);
  return parts.length === 0 ? '' : [head, ...parts].join('\n\n');
}

const recallKeep = definePlugin({
  name: 'bench/recall-keep',
  uses: { hooks },
  apply({ hooks }) {
    hooks.use.middleware('agent:llm:before', async (context, next) => {
      const kept = keptBlocks.get(context.sessionId) ?? new Map<string, string>();
      keptBlocks.set(context.sessionId, kept);
      const list = context.messages;
      const out: Message[] = [];
      const sent = new Set<string>();
      const keep = (block: string) => {
        out.push({ role: 'system', content: block });
        for (const line of block.split('\n')) sent.add(line);
      };
      const nextInput = (from: number) => list.slice(from).find((message) => message.role === 'user');
      list.forEach((message, index) => {
        if (isRecallBlock(message)) {
          // This turn's own block: as first sent (later calls of the turn send the same), without what is kept.
          const input = nextInput(index + 1);
          const key = input ? JSON.stringify(input.content) : '';
          const block = kept.get(key) ?? withoutKept(String(message.content), sent);
          if (input) kept.set(key, block);
          if (block !== '') keep(block);
          return;
        }
        if (message.role === 'user') {
          const block = kept.get(JSON.stringify(message.content));
          const own = out.findLast((earlier) => earlier.role !== 'system' || isRecallBlock(earlier));
          if (block && !(own && isRecallBlock(own) && own.content === block)) {
            keep(block);
            keptTally.tokens += encode(block).length;
          }
        }
        out.push(message);
      });
      keptTally.requests++;
      context.messages = out;
      await next();
    });
  },
});

const isConversation = (body: Body) =>
  body.tool_choice !== 'none' &&
  Array.isArray(body.tools) &&
  (body.tools as Array<{ function?: { name?: string } }>).some((tool) => tool.function?.name === SHAPE_TOOLS[0]);

type Tally = ReturnType<typeof tally> & { summaryCalls: number; compactions: number; afterTrim: number };

/**
 * The memory summary's decision at each turn's end, read from its log: exactly one of these per checked turn
 * (compaction-rules / turn-end / compactor). The bench waits for it, as a person's pause would let it finish.
 */
const DECISIONS = [
  'no compaction needed',
  'a compaction of this session is already running',
  'compacted session history',
  'compaction ended',
  'compaction check failed',
];
let decisions = 0;
let onDecision: (() => void) | undefined;
function decisionSink(record: LogRecord): void {
  if (record.name !== '@aalis/plugin-memory-summary' || !DECISIONS.some((text) => record.message.startsWith(text)))
    return;
  decisions++;
  onDecision?.();
}

/** Waits for the summary's decision on the turn that just ended (and its compaction), then for open requests. */
async function settle(server: OpenAiTestServer, decided: number): Promise<void> {
  if (decisions < decided) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the memory summary logged no decision on a turn in 5 s')), 5000);
      onDecision = () => {
        if (decisions < decided) return;
        clearTimeout(timer);
        onDecision = undefined;
        resolve();
      };
    });
  }
  await Promise.all(server.requests.map((request) => request.closed));
}

async function runBudget(server: OpenAiTestServer, budget: number): Promise<Map<string, Tally>> {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-cache-bench-'));
  const contextWindow = budget + MAX_OUTPUT_TOKENS + 512;
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en\nllm:\n  baseUrl: ${server.url}\n  model: test-model\n  contextWindow: ${contextWindow}\n  maxOutputTokens: ${MAX_OUTPUT_TOKENS}\nplugins:\n  llm-openai:\n    fetchModels: false\n    retry: { maxRetries: 0 }\n${MEMORY_VECTOR_OFF ? '  memory-vector: false\n' : MEMORY_VECTOR_CONFIG ? `  memory-vector: ${MEMORY_VECTOR_CONFIG}\n` : ''}`,
  );
  const running = await startAalis({
    cwd: dir,
    mode: 'none',
    banner: false,
    createConfigIfMissing: false,
    env: { AALIS_DATA_DIR: dir, AALIS_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' },
    plugins: [shapeTools, ...(VOLATILE_LAST ? [volatileLast] : []), ...(RECALL_KEEP ? [recallKeep] : [])],
  });
  const service = running.app.services.selected(agent)!.impl;
  const manager = running.app.services.selected(sessionManager)?.impl;
  const compactedEvents: string[] = [];
  running.app.events.on('summary:compacted', ({ trigger }) => {
    compactedEvents.push(trigger);
  });
  running.app.logs.addSink({ level: 'debug', write: decisionSink });
  const results = new Map<string, Tally>();
  try {
    for (const profile of PROFILES.filter(
      (entry) => !process.env.BENCH_SHAPES || process.env.BENCH_SHAPES.split(',').includes(entry.name),
    ))
      results.set(profile.name, await runShape(server, service, manager, profile, compactedEvents));
  } finally {
    await running.stop();
    if (process.env.BENCH_KEEP) console.log(`data kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

async function runShape(
  server: OpenAiTestServer,
  service: BoundAgent,
  manager: SessionManagerService | undefined,
  profile: Profile,
  /** The trigger of every compaction so far (summary:compacted). */
  compacted: readonly string[],
): Promise<Tally> {
  const turns: Turn[] = simulate(profile, TURN_COUNT);
  const sessionId = `bench:${profile.name}`;
  const room = profile.name === 'group';
  if (room) await manager?.ensure({ id: sessionId, kind: 'room', platform: 'cli', originChat: { multiParty: true } });
  const first = server.requests.length;
  let material: NewMaterial = { callIds: new Set(), replies: [], inputs: [] };
  /** The new material of each conversation request, in order. */
  const materials: NewMaterial[] = [];
  const compactedBefore = compacted.length;
  for (const turn of turns) {
    material.inputs.push(turn.text);
    for (const round of turn.rounds) {
      const calls = round[0]!.toolCalls!;
      for (const result of round.slice(1)) {
        const call = calls.find((entry) => entry.id === result.toolCallId)!;
        const key = resultKey(call.function.name, call.function.arguments);
        pendingResults.set(key, [...(pendingResults.get(key) ?? []), result.content]);
      }
      server.enqueue(
        toolCallReply(
          calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
          { usage: { promptTokens: 0, completionTokens: 8 } },
        ),
      );
    }
    server.enqueue(textReply(turn.reply.content, { chunkSize: 64, usage: { promptTokens: 0, completionTokens: 8 } }));
    // Each conversation call of this turn: the material new to it, then what its answer adds for the next one.
    const callsBefore = conversationCount(server);
    const decided = decisions + 1;
    await service.handleMessage({
      sessionId,
      platform: 'cli',
      sender: room ? { userId: turn.sender, displayName: turn.sender } : { userId: 'owner' },
      content: turn.text,
      triggerType: 'direct',
    });
    const made = conversationCount(server) - callsBefore;
    for (let call = 0; call < made; call++) {
      materials.push(material);
      const round = turn.rounds[call];
      material = round
        ? { callIds: new Set(round[0]!.toolCalls!.map((entry) => entry.id)), replies: [], inputs: [] }
        : { callIds: new Set(), replies: [turn.reply.content.trim()], inputs: [] };
    }
    await settle(server, decided);
  }
  const bodies = server.requests.slice(first).map((request) => request.body as Body);
  const conversation = bodies.filter(isConversation);
  if (conversation.length !== materials.length)
    throw new Error(`${profile.name}: ${conversation.length} conversation calls, ${materials.length} expected`);
  return {
    ...tally(
      conversation.map((body, index) => ({ body, material: materials[index]! })),
      { debug: DEBUG },
    ),
    summaryCalls: bodies.length - conversation.length,
    compactions: compacted.length - compactedBefore,
    // A compaction for `trimmed`: the turn was hard-trimmed first (history cut unsummarised, or steps 2–5).
    afterTrim: compacted.slice(compactedBefore).filter((trigger) => trigger === 'trimmed').length,
  };
}

function conversationCount(server: OpenAiTestServer): number {
  let count = 0;
  for (const request of server.requests) if (request.body && isConversation(request.body as Body)) count++;
  return count;
}

const server = await startOpenAiTestServer({ models: ['test-model'] });
server.enqueueWhen(
  (body) => !isConversation(body),
  ...Array.from({ length: 2_000 }, (_, index) =>
    textReply(summaryText(index), { chunkSize: 256, usage: { promptTokens: 0, completionTokens: SUMMARY_TOKENS } }),
  ),
);
const started = performance.now();
const rows: string[][] = [];
/** Long-term memory's part, per row: what its recalled blocks cost the share. */
const recallRows: string[] = [];
let met = 0;
try {
  for (const budget of BUDGETS) {
    const results = await runBudget(server, budget);
    for (const [shape, row] of results) {
      const share = row.cached / row.prompt;
      const limit = row.limit / row.prompt;
      const gap = (limit - share) * 100;
      if (gap <= GOAL_POINTS) met++;
      const { recall } = row;
      if (recall.tokens > 0) {
        // The share with the new recalled text taken out of the requests (numerator unchanged: it was never cached).
        const withoutNew = row.cached / (row.prompt - recall.uncachedNew);
        recallRows.push(
          `  ${shape} ${budget / 1024}k: blocks ${(recall.tokens / (row.requests - 1)).toFixed(0)} tokens/request (${((100 * recall.tokens) / row.prompt).toFixed(1)} % of prompt tokens); past the reused prefix: new text ${((100 * recall.uncachedNew) / row.prompt).toFixed(1)} %, a block sent before ${((100 * recall.uncachedRepeated) / row.prompt).toFixed(1)} %; share without the new text ${(withoutNew * 100).toFixed(1)}% (+${((withoutNew - share) * 100).toFixed(1)} points)`,
        );
      }
      rows.push([
        shape,
        `${budget / 1024}k`,
        String(row.requests),
        String(Math.round(row.prompt / (row.requests - 1))),
        String(Math.round(row.fresh / (row.requests - 1))),
        `${(share * 100).toFixed(1)}%`,
        `${(limit * 100).toFixed(1)}%`,
        gap.toFixed(1),
        ...(['head', 'history', 'layout'] as const).map((kind) => ((100 * row.lost[kind]) / row.prompt).toFixed(1)),
        `${row.compactions} (${row.afterTrim})`,
        String(row.summaryCalls),
        gap <= GOAL_POINTS ? 'met' : 'NOT met',
      ]);
    }
  }
} finally {
  await server.close();
}
const header = [
  'shape',
  'budget',
  'requests',
  'mean prompt',
  'new/request',
  'cache share',
  'append-only limit',
  'gap (points)',
  'head',
  'history',
  'layout',
  'compactions (after a trim)',
  'summary calls',
  `goal ≤ ${GOAL_POINTS} points`,
];
const widths = header.map((title, index) => Math.max(title.length, ...rows.map((cells) => cells[index]!.length)));
const line = (cells: string[]) => cells.map((cell, index) => cell.padStart(widths[index]!)).join('  ');
console.log(
  `${TURN_COUNT}-turn conversations through the product (startAalis, default plugin set, memory summary on${VOLATILE_LAST ? '; WHAT-IF: volatile context moved to the end' : ''}${RECALL_KEEP ? '; WHAT-IF: recalled blocks kept with their turns' : ''}); o200k tokens, conversation requests 2…n`,
);
console.log(line(header));
for (const cells of rows) console.log(line(cells));
console.log(`
cache share: tokens of each request equal to the previous conversation request's leading units (tools, messages)
append-only limit: each request's tokens minus the material new since the previous request (the previous answer,
  its tool results, the inputs since), over the same prompt tokens; gap = limit − share
head / history / layout: the gap by where the prefix broke (points): in the head (a new summary, a changed head
  block), in the history (a cut moved its start, or an old message was rewritten), or at the previous request's own
  turn blocks (the volatile context and the other blocks ahead of its input are not kept in the history)
compactions: dividers the memory summary wrote (its calls are not in the shares); in brackets those it wrote because
  the turn had been hard-trimmed first (trigger 'trimmed'), not before
${
  recallRows.length > 0
    ? `long-term memory's recalled blocks (the share points they take: new recalled text each turn, which no prefix cache
  can hold, vs the same block re-sent after a break, which a layout could avoid):
${recallRows.join('\n')}
`
    : ''
}${RECALL_KEEP ? `kept recalled blocks (what-if): ${(keptTally.tokens / Math.max(1, keptTally.requests)).toFixed(0)} tokens per model call on average, in the history part\n` : ''}goal met for ${met} of ${rows.length}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
