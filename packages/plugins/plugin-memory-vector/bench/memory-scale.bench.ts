// npm run bench memory-scale: long-term memory on SQLite at a million messages. Prints the indexing rate (goal
// ≥ 2,000 messages/s) against the same rows written to a plain table without the index (what storing them costs
// anyway), and one turn's recall (search in scope, neighbours, budget; goal p50 ≤ 10 ms, p99 ≤ 50 ms) against a plain
// FTS5 BM25 query of the same words over everything. Messages are synthetic: words drawn from a Zipf
// distribution over 40,000 English-like and 8,000 Chinese words, in 1,000 rooms and 3,000 private chats over a year.
// BENCH_MESSAGES (default 1,000,000), BENCH_QUERIES (default 1,000), BENCH_DIR (default a temporary directory).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { queryTerms } from '@aalis/util-text-search';
import { memoryVectorConfigSchema } from '../src/memory-vector-config.js';
import { recall } from '../src/recall.js';
import { blockCosts } from '../src/recall-block.js';
import { contextText, type RecallEntry } from '../src/recall-store.js';
import { sqliteRecallStore } from '../src/sqlite-recall-store.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1_000);
const BATCH = 500;
const ROOMS = 1_000;
const PRIVATE_CHATS = 3_000;
const PEOPLE = 5_000;

