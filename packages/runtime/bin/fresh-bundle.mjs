// The built JavaScript the aalis command runs in a source checkout: an esbuild build of the CLI and every workspace
// package it reaches, split into chunks at each dynamic import (a plugin a run does not enable is never read or
// parsed), rebuilt before a start whenever a source it was built from changed — so a start never serves old code and
// never pays for a TypeScript loader. Freshness: the size and mtime of each file the last build read (esbuild's
// metafile: the workspace sources, and their directories — a file added or removed changes one), of each workspace
// package.json, of the installed dependencies (node_modules/.package-lock.json) and of this file (the build
// options), recorded with the build and compared one by one at start: a few hundred stats, no hashing, not every
// file of every package.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const runtimeDir = fileURLToPath(new URL('../', import.meta.url));
const packagesDir = join(runtimeDir, '..');
const repositoryRoot = join(packagesDir, '..');
/** Where builds live: one directory per build, and current.json naming the current one and what it was built from. */
export const BUNDLE_DIR = join(runtimeDir, 'dist', 'bundle');
const CURRENT_FILE = join(BUNDLE_DIR, 'current.json');
const LOCK_DIR = join(BUNDLE_DIR, 'build.lock');
/** Native or optional modules that cannot be bundled; the WebUI page package is imported by name when served. */
const EXTERNAL = ['better-sqlite3', 'pg-native', 'bufferutil', 'utf-8-validate', '@aalis/plugin-webui'];
/**
 * CommonJS packages left external are loaded with require(), not import: an ES import of CommonJS makes Node run its
 * export lexer (a WebAssembly module compiled at first use — tens of milliseconds of every start).
 */
