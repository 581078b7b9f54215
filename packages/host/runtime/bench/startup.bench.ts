// npm run bench startup — `aalis chat` with one line ≤ 3× `node -e 0`. One run is what a user types: `echo hello |
// aalis chat` in a checkout (bin/aalis.mjs: the start build, its freshness checked as on every start, run through its
// V8 code cache), no model configured — so the reply comes from the offline demo model — and no MCP, OpenTelemetry or
// platform sections: start, validate the configuration, open SQLite (migrations), start the plugins, one turn (archive,
// trim, model, reply on standard output), drain, exit 0. Measured in a fresh directory (the first start there: the
// commented config file written, the database created) and in a directory that ran before (a later start), against
// `node -e 0` and against the sources through tsx (AALIS_USE_SOURCE=1). The commands run interleaved, round after round
// (the order rotating), so a machine that is busy meanwhile slows every column alike; figures are medians, the ratios
// are ratios of medians.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/aalis.mjs', import.meta.url));
const ROUNDS = Number(process.env.BENCH_RUNS ?? 21);
const GOAL = 3;

// What a default run sees: no Aalis, OpenTelemetry or Anthropic settings from the environment of the bench.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !key.startsWith('AALIS_') && !key.startsWith('OTEL_') && key !== 'ANTHROPIC_API_KEY',
  ),
);

interface Command {
  label: string;
  args: string[];
  /** A fresh directory per run (true) or the one kept for this command. */
  fresh?: boolean;
  extraEnv?: Record<string, string>;
  dir?: string;
  times: number[];
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}

function run(command: Command): number {
  const cwd = command.fresh ? mkdtempSync(join(tmpdir(), 'aalis-startup-')) : command.dir!;
  try {
    const start = performance.now();
    const result = spawnSync(process.execPath, command.args, {
      cwd,
      input: 'hello\n',
      env: { ...env, ...command.extraEnv },
    });
    const elapsed = performance.now() - start;
    if (result.status !== 0) throw new Error(`${command.label} exited ${result.status}: ${result.stderr}`);
    if (command.args[0] === BIN && !/hello/.test(String(result.stdout))) {
      throw new Error(`${command.label} printed no reply: ${result.stdout}`);
    }
    return elapsed;
  } finally {
    if (command.fresh) rmSync(cwd, { recursive: true, force: true });
  }
}

const commands: Command[] = [
  { label: 'node -e 0', args: ['-e', '0'], fresh: true, times: [] },
  { label: 'aalis chat, first start (fresh directory)', args: [BIN, 'chat'], fresh: true, times: [] },
  { label: 'aalis chat, later start (directory ran before)', args: [BIN, 'chat'], times: [] },
  {
    label: 'aalis chat, sources through tsx (AALIS_USE_SOURCE=1)',
    args: [BIN, 'chat'],
    fresh: true,
    extraEnv: { AALIS_USE_SOURCE: '1' },
    times: [],
  },
];
const kept = mkdtempSync(join(tmpdir(), 'aalis-startup-kept-'));
commands[2]!.dir = kept;

try {
  // Brings the build up to date first and prepares the directory of the later starts (not timed).
  const build = performance.now();
  run(commands[2]!);
  console.log(`first run (builds the start bundle when sources changed): ${(performance.now() - build).toFixed(0)} ms`);
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < commands.length; index++) {
      const command = commands[(index + round) % commands.length]!;
      command.times.push(run(command));
    }
  }
} finally {
  rmSync(kept, { recursive: true, force: true });
}

const node = quantile(commands[0]!.times, 0.5);
console.log(`\`echo hello | aalis chat\` (offline model, default plugin set) — ${ROUNDS} interleaved rounds`);
console.log('| command                                              | median ms | p25–p75 ms    | × node -e 0 |');
console.log('|------------------------------------------------------|-----------|---------------|-------------|');
for (const command of commands) {
  const median = quantile(command.times, 0.5);
  const spread = `${quantile(command.times, 0.25).toFixed(0)}–${quantile(command.times, 0.75).toFixed(0)}`;
  console.log(
    `| ${command.label.padEnd(52)} | ${median.toFixed(1).padStart(9)} | ${spread.padStart(13)} | ${(median / node).toFixed(2).padStart(10)}× |`,
  );
}
const first = quantile(commands[1]!.times, 0.5) / node;
const later = quantile(commands[2]!.times, 0.5) / node;
const verdict = (ratio: number) => (ratio <= GOAL ? 'met' : 'NOT met');
console.log(
  `Goal 4: aalis chat with one line ≤ ${GOAL}× node -e 0 — first start ${first.toFixed(2)}× (${verdict(first)}), later start ${later.toFixed(2)}× (${verdict(later)})`,
);
