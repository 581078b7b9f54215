import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { packageDirs } from './scripts/package-dirs.mjs';
import { committedDurations, longestFirst } from './scripts/test-order.mjs';

/**
 * Tests run against the workspace packages' TypeScript sources: their exports' "source" condition. It is applied
 * to workspace packages only (resolved here), not as a global condition, because Vitest hands global conditions to
 * Node for externalised dependencies, and some of those publish a "source" condition of their own that points to
 * TypeScript Node cannot load (eventsource, used by the MCP SDK).
 */
function workspaceSources(): Plugin {
  const entries = new Map<string, string>();
  for (const { path } of packageDirs(import.meta.dirname)) {
    const file = join(path, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
      name: string;
      exports?: Record<string, { source?: string } | string>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target === 'object' && target.source) {
        entries.set(join(manifest.name, subpath).replace(/\/\.$/, ''), join(path, target.source));
      }
    }
  }
  return {
    name: 'workspace-sources',
    enforce: 'pre',
    resolveId(id) {
      return entries.get(id) ?? null;
    },
  };
}

const include = ['packages/*/*/src/**/*.test.ts', 'packages/*/*/src/**/*.test.tsx'];

/**
 * What a test file (or a module of its own package it imports) does that needs a process of its own: children
 * (aalis processes, tmux, MCP servers), browsers, a throwaway PostgreSQL (stopped on the process's exit), signal or
 * exit handlers, process.exit. Such files run in forks; the rest (pure code, in-process servers, SQLite) in worker
 * threads, which start several times faster than a fork per file.
 */
const NEEDS_A_PROCESS =
  /child_process|throwaway|playwright|chromium|browser-testing|spawn-aalis|start-aalis|startAalis|tmux|worker_threads|process\.(exit|on|once|kill|chdir|stdin)\b|SIG(TERM|INT|HUP|KILL)/;
const RELATIVE_IMPORT = /from '(\.{1,2}\/[^']+)'/g;

function needsAProcess(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const path = file.replace(/\.js$/, '.ts');
  const source = existsSync(path)
    ? readFileSync(path, 'utf8')
    : existsSync(`${path}x`)
      ? readFileSync(`${path}x`, 'utf8')
      : '';
  if (NEEDS_A_PROCESS.test(source)) return true;
  for (const [, specifier] of source.matchAll(RELATIVE_IMPORT)) {
    if (needsAProcess(resolve(dirname(file), specifier!), seen)) return true;
  }
  return false;
}

function testFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.test\.tsx?$/.test(entry.name)) files.push(path);
    }
  };
  for (const { path } of packageDirs(import.meta.dirname)) {
    if (existsSync(join(path, 'src'))) walk(join(path, 'src'));
  }
  return files;
}

/**
 * Files that run alone, after the others: they load the machine themselves (three `aalis serve` processes, 100
 * sessions) and check what happens within deadlines that a neighbour competing for the two cores could miss.
 */
const alone = ['packages/host/runtime/src/e2e-multi-process-scale.test.ts'];
const inProcesses: string[] = [];
const inThreads: string[] = [];
for (const file of testFiles()) {
  (needsAProcess(file) ? inProcesses : inThreads).push(file.slice(import.meta.dirname.length + 1));
}
/**
 * Files share their workers (projects `browsers`, `processes` and `threads`, `isolate: false`): a fork or thread runs
 * one file after another and imports the module graph once, not once per file (imports were about 40 % of the process
 * files' CPU and two thirds of the pure files', docs/decisions/test-suite-time.md). So a file must stop all it starts
 * and restore what it changes (environment, listeners), or the next file of its worker inherits it. These run in a
 * fork of their own (project `isolated`): files whose state outlives them in a module they do not own or that check a
 * module's state from its first import.
 */
const OWN_FORK = [
  // The Feishu/Lark SDK keeps its tenant tokens in a module-wide cache by app id: the next file's test server (same
  // app id, another port) was sent the previous server's token and refused it.
  'packages/host/runtime/src/platform-lark.test.ts',
  'packages/host/runtime/src/platform-slack-lark-lease.test.ts',
  'packages/host/runtime/src/room-flow-platforms.test.ts',
  // Checks the token estimate's module-wide cache from empty.
  'packages/shared/context-budget/src/estimate-tokens.cache.test.ts',
];
const isolatedFiles = [...inProcesses, ...inThreads].filter((file) => OWN_FORK.includes(file));
/**
 * The browser tests (Chromium through playwright-core, each file closing its browser, products and servers in its
 * afterAll) share forks of their own project: about 1.4 s of CPU per file was the fork and its imports
 * (playwright-core, @aalis/testing); kept apart from `processes` so that their block runs first, longest first.
 */
