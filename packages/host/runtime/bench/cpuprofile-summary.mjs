#!/usr/bin/env node
// Summarises a .cpuprofile (BENCH_PROFILE=<file> npm run bench concurrency writes one of the product's measured
// rounds): the share of busy samples by concern (the first concern found on a sample's stack, in the order below),
// then the functions with the most self time. Shares are of samples, i.e. of wall time on the main thread: on a
// loaded machine a syscall that is descheduled looks longer than the CPU it costs. Last, the longest synchronous
// tasks: runs of busy samples under one callback the loop ran (an immediate, a timer, a socket's data …) and what
// each spent its samples on — the causes of event-loop delay. A sampling heap profile (BENCH_HEAP_PROFILE) is read
// the same way, in bytes allocated instead of samples.
//   node packages/host/runtime/bench/cpuprofile-summary.mjs <file> [top functions, default 40] [runs, default 12]
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

const [file, topArgument, runsArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node packages/host/runtime/bench/cpuprofile-summary.mjs <file.cpuprofile> [top functions]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
// A sampling heap profile (BENCH_HEAP_PROFILE) is a tree of nodes with the bytes allocated at each (selfSize):
// flattened into the CPU profile's shape, with bytes in place of samples, the same summary reads it.
const heap = profile.head !== undefined;
const flat = [];
if (heap) {
  const pending = [profile.head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    flat.push({ ...node, children: node.children.map((child) => child.id) });
    pending.push(...node.children);
  }
}
const nodeList = heap ? flat : profile.nodes;
const nodes = new Map(nodeList.map((node) => [node.id, node]));
const parents = new Map();
for (const node of nodeList) for (const child of node.children ?? []) parents.set(child, node.id);
const hits = new Map();
if (heap) for (const node of flat) hits.set(node.id, node.selfSize);
else for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);

const shortUrl = (url) => url.replace(/^file:\/\/.*?\/packages\//, '').replace(/.*node_modules\//, '');
const stackOf = (id) => {
  const stack = [];
  for (let at = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at).callFrame);
  return stack;
};
const concernOf = (stack) => CONCERNS.find(([, test]) => stack.some(test))?.[0] ?? 'other (microtasks, runtime)';
const nameOf = (frame) => `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}`;
let busy = 0;
const byConcern = new Map();
const bySelf = new Map();
for (const [id, count] of hits) {
  const leaf = nodes.get(id);
  if (IDLE.has(leaf.callFrame.functionName)) continue;
  busy += count;
  const concern = concernOf(stackOf(id));
  byConcern.set(concern, (byConcern.get(concern) ?? 0) + count);
  // Allocations are told apart by line (a function allocates in several places), CPU time by function.
  const name = heap ? `${nameOf(leaf.callFrame)}:${leaf.callFrame.lineNumber + 1}` : nameOf(leaf.callFrame);
  bySelf.set(name, (bySelf.get(name) ?? 0) + count);
}
const share = (count) => `${((100 * count) / busy).toFixed(1).padStart(5)}%`;
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
console.log(
  heap
    ? `${(busy / 1048576).toFixed(1)} MB allocated (sampled; collected objects included)`
    : `${busy} busy samples of ${profile.samples.length}`,
);
console.log('By concern:');
for (const [concern, count] of sorted(byConcern)) console.log(`${share(count)}  ${concern}`);
console.log('By self time:');
for (const [name, count] of sorted(bySelf).slice(0, Number(topArgument ?? 40))) console.log(`${share(count)}  ${name}`);
if (heap) process.exit(0);

// Synchronous runs: consecutive busy samples under the same callback the loop ran (the outermost frame under
// (root): a timer, an immediate, the microtask queue, a socket's data …), taken as one task: two callbacks of the
// same node in a row cannot be told apart, so a run may be longer than one task, never shorter. A sample's time is the
// delta to the next one (timeDeltas[i + 1]). Garbage collection and '(program)' (V8 and Node's own work between
// JavaScript frames) belong to the run they interrupt; only '(idle)' or another callback ends a run.
const runs = [];
let current;
for (let index = 0; index < profile.samples.length; index++) {
  const id = profile.samples[index];
  const frame = nodes.get(id).callFrame;
  const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
  if (frame.functionName === '(idle)') {
    current = undefined;
    continue;
  }
  const stack = stackOf(id);
  const between = frame.functionName === '(garbage collector)' || frame.functionName === '(program)';
  // stack.at(-1) is (root); the node under it is the callback.
  const outer = stack.length >= 2 ? stack.at(-2) : frame;
  if (!current || (!between && current.outer !== outer)) {
    current = { ms: 0, samples: 0, outer, entry: nameOf(outer), concerns: new Map() };
    runs.push(current);
  }
  current.ms += ms;
  current.samples++;
  const concern = concernOf(stack);
  current.concerns.set(concern, (current.concerns.get(concern) ?? 0) + ms);
}
runs.sort((a, b) => b.ms - a.ms);
const total = runs.reduce((sum, run) => sum + run.ms, 0);
const over = (limit) => runs.filter((run) => run.ms >= limit).length;
console.log(
  `Longest synchronous runs (${runs.length} runs, ${total.toFixed(0)} ms busy; ${over(5)} of ≥ 5 ms, ${over(10)} of ≥ 10 ms, ${over(20)} of ≥ 20 ms):`,
);
for (const run of runs.slice(0, Number(runsArgument ?? 12))) {
  const parts = sorted(run.concerns)
    .slice(0, 4)
    .map(([concern, ms]) => `${concern} ${((100 * ms) / run.ms).toFixed(0)}%`)
    .join(', ');
  console.log(`${run.ms.toFixed(1).padStart(7)} ms  ${run.samples} samples, began in ${run.entry}: ${parts}`);
}
