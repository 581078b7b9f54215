// npm run bench memory-recall: how much of a long conversation's evidence reaches the prompt. A public benchmark of
// very long multi-session conversations with evidence-annotated questions (LoCoMo, CC BY-NC 4.0: not shipped
// here; point BENCH_LOCOMO at locomo10.json, or at a folder of its per-conversation files, from
// data/locomo10.zip of the snap-research/locomo repository) replayed as a two-person group chat through the real
// agent with historyLimit 40, every question asked addressing her. Printed for the same run:
//   - the history window alone (what the product sent before long-term memory),
//   - plain BM25 top-10 over the conversation's messages (FTS5 porter/unicode61, the question's words OR'ed),
//   - long-term memory's full text (the embedded default), share of evidence messages reaching the prompt, and the
//     recalled tokens per turn,
//   - the same with an embedding endpoint wired in (plugins.embedding-openai against @aalis/testing's local server,
//     whose vectors are hashed bags of words, not a real model): it shows the dense path and the rank fusion work end
//     to end, not what a real embedding model would add. BENCH_EMBEDDING=off leaves it out.
//   - each question's time to first token with long-term memory and without (the same conversation archived in a
//     second harness without the plugin, and each question asked of both in turns, the order alternating, so the
//     machine's load weighs on both alike), next to the recall time the plugin measured: what memory adds to a
//     turn's latency, and whether it is no more than the recall itself. BENCH_TTFT=off leaves it out.
//     Also in CPU time (the process's, all threads), which a loaded machine does not stretch, and set against
//     each question's time without memory plus its own recall (turn-timeline.ts marks each turn).
//   - BENCH_TIMELINE=1: where each question's time to first token goes, stage by stage, with and without memory,
//     and the garbage collection inside it (BENCH_TIMELINE_JSON=<file> writes every question's marks).
// Without BENCH_LOCOMO it runs on the small fixture of the tests (figures then say little).
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import embeddingOpenAiPlugin from '@aalis/plugin-embedding-openai';
import { startOpenAiTestServer } from '@aalis/testing';
import Database from 'better-sqlite3';
import {
  type Asked,
  addAsked,
  type Conversation,
  emptyResult,
  prepareReplay,
  readLocomo,
  replayConversation,
  spokenText,
} from '../src/conversation-replay.case.js';
import memoryVectorPlugin from '../src/index.js';
import { type KeptFigures, keptBlocks } from './kept-blocks.js';
import { stagesOf, type TurnStages, turnTimeline } from './turn-timeline.js';

const HISTORY_LIMIT = Number(process.env.BENCH_HISTORY_LIMIT ?? 40);
const MAX_TOKENS = Number(process.env.BENCH_MAX_TOKENS ?? 2000);
const LIMIT = Number(process.env.BENCH_CONVERSATIONS ?? 0);

function conversations(): Conversation[] {
  const path =
    process.env.BENCH_LOCOMO ?? fileURLToPath(new URL('../src/fixtures/small-conversation.json', import.meta.url));
  if (!existsSync(path)) throw new Error(`BENCH_LOCOMO=${path} does not exist`);
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    : [path];
  const all = files.flatMap(readLocomo);
  return LIMIT > 0 ? all.slice(0, LIMIT) : all;
}

