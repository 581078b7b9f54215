// npm run bench startup — issue #15 goal 4: `aalis chat` with one line of input (offline model, fresh data
// directory each run), the way `npm start` / `npx aalis` runs it in a checkout (the built bundle, checked fresh),
// against `node -e 0` and against the TypeScript sources through tsx (AALIS_USE_SOURCE=1), interleaved, median
// wall time. Goal: aalis chat ≤ 3× node -e 0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/aalis.mjs', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AALIS_')));

function timed(args: string[], extraEnv: Record<string, string> = {}): number {
  const cwd = mkdtempSync(join(tmpdir(), 'aalis-startup-'));
  try {
    const start = performance.now();
    const run = spawnSync(process.execPath, args, { cwd, input: 'hello\n', env: { ...env, ...extraEnv } });
    const elapsed = performance.now() - start;
    if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    return elapsed;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

// Brings the bundle up to date first (a rebuild is reported on its own, not timed).
const build = performance.now();
timed([BIN, 'chat']);
console.log(`first run (builds the bundle when sources changed): ${(performance.now() - build).toFixed(0)} ms`);
const figures = { node: [] as number[], bundle: [] as number[], source: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  figures.node.push(timed(['-e', '0']));
  figures.bundle.push(timed([BIN, 'chat']));
  figures.source.push(timed([BIN, 'chat'], { AALIS_USE_SOURCE: '1' }));
}
const node = median(figures.node);
const bundle = median(figures.bundle);
const source = median(figures.source);
console.log(`Start, one line, exit — median of ${RUNS} interleaved runs`);
console.log('| command                               | ms      | × node -e 0 |');
console.log('|---------------------------------------|---------|-------------|');
console.log(`| node -e 0                             | ${node.toFixed(1).padStart(7)} | ${'1.00'.padStart(10)}× |`);
console.log(
  `| aalis chat (built bundle, as npm start) | ${bundle.toFixed(1).padStart(7)} | ${(bundle / node).toFixed(2).padStart(10)}× |`,
);
console.log(
  `| aalis chat (AALIS_USE_SOURCE=1, tsx)  | ${source.toFixed(1).padStart(7)} | ${(source / node).toFixed(2).padStart(10)}× |`,
);
console.log(`Goal 4: aalis chat ≤ 3× node -e 0 — ${(bundle / node).toFixed(2)}×`);
