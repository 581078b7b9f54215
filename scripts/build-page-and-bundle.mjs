#!/usr/bin/env node
// Part of `npm run build` (scripts/build.mjs runs it beside the TypeScript program, on the core the program leaves
// idle): the WebUI page (each package's `build:page`, Vite), then the bundle `aalis` and `npm start` run
// (packages/host/runtime/bin/fresh-bundle.mjs, esbuild), so the first `aalis` start after a build (the first test
// that spawns one, with every other such test waiting on its lock) does not build it. After the page, because the
// bundle's start builds the page too when it finds it stale, and two builds of one page must not write at once.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDirs } from './package-dirs.mjs';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

const pages = packageDirs(root).filter(({ path }) => {
  const file = join(path, 'package.json');
  return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).scripts?.['build:page'];
});
try {
  await Promise.all(pages.map(({ path }) => run(npm, ['run', '--silent', 'build:page'], path)));
  const { freshBundle } = await import('../packages/host/runtime/bin/fresh-bundle.mjs');
  await freshBundle({ log: () => {} });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
