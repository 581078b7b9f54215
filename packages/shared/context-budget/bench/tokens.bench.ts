// `npm run bench tokens`: the estimator against o200k (gpt-tokenizer) per corpus class, and its throughput.
// Goals: within ±10% per class, ≥ 50 MB/s.

import type { Message } from '@aalis/schema-message';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensInFunctions } from 'gpt-tokenizer/functionCalling';
import {
  estimateMessagesTokens,
  estimateTextTokens,
  estimateToolDefinitionTokens,
  type ToolDefinition,
} from '../src/index.js';
import { CORPUS_CLASSES, loadCorpus } from './corpus.js';

const files = loadCorpus();
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function throughput(texts: readonly string[], run: (text: string) => unknown, minMs = 600): number {
  const bytes = texts.reduce((sum, text) => sum + utf8Bytes(text), 0);
  for (const text of texts) run(text); // warm up
  let rounds = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (const text of texts) run(text);
    rounds++;
    elapsed = performance.now() - start;
  }
  return (bytes * rounds) / 1e6 / (elapsed / 1000);
}

const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
const rows: string[][] = [];
let allWithinGoal = true;
let slowest = Number.POSITIVE_INFINITY;
for (const corpusClass of CORPUS_CLASSES) {
  const texts = files.filter((file) => file.corpusClass === corpusClass).map((file) => file.text);
  const real = texts.reduce((sum, text) => sum + encode(text).length, 0);
  const estimated = texts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
  const charsOver4 = texts.reduce((sum, text) => sum + text.length / 4, 0);
  const worstFile = Math.max(...texts.map((text) => Math.abs(estimateTextTokens(text) / encode(text).length - 1)));
  const error = estimated / real - 1;
  const speed = throughput(texts, estimateTextTokens);
  const reference = throughput(texts, encode, 300);
  allWithinGoal &&= Math.abs(error) <= 0.1;
  slowest = Math.min(slowest, speed);
  rows.push([
    corpusClass,
    String(texts.reduce((sum, text) => sum + utf8Bytes(text), 0)),
    String(real),
    String(estimated),
    percent(error),
    `±${(worstFile * 100).toFixed(1)}%`,
    percent(charsOver4 / real - 1),
    speed.toFixed(0),
    reference.toFixed(1),
    `${(speed / reference).toFixed(0)}×`,
  ]);
}
const allTexts = files.map((file) => file.text);
const overall = throughput(allTexts, estimateTextTokens);

const header = [
  'class',
  'bytes',
  'o200k',
  'estimate',
  'error',
  'worst file',
  'chars/4 error',
  'MB/s',
  'o200k MB/s',
  'speed-up',
];
const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index]!.length)));
const line = (cells: string[]) => cells.map((cell, index) => cell.padStart(widths[index]!)).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(`\nall classes: ${overall.toFixed(0)} MB/s (UTF-8 input bytes per second)`);

// Messages: a 1000-message history estimated cold, then again (a later turn: every message cached).
const paragraphs = allTexts.flatMap((text) => text.split('\n\n'));
const history: Message[] = Array.from({ length: 1000 }, (_, index) => ({
  role: index % 2 === 0 ? 'user' : 'assistant',
  content: `${index}. ${paragraphs[index % paragraphs.length]}`,
}));
let start = performance.now();
const cold = estimateMessagesTokens(history);
const coldMs = performance.now() - start;
start = performance.now();
const warmRounds = 200;
for (let round = 0; round < warmRounds; round++) estimateMessagesTokens(history);
const warmMs = (performance.now() - start) / warmRounds;
console.log(
  `history of ${history.length} messages (${cold} tokens): first estimate ${coldMs.toFixed(2)} ms, cached ${(warmMs * 1000).toFixed(0)} µs`,
);

// Tool definitions against gpt-tokenizer's rendering of the same definitions.
const toolsText = files.find((file) => file.name === 'tools.json.txt')!.text;
const tools = (JSON.parse(toolsText) as { tools: { function: ToolDefinition }[] }).tools.map((tool) => tool.function);
const toolsReal = estimateTokensInFunctions(tools as never, (text) => encode(text).length);
const toolsEstimated = estimateToolDefinitionTokens(tools);
console.log(
  `tool definitions (${tools.length} tools): o200k ${toolsReal}, estimate ${toolsEstimated} (${percent(toolsEstimated / toolsReal - 1)})`,
);

console.log(
  `\ngoals: every class within ±10% → ${allWithinGoal ? 'met' : 'NOT met'}; ≥ 50 MB/s (slowest class ${slowest.toFixed(0)} MB/s) → ${slowest >= 50 ? 'met' : 'NOT met'}`,
);