// A seeded generator: every run measures the same data.
let seed = 42;
function random(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tas',
  'vor',
  'bel',
  'qui',
  'dan',
  'sol',
  'pe',
  'tri',
  'gon',
  'ul',
  'fa',
  'ny',
];
const english = Array.from({ length: 40_000 }, () => {
  let word = '';
  const length = 2 + Math.floor(random() * 3);
  for (let i = 0; i < length; i += 1) word += pick(SYLLABLES);
  return word;
});
const chinese = Array.from({ length: 8_000 }, () =>
  String.fromCodePoint(0x4e00 + Math.floor(random() * 8_000), 0x4e00 + Math.floor(random() * 8_000)),
);
/** Zipf(1.07) ranks by inverse transform over a precomputed cumulative table. */
function zipfTable(size: number): Float64Array {
  const table = new Float64Array(size);
  let sum = 0;
  for (let rank = 0; rank < size; rank += 1) {
    sum += 1 / (rank + 1) ** 1.07;
    table[rank] = sum;
  }
  for (let rank = 0; rank < size; rank += 1) table[rank] = (table[rank] as number) / sum;
  return table;
}
const englishZipf = zipfTable(english.length);
const chineseZipf = zipfTable(chinese.length);
function zipf(words: readonly string[], table: Float64Array): string {
  const target = random();
  let low = 0;
  let high = table.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((table[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return words[low] as string;
}
function sentence(): string {
  const chineseMessage = random() < 0.3;
  const length = 6 + Math.floor(random() * 24);
  const words = Array.from({ length }, () =>
    chineseMessage ? zipf(chinese, chineseZipf) : zipf(english, englishZipf),
  );
  return words.join(chineseMessage ? '' : ' ');
}

const YEAR_START = Date.UTC(2025, 0, 1);
const YEAR_MS = 365 * 86_400_000;
function message(index: number): RecallEntry {
  const inRoom = random() < 0.7;
  const chat = inRoom ? Math.floor(random() * ROOMS) : Math.floor(random() * PRIVATE_CHATS);
  const person = `qq:${Math.floor(random() * PEOPLE)}`;
  const role = random() < 0.25 ? 'assistant' : 'user';
  return {
    messageId: `m${index}`,
    sessionId: inRoom ? `qq:group:${chat}` : `qq:private:${chat}`,
    audience: inRoom ? `room:qq:${chat}` : `private:qq:${chat}`,
    ...(inRoom && role === 'user' ? { person } : {}),
    ...(role === 'user' ? { speaker: `P${person}` } : {}),
    role,
    at: YEAR_START + Math.floor((index / MESSAGES) * YEAR_MS),
    text: sentence(),
  };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'aalis-memory-scale-'));
const database = new SqliteDatabase(join(dir, 'aalis.db'));
const store = sqliteRecallStore(database);
const plain = new SqliteDatabase(join(dir, 'plain.db'));
plain.migrate('plain', [
  {
    version: 1,
    name: 'plain rows',
    up: 'CREATE TABLE rows (id TEXT PRIMARY KEY, session_id TEXT, audience TEXT, person TEXT, speaker TEXT, role TEXT, at INTEGER, text TEXT)',
  },
]);

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
console.log(`${MESSAGES.toLocaleString('en')} messages in ${dir}; load average ${load()} on ${cpus().length} cores`);
const samples: RecallEntry[] = [];
const lastWords = new Map<string, string>();
let indexMs = 0;
/** CPU time of the indexing (this process, its checkpoint thread included): the machine is shared, wall time varies with its load. */
let indexCpuMs = 0;
let plainMs = 0;
let plainRows = 0;
for (let start = await store.count(); start < MESSAGES; start += BATCH) {
  // Each message is indexed with the words said before it in its chat, as the plugin's indexer gives them.
  const batch = Array.from({ length: Math.min(BATCH, MESSAGES - start) }, (_, i) => {
    const entry = message(start + i);
    const before = lastWords.get(entry.sessionId);
    lastWords.set(entry.sessionId, contextText(entry.text));
    return before === undefined ? entry : { ...entry, context: before };
  });
  samples.push(pick(batch));
  let began = performance.now();
  const cpuBefore = process.cpuUsage();
  await store.add(batch);
  indexMs += performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  indexCpuMs += (cpu.user + cpu.system) / 1000;
  // The baseline: the same rows into a plain table (one in ten batches, enough for a steady rate).
  if ((start / BATCH) % 10 === 0) {
    began = performance.now();
    plain.write((connection) => {
      const insert = connection.prepare('INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (const row of batch) {
        insert.run(
          row.messageId,
          row.sessionId,
          row.audience,
          row.person ?? null,
          row.speaker ?? null,
          row.role,
          row.at,
          row.text,
        );
      }
    });
    plainMs += performance.now() - began;
    plainRows += batch.length;
  }
  if ((start / BATCH) % 200 === 0 && start > 0) {
    process.stdout.write(`  ${start.toLocaleString('en')} indexed, ${Math.round((start / indexMs) * 1000)} msg/s\r`);
  }
}
const indexedRate = indexMs > 0 ? (MESSAGES / indexMs) * 1000 : Number.NaN;
const cpuRate = indexCpuMs > 0 ? (MESSAGES / indexCpuMs) * 1000 : Number.NaN;
const plainRate = plainMs > 0 ? (plainRows / plainMs) * 1000 : Number.NaN;
if (!Number.isFinite(indexedRate)) console.log('indexing: not measured (the index existed in BENCH_DIR)');
else {
  console.log(
    `indexing: ${Math.round(indexedRate).toLocaleString('en')} msg/s (goal ≥ 2,000); plain rows without the index ${Math.round(plainRate).toLocaleString('en')} msg/s (${(plainRate / indexedRate).toFixed(1)}× faster)`,
  );
}
if (Number.isFinite(cpuRate)) {
  console.log(
    `indexing per CPU second: ${Math.round(cpuRate).toLocaleString('en')} msg/s (load average now ${load()}: the wall-clock rate above is what this process got of a shared machine)`,
  );
}

// A run on an existing BENCH_DIR indexed nothing: its samples come from the stored messages.
if (samples.length === 0) {
  const ids = Array.from({ length: 2_000 }, () => `m${Math.floor(random() * MESSAGES)}`);
  samples.push(...(await store.get(ids)));
}
// The plugin's defaults (its config schema), as a turn recalls.
const defaults = memoryVectorConfigSchema.validate({}).value;
const settings = {
  maxTokens: defaults.maxTokens,
  maxHits: defaults.maxHits,
  neighbours: defaults.neighbours,
  itemMaxChars: defaults.itemMaxChars,
  neighbourMaxChars: defaults.neighbourMaxChars,
  recencyHalfLifeDays: defaults.recencyHalfLifeDays,
  recencyWeight: defaults.recencyWeight,
};
const recallMs: number[] = [];
const recallCpuMs: number[] = [];
const plainQueryMs: number[] = [];
const plainSearch = database.statement(
  'SELECT rowid, bm25(recall_fts, 1.0, 0.0) AS rank FROM recall_fts WHERE recall_fts MATCH ? ORDER BY rank LIMIT 80',
);
let recalled = 0;
// The first queries of a process count common terms once (kept in memory afterwards): measured apart, as the warm-up.
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 100);
const warmUpMs: number[] = [];
for (let i = -WARM_UP; i < QUERIES; i += 1) {
  const sample = pick(samples);
  // A question about something once said: a third of its words, with everyday words around them.
  const words = sample.text.includes(' ') ? sample.text.split(' ') : Array.from(sample.text);
  const part = words.slice(0, Math.max(2, Math.ceil(words.length / 3)));
  const query = [part.join(sample.text.includes(' ') ? ' ' : ''), 'what did you say about it'].join(' ');
  const terms = queryTerms(query);
  const scope = {
    sessionId: sample.sessionId,
    audiences: [sample.audience],
    persons: sample.person ? [sample.person, `qq:${Math.floor(random() * PEOPLE)}`] : [],
  };
  const costs = blockCosts({
    sessionId: sample.sessionId,
    locale: 'zh-CN',
    timeZone: undefined,
    itemMaxChars: settings.itemMaxChars,
    neighbourMaxChars: settings.neighbourMaxChars,
  });
  let began = performance.now();
  const cpuBefore = process.cpuUsage();
  const excerpts = await recall({
    store,
    terms,
    scope,
    exclude: new Set(),
    now: YEAR_START + YEAR_MS,
    settings,
    cost: costs.line,
    excerptCost: costs.excerpt,
  });
  if (i < 0) {
    warmUpMs.push(performance.now() - began);
    continue;
  }
  recallMs.push(performance.now() - began);
  const cpu = process.cpuUsage(cpuBefore);
  recallCpuMs.push((cpu.user + cpu.system) / 1000);
  if (excerpts.some((excerpt) => excerpt.entries.some((entry) => entry.messageId === sample.messageId))) recalled += 1;
  // The baseline reads every match of the words: a tenth of the queries are enough for its figure.
  if (i % 10 !== 0) continue;
  began = performance.now();
  plainSearch.all(`terms : (${terms.map((term) => `"${term}"`).join(' OR ')})`);
  plainQueryMs.push(performance.now() - began);
}
console.log(
  `recall per turn (search in scope, neighbours, budget): p50 ${quantile(recallMs, 0.5).toFixed(2)} ms, p99 ${quantile(recallMs, 0.99).toFixed(2)} ms (goal ≤ 10 / ≤ 50 ms); the asked-about message recalled in ${((100 * recalled) / QUERIES).toFixed(1)} %`,
);
console.log(
  `  CPU time per recall: p50 ${quantile(recallCpuMs, 0.5).toFixed(2)} ms, p99 ${quantile(recallCpuMs, 0.99).toFixed(2)} ms (load average now ${load()}: wall time above includes waiting for a core)`,
);
console.log(
  `first ${WARM_UP} queries of the process (warm-up, common terms counted once): p50 ${quantile(warmUpMs, 0.5).toFixed(2)} ms, p99 ${quantile(warmUpMs, 0.99).toFixed(2)} ms`,
);
console.log(
  `plain FTS5 BM25 of the same words over everything (baseline, every tenth query): p50 ${quantile(plainQueryMs, 0.5).toFixed(2)} ms, p99 ${quantile(plainQueryMs, 0.99).toFixed(2)} ms`,
);
database.close();
plain.close();
if (!process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true });