/** Plain BM25 top-k over one conversation's messages: the baseline the issue names. */
function bm25TopK(conversation: Conversation, k: number): { evidence: number; found: number } {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE m USING fts5(id UNINDEXED, text, tokenize='porter unicode61')");
  const insert = db.prepare('INSERT INTO m (id, text) VALUES (?, ?)');
  const ids = new Set<string>();
  for (const session of conversation.sessions) {
    for (const turn of session.turns) {
      insert.run(turn.dia_id, spokenText(turn));
      ids.add(turn.dia_id);
    }
  }
  const search = db.prepare('SELECT id FROM m WHERE m MATCH ? ORDER BY rank LIMIT ?');
  let evidence = 0;
  let found = 0;
  for (const question of conversation.questions) {
    const words = question.question.match(/[\p{L}\p{N}]+/gu) ?? [];
    const top = new Set(
      words.length === 0
        ? []
        : (search.all(words.map((word) => `"${word}"`).join(' OR '), k) as { id: string }[]).map((row) => row.id),
    );
    for (const id of question.evidence) {
      if (!ids.has(id)) continue;
      evidence += 1;
      if (top.has(id)) found += 1;
    }
  }
  db.close();
  return { evidence, found };
}

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const list = conversations();
console.log(
  `${list.length} conversation(s), ${list.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0)} messages, ${list.reduce((n, c) => n + c.questions.length, 0)} questions (adversarial category 5 left out); historyLimit ${HISTORY_LIMIT}, maxTokens ${MAX_TOKENS}`,
);
const WITH_EMBEDDING = process.env.BENCH_EMBEDDING !== 'off';
const WITH_TTFT = process.env.BENCH_TTFT !== 'off';
const timeline = WITH_TTFT ? turnTimeline() : undefined;
/** Each question asked of both harnesses: its turn with memory, without, and the recall's own measures. */
interface Pair {
  on: TurnStages;
  off: TurnStages;
  recallMs: number;
  recallCpuMs: number;
}
const pairs: Pair[] = [];
/** BENCH_RECALL=keep: the kept-blocks-and-delta what-if (kept-blocks.ts), unbounded and within MAX_TOKENS. */
const KEEP = process.env.BENCH_RECALL === 'keep';
const kept = { unbounded: [] as KeptFigures[], bounded: [] as KeptFigures[] };
const embeddingServer = WITH_EMBEDDING ? await startOpenAiTestServer({ embeddingDimensions: 256 }) : undefined;
const totals = {
  evidence: 0,
  window: 0,
  memory: 0,
  dense: 0,
  denseTokens: [] as number[],
  memoryInRecall: 0,
  bm25: 0,
  bm25Evidence: 0,
  tokens: [] as number[],
  ttftOn: [] as number[],
  ttftOff: [] as number[],
  recallMs: [] as number[],
};
const started = performance.now();
let shownMisses = 0;
for (const conversation of list) {
  const bm25 = bm25TopK(conversation, 10);
  const memoryOn = {
    historyLimit: HISTORY_LIMIT,
    ...(timeline ? { watcher: timeline } : {}),
    extra: [
      ...(timeline ? [timeline.plugin] : []),
      [memoryVectorPlugin, { maxTokens: MAX_TOKENS, ...JSON.parse(process.env.BENCH_CONFIG ?? '{}') }],
    ],
    // BENCH_MISSES=<n>: print the first n evidence messages that did not reach the prompt, with what was recalled.
    onMiss: (miss: unknown) => {
      if (shownMisses++ < Number(process.env.BENCH_MISSES ?? 0)) console.log('MISS', miss);
    },
  } satisfies Parameters<typeof prepareReplay>[1];
  const withMemory = await prepareReplay(conversation, memoryOn);
  // The same questions without long-term memory, for the time to first token it adds (BENCH_TTFT=off skips it).
  const withoutMemory = WITH_TTFT
    ? await prepareReplay(conversation, {
        historyLimit: HISTORY_LIMIT,
        extra: timeline ? [timeline.plugin] : [],
        ...(timeline ? { watcher: timeline } : {}),
      })
    : undefined;
  const result = emptyResult();
  const askedInOrder: Asked[] = [];
  try {
    for (const [index, question] of conversation.questions.entries()) {
      // In turns, the order alternating: neither side always runs right after the other's turn.
      const askOff = async () => {
        const asked = await withoutMemory?.ask(question);
        const marks = await timeline?.finish();
        return { asked, marks };
      };
      const off = index % 2 === 1 ? await askOff() : undefined;
      const on = await withMemory.ask(question);
      const onMarks = await timeline?.finish();
      const { asked: offAfter, marks: offMarks } = index % 2 === 0 ? await askOff() : (off ?? {});
      const onStages = onMarks && stagesOf(onMarks);
      const offStages = offMarks && stagesOf(offMarks);
      if (onStages && offStages && on.recallMs !== undefined && on.recallCpuMs !== undefined)
        pairs.push({ on: onStages, off: offStages, recallMs: on.recallMs, recallCpuMs: on.recallCpuMs });
      addAsked(result, on);
      askedInOrder.push(on);
      if (offAfter?.ttftMs !== undefined) totals.ttftOff.push(offAfter.ttftMs);
    }
  } finally {
    await withMemory.close();
    await withoutMemory?.close();
  }
  if (KEEP) {
    const window = Math.floor(HISTORY_LIMIT / 2);
    kept.unbounded.push(keptBlocks(askedInOrder, { window, budget: Number.POSITIVE_INFINITY }));
    kept.bounded.push(keptBlocks(askedInOrder, { window, budget: MAX_TOKENS }));
  }
  totals.ttftOn.push(...result.ttftMs);
  totals.recallMs.push(...result.recallMs);
  if (embeddingServer) {
    const dense = await replayConversation(conversation, {
      historyLimit: HISTORY_LIMIT,
      extra: [
        [embeddingOpenAiPlugin, { baseUrl: embeddingServer.url, model: 'hashed-bag-of-words', batchSize: 128 }],
        [memoryVectorPlugin, { maxTokens: MAX_TOKENS, ...JSON.parse(process.env.BENCH_CONFIG ?? '{}') }],
      ],
    });
    totals.dense += dense.inPrompt;
    totals.denseTokens.push(...dense.recalledTokens);
  }
  totals.evidence += result.evidence;
  totals.window += result.inHistory;
  totals.memory += result.inPrompt;
  totals.bm25 += bm25.found;
  totals.bm25Evidence += bm25.evidence;
  totals.tokens.push(...result.recalledTokens);
  console.log(
    `  ${conversation.id.padEnd(8)} evidence ${String(result.evidence).padStart(4)}: window ${percent(result.inHistory, result.evidence).padStart(7)}  BM25 top-10 ${percent(bm25.found, bm25.evidence).padStart(7)}  memory ${percent(result.inPrompt, result.evidence).padStart(7)}`,
  );
}
const mean = totals.tokens.reduce((a, b) => a + b, 0) / Math.max(1, totals.tokens.length);
await embeddingServer?.close();
console.log(`evidence messages reaching the prompt (${totals.evidence}):`);
console.log(`  history window alone (historyLimit ${HISTORY_LIMIT})   ${percent(totals.window, totals.evidence)}`);
console.log(`  plain BM25 top-10 (baseline, same data)      ${percent(totals.bm25, totals.bm25Evidence)}`);
console.log(
  `  long-term memory, full text (default)        ${percent(totals.memory, totals.evidence)}   (goal ≥ 75 %)`,
);
if (WITH_EMBEDDING) {
  const denseMean = totals.denseTokens.reduce((a, b) => a + b, 0) / Math.max(1, totals.denseTokens.length);
  console.log(
    `  + a (fake) embedding endpoint, fused by rank ${percent(totals.dense, totals.evidence)}   (hashed bag-of-words vectors; mean ${denseMean.toFixed(0)}, max ${Math.max(...totals.denseTokens)} tokens)`,
  );
}
console.log(
  `recalled tokens per turn (estimated): mean ${mean.toFixed(0)}, p50 ${quantile(totals.tokens, 0.5)}, p99 ${quantile(totals.tokens, 0.99)}, max ${Math.max(...totals.tokens)} (goal ≤ 2,000)`,
);
if (KEEP) {
  const line = (name: string, all: KeptFigures[]) => {
    const evidence = all.reduce((sum, one) => sum + one.evidence, 0);
    const found = all.reduce((sum, one) => sum + one.kept, 0);
    const today = all.reduce((sum, one) => sum + one.today, 0);
    const tokens = all.flatMap((one) => one.tokens);
    const fresh = all.flatMap((one) => one.newTokens);
    const mean = (values: number[]) => (values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)).toFixed(0);
    console.log(
      `  ${name} evidence ${percent(found, evidence)} (as sent today ${percent(today, evidence)}); recalled tokens per request, kept blocks included: mean ${mean(tokens)}, p50 ${quantile(tokens, 0.5)}, p99 ${quantile(tokens, 0.99)}, max ${Math.max(...tokens)}; new recalled tokens per request mean ${mean(fresh)}, p50 ${quantile(fresh, 0.5)}`,
    );
  };
  console.log(
    `what-if BENCH_RECALL=keep: each block kept with its turn while the turn is in the history window (${Math.floor(HISTORY_LIMIT / 2)} turns), a turn sending only lines no kept block holds:`,
  );
  line('unbounded:             ', kept.unbounded);
  line(`kept + delta ≤ ${MAX_TOKENS}:`, kept.bounded);
}
if (WITH_TTFT) {
  timeline?.close();
  const ms = (values: number[], q: number) => `${quantile(values, q).toFixed(1)} ms`;
  const grows = (q: number) => quantile(totals.ttftOn, q) - quantile(totals.ttftOff, q);
  console.log(
    `time to first token per question (the scripted model answers at once; ${totals.ttftOn.length} questions with memory, ${totals.ttftOff.length} without, same run):`,
  );
  console.log(`  without long-term memory   p50 ${ms(totals.ttftOff, 0.5)}, p99 ${ms(totals.ttftOff, 0.99)}`);
  console.log(`  with long-term memory      p50 ${ms(totals.ttftOn, 0.5)}, p99 ${ms(totals.ttftOn, 0.99)}`);
  console.log(
    `  grows by                   p50 ${grows(0.5).toFixed(1)} ms, p99 ${grows(0.99).toFixed(1)} ms; the recall itself (${totals.recallMs.length} turns with a block) p50 ${ms(totals.recallMs, 0.5)}, p99 ${ms(totals.recallMs, 0.99)}`,
  );
  // Three readings of "grows by no more than the recall time", on the questions asked of both with a block:
  //  - quantiles: the growth of a quantile against the recall's quantile. A median of sums of skewed times lies
  //    above the sum of their medians, so on a loaded machine this reads "not met" even when every turn grew by
  //    exactly its recall;
  //  - against "without + recall": each question's time without memory plus its own recall is what the turn would
  //    take if memory added exactly its recall; the quantiles with memory are set against that sum's;
  //  - CPU time: the same in the process's CPU time (all threads), which the machine's load does not stretch.
  const onTtft = pairs.map((pair) => pair.on.total);
  const expected = pairs.map((pair) => pair.off.total + pair.recallMs);
  const onCpu = pairs.map((pair) => pair.on.cpuMs);
  const offCpu = pairs.map((pair) => pair.off.cpuMs);
  const recallCpu = pairs.map((pair) => pair.recallCpuMs);
  const expectedCpu = pairs.map((pair) => pair.off.cpuMs + pair.recallCpuMs);
  const beyond = (values: number[], sums: number[], q: number) =>
    `${(quantile(values, q) - quantile(sums, q)).toFixed(1)} ms`;
  const holds = (values: number[], sums: number[], q: number) =>
    quantile(values, q) <= quantile(sums, q) ? 'met' : 'NOT met';
  if (pairs.length > 0) {
    console.log(
      `  with memory against without + that question's recall (${pairs.length} paired): p50 ${ms(onTtft, 0.5)} vs ${ms(expected, 0.5)} (${beyond(onTtft, expected, 0.5)}), p99 ${ms(onTtft, 0.99)} vs ${ms(expected, 0.99)} (${beyond(onTtft, expected, 0.99)})`,
    );
    console.log(
      `CPU time per question (the process, user + system, all threads; input → first word; ${pairs.length} paired):`,
    );
    console.log(`  without long-term memory   p50 ${ms(offCpu, 0.5)}, p99 ${ms(offCpu, 0.99)}`);
    console.log(`  with long-term memory      p50 ${ms(onCpu, 0.5)}, p99 ${ms(onCpu, 0.99)}`);
    console.log(
      `  grows by                   p50 ${(quantile(onCpu, 0.5) - quantile(offCpu, 0.5)).toFixed(1)} ms, p99 ${(quantile(onCpu, 0.99) - quantile(offCpu, 0.99)).toFixed(1)} ms; the recall's own p50 ${ms(recallCpu, 0.5)}, p99 ${ms(recallCpu, 0.99)}`,
    );
    console.log(
      `  with memory against without + that question's recall: p50 ${beyond(onCpu, expectedCpu, 0.5)}, p99 ${beyond(onCpu, expectedCpu, 0.99)}`,
    );
  }
  const quantiles = (q: number) => (grows(q) <= quantile(totals.recallMs, q) ? 'met' : 'NOT met');
  console.log(
    `  goal (growth ≤ recall time): quantiles p50 ${quantiles(0.5)}, p99 ${quantiles(0.99)}; against without + recall p50 ${holds(onTtft, expected, 0.5)}, p99 ${holds(onTtft, expected, 0.99)}; CPU time p50 ${holds(onCpu, expectedCpu, 0.5)}, p99 ${holds(onCpu, expectedCpu, 0.99)}`,
  );
}
if (process.env.BENCH_TIMELINE === '1' && pairs.length > 0) {
  if (process.env.BENCH_TIMELINE_JSON) writeFileSync(process.env.BENCH_TIMELINE_JSON, JSON.stringify(pairs));
  const p50 = (values: number[]) => quantile(values, 0.5).toFixed(2).padStart(7);
  console.log(
    `where the time to first token goes (${pairs.length} questions with a recalled block; p50 with, without, and of the difference question by question, ms):`,
  );
  const names: Array<[keyof TurnStages, string]> = [
    ['toContributions', 'input → contributions built '],
    ['toRequest', 'contributions → request     '],
    ['toServer', 'request → model server      '],
    ['toFirstToken', 'model server → first word   '],
    ['total', 'input → first word          '],
    ['gcMs', 'of it garbage collection    '],
    ['cpuMs', 'CPU time, input → first word'],
    ['cpuToRequest', '  of it contributions → request'],
    ['cpuAfterRequest', '  of it request → first word'],
  ];
  for (const [key, name] of names) {
    const on = pairs.map((pair) => pair.on[key]);
    const off = pairs.map((pair) => pair.off[key]);
    const diff = pairs.map((pair) => pair.on[key] - pair.off[key]);
    console.log(`  ${name} with ${p50(on)}  without ${p50(off)}  difference ${p50(diff)}`);
  }
  const past = pairs.map((pair) => pair.on.toRequest - pair.off.toRequest - pair.recallMs);
  const pastCpu = pairs.map((pair) => pair.on.cpuToRequest - pair.off.cpuToRequest - pair.recallCpuMs);
  console.log(
    `  contributions → request, beyond the recall: p50 ${p50(past)}, in CPU time ${p50(pastCpu)} (the agent's trim, serialising and writing the larger request)`,
  );
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