const REQUIRED = ['better-sqlite3'];
const requireExternals = {
  name: 'require-commonjs-externals',
  setup(build) {
    const filter = new RegExp(`^(${REQUIRED.join('|')})$`);
    build.onResolve({ filter }, (args) =>
      args.namespace === 'required' ? { path: args.path, external: true } : { path: args.path, namespace: 'required' },
    );
    // `require` is the one the banner defines in every chunk.
    build.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
      contents: `export default require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
/** Files every build is checked against, whatever it read. */
const ALWAYS = [fileURLToPath(import.meta.url), join(repositoryRoot, 'node_modules', '.package-lock.json')];
/** Builds kept besides the current one: a process that started from the previous build may still load a chunk. */
const KEEP_PREVIOUS = 1;

/** What a start compares for one file: its size and mtime, or that it is missing. */
function stampOf(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : 'missing';
}

/** The stamps of these files (absolute paths) as they are now, one per file. */
export function stampsOf(files) {
  return files.map(stampOf);
}

/** The current build: { entry, files (absolute), stamps (as they were built) }, if any. */
export function currentBuild() {
  try {
    const recorded = JSON.parse(readFileSync(CURRENT_FILE, 'utf8'));
    // Written by another version of this file: as good as none.
    if (!Array.isArray(recorded.files) || !Array.isArray(recorded.stamps) || typeof recorded.entry !== 'string') {
      return undefined;
    }
    const prefix = repositoryRoot.endsWith(sep) ? repositoryRoot : repositoryRoot + sep;
    return {
      entry: join(BUNDLE_DIR, recorded.entry),
      files: recorded.files.map((file) => prefix + file),
      stamps: recorded.stamps,
    };
  } catch {
    return undefined;
  }
}

/** The current build's entry when nothing it was built from changed since. */
function freshEntry() {
  const build = currentBuild();
  if (!build || build.stamps.length !== build.files.length || !existsSync(build.entry)) return undefined;
  for (let index = 0; index < build.files.length; index++) {
    if (stampOf(build.files[index]) !== build.stamps[index]) return undefined;
  }
  return build.entry;
}

/** The package.json of every workspace package (their exports and dependencies decide what a build resolves). */
function workspaceManifests() {
  return readdirSync(packagesDir)
    .map((dir) => join(packagesDir, dir, 'package.json'))
    .filter((file) => existsSync(file));
}

/** esbuild comes with tsx (a dependency of this package): found beside it when it is not hoisted. */
async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    const { createRequire } = await import('node:module');
    const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
    return await import(pathToFileURL(fromTsx.resolve('esbuild')).href);
  }
}

async function withLock(run) {
  mkdirSync(BUNDLE_DIR, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than two minutes belongs to a build that died.
      try {
        if (Date.now() - statSync(LOCK_DIR).mtimeMs > 120_000) rmSync(LOCK_DIR, { recursive: true, force: true });
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await run();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Builds into a new directory and makes it current; returns its entry. */
async function build() {
  const { build: esbuild } = await loadEsbuild();
  const startedAt = Date.now();
  const temporary = join(BUNDLE_DIR, `.${process.pid}.tmp`);
  rmSync(temporary, { recursive: true, force: true });
  const result = await esbuild({
    entryPoints: { cli: join(runtimeDir, 'src', 'cli.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: temporary,
    // One flat directory: chunks import each other by relative name.
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    // Workspace packages from their TypeScript sources (their exports' "source" condition).
    conditions: ['source'],
    external: EXTERNAL.filter((name) => !REQUIRED.includes(name)),
    plugins: [requireExternals],
    // Bundled CommonJS dependencies call require() for Node's built-ins (each chunk is its own module scope).
    banner: {
      js: "import { createRequire as __aalisCreateRequire } from 'node:module'; const require = __aalisCreateRequire(import.meta.url);",
    },
    // Less to parse at every start; names are kept for stack traces, the source maps map them back.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'error',
  });
  // What this build read from the workspace (installed dependencies are covered by the lock file), with the
  // directories they are in: a file added there may change what an import resolves to.
  const sources = Object.keys(result.metafile.inputs)
    .map((input) => resolve(input))
    .filter((path) => !path.split(/[\\/]/).includes('node_modules') && path.startsWith(packagesDir));
  const files = [
    ...new Set([...ALWAYS, ...workspaceManifests(), ...sources, ...sources.map((path) => dirname(path))]),
  ].sort();
  const racy = files.some((path) => {
    try {
      return statSync(path).mtimeMs >= startedAt - 1;
    } catch {
      return false;
    }
  });
  const stamps = stampsOf(files);
  const { createHash } = await import('node:crypto');
  const name = createHash('sha256').update(files.join('\n')).update(stamps.join('\n')).digest('hex').slice(0, 16);
  const target = join(BUNDLE_DIR, name);
  rmSync(target, { recursive: true, force: true });
  renameSync(temporary, target);
  const record = {
    entry: `${name}/cli.mjs`,
    files: files.map((path) => relative(repositoryRoot, path)),
    // A source saved while esbuild was reading it may not be in this build: no stamps, so the next start builds again.
    stamps: racy ? [] : stamps,
  };
  writeFileSync(`${CURRENT_FILE}.tmp`, `${JSON.stringify(record)}\n`);
  renameSync(`${CURRENT_FILE}.tmp`, CURRENT_FILE);
  removeOldBuilds(name);
  return join(target, 'cli.mjs');
}

/** Removes all but the newest builds (the current one and KEEP_PREVIOUS before it). */
function removeOldBuilds(current) {
  const builds = readdirSync(BUNDLE_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current && /^[0-9a-f]{16}$/.test(entry.name))
    .map((entry) => ({ path: join(BUNDLE_DIR, entry.name), mtime: statSync(join(BUNDLE_DIR, entry.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path } of builds.slice(KEEP_PREVIOUS)) rmSync(path, { recursive: true, force: true });
  // What the single-file layout left (dist/aalis-bundle.mjs and its map and fingerprint).
  for (const leftover of ['aalis-bundle.mjs', 'aalis-bundle.mjs.map', 'aalis-bundle.mjs.fingerprint']) {
    rmSync(join(runtimeDir, 'dist', leftover), { force: true });
  }
}

/**
 * The entry of a build made from the sources as they are now, after building it when there is none. `log` receives
 * one line when a build starts (the terminal shows why the start takes longer).
 */
export async function freshBundle({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const entry = freshEntry();
  if (entry) return entry;
  return await withLock(async () => {
    // Another process may have built it while this one waited.
    const built = freshEntry();
    if (built) return built;
    log(currentBuild() ? 'Sources changed: rebuilding Aalis…' : 'Building Aalis (first start)…');
    return await build();
  });
}
