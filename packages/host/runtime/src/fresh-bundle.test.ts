// The build `aalis` runs in a checkout is rebuilt whenever a source it is built from changes: the stamps a start
// compares must change with any such source, a file added next to one (its directory), and not with a test file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bin folder, without declarations
import { currentBuild, freshBundle, stampsOf } from '../bin/fresh-bundle.mjs';

interface Build {
  entry: string;
  files: string[];
  stamps: string[];
}
const stamps = stampsOf as (files: string[]) => string[];
let files: string[] = [];

function touched(file: string, run: () => void): void {
  const { atime, mtime } = statSync(file);
  utimesSync(file, atime, new Date(mtime.getTime() + 5_000));
  try {
    run();
  } finally {
    utimesSync(file, atime, mtime);
  }
}

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('the start build', () => {
  beforeAll(async () => {
    await (freshBundle as (options: { log: (line: string) => void }) => Promise<string>)({ log: () => {} });
    files = (currentBuild as () => Build).call(undefined).files;
  }, 120_000);

  it('covers the sources it was built from, their directories and manifests, and no test file', () => {
    expect(files).toContain(source('./banner.ts'));
    expect(files).toContain(source('../../../shared/context-budget/src/trim-messages.ts'));
    expect(files).toContain(dirname(source('./banner.ts')));
    expect(files).toContain(source('../../../plugins/plugin-agent/package.json'));
    expect(files.filter((file) => /\.(test|case)\.ts$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.includes('/node_modules/') && !file.endsWith('.package-lock.json'))).toEqual([]);
  });

  it('is stale when a source of the runtime or of a package it depends on changes', () => {
    const before = stamps(files);
    for (const path of ['./banner.ts', '../../../shared/context-budget/src/trim-messages.ts']) {
      touched(source(path), () => expect(stamps(files)).not.toEqual(before));
    }
  });

  it('is stale when a directory of its sources changes (a file added or removed)', () => {
    const before = stamps(files);
    touched(dirname(source('../../../shared/context-budget/src/trim-messages.ts')), () =>
      expect(stamps(files)).not.toEqual(before),
    );
  });

  it("holds the WebUI package's entry, which finds the package's page wherever the build is", async () => {
    expect(files).toContain(source('../../../plugins/plugin-webui/src/build-page.ts'));
    const build = (currentBuild as () => Build).call(undefined);
    const webui = (await import(pathToFileURL(join(dirname(build.entry), 'plugin-webui.mjs')).href)) as {
      PAGE_OUT_DIR: string;
      PAGE_SOURCE_DIR: string;
    };
    expect(webui.PAGE_OUT_DIR).toBe(source('../../../plugins/plugin-webui/dist/page'));
    expect(webui.PAGE_SOURCE_DIR).toBe(source('../../../plugins/plugin-webui/src/page'));
  });

  it('stays fresh when a test file changes', () => {
    const before = stamps(files);
    touched(fileURLToPath(import.meta.url), () => expect(stamps(files)).toEqual(before));
  });
});

describe('loadBundle', () => {
  const bin = fileURLToPath(new URL('../bin/fresh-bundle.mjs', import.meta.url));
  /** Loads the entry in a process of its own (V8 would reuse its in-process compilation otherwise). */
  function start(entry: string): { answer: number; file: string; fromCache: boolean } {
    const script = `const { loadBundle } = await import(${JSON.stringify(bin)}); const run = loadBundle(${JSON.stringify(entry)}); run.save(); console.log(JSON.stringify({ answer: run.exports.answer(), file: run.exports.file, fromCache: run.fromCache }));`;
    return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  }

  it('runs a build as a CommonJS module, then from the code cache it wrote, and replaces a cache V8 refuses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-bundle-'));
    try {
      const entry = join(dir, 'cli.cjs');
      writeFileSync(entry, 'exports.answer = () => 42; exports.file = __filename; require("node:path");');
      expect(start(entry)).toEqual({ answer: 42, file: entry, fromCache: false });
      expect(readFileSync(`${entry}.v8-cache`).length).toBeGreaterThan(0);
      expect(start(entry)).toEqual({ answer: 42, file: entry, fromCache: true });
      writeFileSync(`${entry}.v8-cache`, 'not a cache of this source');
      expect(start(entry)).toEqual({ answer: 42, file: entry, fromCache: false });
      expect(start(entry).fromCache).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
