#!/usr/bin/env node
// Benchmark runner: `npm run bench` lists the benchmarks, `npm run bench <name> [args…] [<name> [args…]]` runs them;
// words after a benchmark's name that are not benchmark names are that benchmark's arguments (`platforms wecom`).
// A benchmark is a file packages/<role>/<dir>/bench/<name>.bench.ts that prints its figures and ratios.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packageDirs } from './package-dirs.mjs';

const root = join(import.meta.dirname, '..');
const benches = new Map();
for (const { path } of packageDirs(root)) {
  const benchDir = join(path, 'bench');
  if (!existsSync(benchDir)) continue;
  for (const file of readdirSync(benchDir)) {
    if (file.endsWith('.bench.ts')) benches.set(basename(file, '.bench.ts'), join(benchDir, file));
  }
}
const wanted = process.argv.slice(2);
if (wanted.length === 0) {
  console.log(benches.size === 0 ? 'No benchmarks yet.' : 'Benchmarks (npm run bench <name>):');
  for (const [name, file] of [...benches].sort()) console.log(`  ${name.padEnd(12)} ${file.slice(root.length + 1)}`);
  process.exit(0);
}
let failed = false;
const runs = [];
for (const word of wanted) {
  if (benches.has(word)) runs.push({ name: word, args: [] });
  else if (runs.length > 0) runs[runs.length - 1].args.push(word);
  else {
    console.error(`Unknown benchmark "${word}". Known: ${[...benches.keys()].sort().join(', ') || '(none)'}`);
    failed = true;
  }
}
for (const { name, args } of runs) {
  const file = benches.get(name);
  console.log(`\n=== bench ${[name, ...args].join(' ')} ===`);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', file, ...args], {
    stdio: 'inherit',
    cwd: root,
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