const browserFiles = [...inProcesses, ...inThreads].filter(
  (file) => /\.browser\.test\.tsx?$/.test(file) && !OWN_FORK.includes(file) && !alone.includes(file),
);

/**
 * One throwaway PostgreSQL cluster for the run, in the projects whose files may use it (a file that needs PostgreSQL
 * runs in a fork): started only when such a project has files to run, and shared by them.
 */
const globalSetup = ['packages/shared/postgres/src/throwaway-global-setup.ts'];

/**
 * Files run this many at a time (AALIS_TEST_WORKERS overrides it): as many as the cores, no fewer than two, since the
 * slowest files mostly wait (leases expiring, killed processes, browsers, model streams). More than the cores was
 * no faster on a loaded machine and made deadline-bound files miss their deadlines.
 */
const maxWorkers = Number(process.env.AALIS_TEST_WORKERS) || Math.max(2, availableParallelism());

/**
 * The longest files first (scripts/test-order.mjs), in each group (`alone` after the others): with two workers the
 * run ends when its last long file does, so a long file started late, beside a worker with nothing left to do, is
 * time lost. A file's duration is the committed one (scripts/test-durations.json, a whole run), else the one Vitest
 * cached from an earlier run on this machine; files of neither (new ones) come first. Vitest's own order knows only
 * its cache, which a clean clone lacks: it then orders by file size, which put the fresh-clone test (a short file,
 * the longest run) 272nd of 459 (docs/decisions/test-suite-time.md).
 */
const durations = committedDurations();
const PROJECT_ORDER = ['browsers', 'isolated', 'processes', 'threads'];

class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const keyOf = (spec: TestSpecification) => `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
    const durationOf = (spec: TestSpecification) =>
      durations.get(
        relative(import.meta.dirname, spec.moduleId)
          .split(sep)
          .join('/'),
      ) ?? this.ctx.cache.getFileTestResults(keyOf(spec))?.duration;
    const sizeOf = (spec: TestSpecification) => this.ctx.cache.getFileStats(keyOf(spec))?.size ?? 0;
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of files) {
      const order = spec.project.config.sequence.groupOrder;
      groups.set(order, [...(groups.get(order) ?? []), spec]);
    }
    // In each group the projects' files come in blocks (PROJECT_ORDER), each block longest first: a shared fork
    // (project `processes`) is kept for the next file only when the next file in the queue is of its project too;
    // interleaved with the other projects' files, most forks would be ended after one file. The threads' short files
    // come last and even out the two workers' ends.
    const rank = (spec: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(spec.project.name);
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .flatMap((order) => {
        const specs = groups.get(order)!;
        return [...new Set(specs.map(rank))]
          .sort((a, b) => a - b)
          .flatMap((r) =>
            longestFirst(
              specs.filter((spec) => rank(spec) === r),
              durationOf,
              sizeOf,
            ),
          );
      });
  }
}

export default defineConfig({
  plugins: [workspaceSources()],
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    maxWorkers,
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default', './scripts/summary-reporter.mjs'],
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: isolatedFiles, exclude: alone, pool: 'forks', globalSetup },
      },
      {
        extends: true,
        test: { name: 'browsers', include: browserFiles, pool: 'forks', isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include,
          exclude: [...inThreads, ...alone, ...isolatedFiles, ...browserFiles],
          pool: 'forks',
          isolate: false,
          globalSetup,
          // Each file's throwaway databases dropped at its end: the fork lives on, so the run's sweeps would not.
          setupFiles: ['packages/shared/postgres/src/throwaway-file-cleanup.case.ts'],
        },
      },
      {
        extends: true,
        // Shared as the forks of `processes` are (a thread runs one file after another): 316 files took 44.5 s of
        // CPU instead of 124.5 s (imports 62 s instead of 239 s), load 13-15.
        test: {
          name: 'threads',
          include: inThreads,
          exclude: [...isolatedFiles, ...browserFiles],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          globalSetup,
        },
      },
    ],
  },
});
