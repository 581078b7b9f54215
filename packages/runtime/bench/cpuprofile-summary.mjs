#!/usr/bin/env node
// Summarises a .cpuprofile (BENCH_PROFILE=<file> npm run bench concurrency writes one of the product's measured
// rounds): the share of busy samples by concern (the first concern found on a sample's stack, in the order below),
// then the functions with the most self time. Shares are of samples, i.e. of wall time on the main thread: on a
// loaded machine a syscall that is descheduled looks longer than the CPU it costs.
//   node packages/runtime/bench/cpuprofile-summary.mjs <file.cpuprofile> [top functions, default 40]
import { readFileSync } from 'node:fs';

const CONCERNS = [
  ['garbage collector', (frame) => frame.functionName === '(garbage collector)'],
  ['SQLite: leases (plugin-storage)', (frame) => /plugin-storage\/src\/lease/.test(frame.url)],
  [
    'SQLite: memory, archive, sessions',
    (frame) => /better-sqlite3|\/sqlite\/src|sqlite-memory|sqlite-session/.test(frame.url),
  ],
  ['file log and logger', (frame) => /core\/src\/logger|log-sinks|log-format/.test(frame.url)],
  ['usage events', (frame) => /usage-(report|emitter)/.test(frame.url)],
  ['trim', (frame) => /trim-call|context-budget\/src\/(trim|history-trim|history-view)/.test(frame.url)],
  ['token estimates (other)', (frame) => /context-budget/.test(frame.url)],
  [
    'response decoding (SSE, stream)',
    (frame) => /wire-openai\/src\/(sse|chat-stream|stream-assembler|assemble)|read-response/.test(frame.url),
  ],
  ['request encoding', (frame) => /wire-openai/.test(frame.url)],
  [
    'HTTP client (node:http, net, streams)',
    (frame) =>
      /^node:(_http|net|http|internal\/streams|internal\/stream_base|internal\/url)/.test(frame.url) ||
      /http-exchange|open-with-retries/.test(frame.url) ||
      frame.functionName === 'writev',
  ],
  ['hooks', (frame) => /plugin-hooks/.test(frame.url)],
  ['tools', (frame) => /plugin-tools|validate-json-schema|calculator|basic-tools/.test(frame.url)],
  ['abort signals', (frame) => /abort_controller|event_target|link-signals/.test(frame.url)],
  ['session settings, sessions, authority', (frame) => /session-settings|session-manager|authority/.test(frame.url)],
  ['agent and the rest of ours', (frame) => /\/packages\//.test(frame.url)],
];
const IDLE = new Set(['(idle)', '(program)']);

const [file, topArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node packages/runtime/bench/cpuprofile-summary.mjs <file.cpuprofile> [top functions]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);

const shortUrl = (url) => url.replace(/^file:\/\/.*?\/packages\//, '').replace(/.*node_modules\//, '');
let busy = 0;
const byConcern = new Map();
const bySelf = new Map();
for (const [id, count] of hits) {
  const leaf = nodes.get(id);
  if (IDLE.has(leaf.callFrame.functionName)) continue;
  busy += count;
  const stack = [];
  for (let at = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at).callFrame);
  const concern = CONCERNS.find(([, test]) => stack.some(test))?.[0] ?? 'other (microtasks, runtime)';
  byConcern.set(concern, (byConcern.get(concern) ?? 0) + count);
  const name = `${leaf.callFrame.functionName || '(anonymous)'} ${shortUrl(leaf.callFrame.url)}`;
  bySelf.set(name, (bySelf.get(name) ?? 0) + count);
}
const share = (count) => `${((100 * count) / busy).toFixed(1).padStart(5)}%`;
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
console.log(`${busy} busy samples of ${profile.samples.length}`);
console.log('By concern:');
for (const [concern, count] of sorted(byConcern)) console.log(`${share(count)}  ${concern}`);
console.log('By self time:');
for (const [name, count] of sorted(bySelf).slice(0, Number(topArgument ?? 40))) console.log(`${share(count)}  ${name}`);
