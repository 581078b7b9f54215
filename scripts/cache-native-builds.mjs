#!/usr/bin/env node
// After `npm ci`: keeps the native addons npm compiled from source (better-sqlite3, when its prebuilt binary cannot be
// downloaded) in prebuild-install's own cache, so the next clean install on this machine unpacks it instead of
// compiling SQLite again (minutes on two cores). Nothing changes when the binary was downloaded or is cached already.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
/** Addons installed by `prebuild-install || node-gyp rebuild`, and the file their build leaves. */
const ADDONS = [{ name: 'better-sqlite3', binary: 'build/Release/better_sqlite3.node' }];

for (const { name, binary } of ADDONS) {
  try {
    cache(name, binary);
  } catch (error) {
    // A cache that cannot be written costs the next install a compile, nothing else: never a failed CI run.
    process.stderr.write(`could not cache the ${name} build (${error instanceof Error ? error.message : error})\n`);
  }
}

function cache(name, binary) {
  let dir;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    return; // not installed
  }
  if (!existsSync(join(dir, binary))) return;
  // The cache path prebuild-install looks in before downloading: computed by its own code (its options, the
  // download URL) as its install does.
  const prebuildRequire = createRequire(join(dir, 'package.json'));
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const options = prebuildRequire('prebuild-install/rc')(pkg);
  const util = prebuildRequire('prebuild-install/util');
  const cached = util.cachedPrebuild(util.getDownloadUrl({ ...options, pkg }));
  if (existsSync(cached)) return;
  mkdirSync(dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  try {
    execFileSync('tar', ['-czf', partial, '-C', dir, binary]);
    renameSync(partial, cached);
  } finally {
    rmSync(partial, { force: true });
  }
  process.stdout.write(`cached the ${name} build for the next install: ${cached}\n`);
}
