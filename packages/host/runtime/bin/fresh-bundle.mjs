// The built JavaScript the aalis command runs in a source checkout: one esbuild build (CommonJS) of the CLI and every
// workspace package it reaches, rebuilt before a start whenever a source it was built from changed — so a start never
// serves old code and never pays for a TypeScript loader — and run through a V8 code cache (loadBundle): a start
// after the first deserialises the functions the previous start compiled instead of parsing and compiling them again.
// A plugin a run does not enable is a lazy module of the build (a dynamic import esbuild turns into a deferred
// initialiser): never evaluated, never compiled. Freshness: the size and mtime of each file the last build read
// (esbuild's metafile: the workspace sources, and their directories — a file added or removed changes one), of the
// package.json of each package they are in, of the installed dependencies (node_modules/.package-lock.json) and of
// this file (the build options), recorded with the build and compared one by one at start: a few hundred stats, no
// hashing, not every file of every package.
// The WebUI is part of what a start prepares: the session server imports @aalis/plugin-webui by name when the page is
// first asked for, and a fresh clone has no dist/ of that package, so each build also holds that package's entry (an
// ES module beside the command's, loaded in its place), and a start builds the page itself (Vite, into the package's
// dist/page) when it is missing or older than its sources — once, said on standard error like the command's build.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const runtimeDir = fileURLToPath(new URL('../', import.meta.url));
// packages/<role>/<dir>: this package is packages/host/runtime.
const packagesDir = join(runtimeDir, '..', '..');
const repositoryRoot = join(packagesDir, '..');
/** Where builds live: one directory per build, and current.json naming the current one and what it was built from. */
export const BUNDLE_DIR = join(runtimeDir, 'dist', 'bundle');
const CURRENT_FILE = join(BUNDLE_DIR, 'current.json');
const LOCK_DIR = join(BUNDLE_DIR, 'build.lock');
const ENTRY_NAME = 'cli.cjs';
/** The WebUI package: its entry is built into each build as WEBUI_ENTRY_NAME and imported in the package's place. */
const WEBUI_PACKAGE = '@aalis/plugin-webui';
const WEBUI_DIR = join(packagesDir, 'plugins', 'plugin-webui');
const WEBUI_ENTRY_NAME = 'plugin-webui.mjs';
/**
 * How the command's bundle is built (esbuild options without entry, output and source map), also used by the
 * benchmarks that measure the product as the command runs it.
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  // CommonJS, because only a classic script can be run with a V8 code cache on Node 20 (vm.Script cachedData;
  // there is no module compile cache before Node 22). Nothing of ours uses top-level await.
  format: 'cjs',
  target: 'node20',
  // Workspace packages from their TypeScript sources (their exports' "source" condition).
  conditions: ['source'],
  // Native or optional modules that cannot be bundled; the WebUI page package is imported by name when served.
  external: ['better-sqlite3', 'pg-native', 'bufferutil', 'utf-8-validate', '@node-rs/argon2', '@aalis/plugin-webui'],
  // The few modules that read import.meta.url get the bundle's own URL.
  define: { 'import.meta.url': '__aalisBundleUrl' },
  banner: { js: 'var __aalisBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  // Less to read at every start; names are kept for stack traces, the source map maps them back.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'error',
};
/** Files every build is checked against, whatever it read. */
const ALWAYS = [fileURLToPath(import.meta.url), join(repositoryRoot, 'node_modules', '.package-lock.json')];
/** Builds kept besides the current one: a process starting from the previous build may still be reading it. */
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

/** The package.json of each workspace package these sources are in (its exports and dependencies decide what resolves). */
function manifestsOf(sources) {
  return sources.map((path) =>
    join(packagesDir, ...relative(packagesDir, path).split(sep).slice(0, 2), 'package.json'),
  );
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
    ...BUNDLE_OPTIONS,
    entryPoints: [join(runtimeDir, 'src', 'cli.ts')],
    // Paths in the build (module names, the metafile) are the repository's, wherever the first start ran.
    absWorkingDir: repositoryRoot,
    outfile: join(temporary, ENTRY_NAME),
    sourcemap: 'linked',
    metafile: true,
  });
  const output = join(temporary, ENTRY_NAME);
  writeFileSync(output, await forTheCodeCache(readFileSync(output, 'utf8')));
  const webuiInputs = await buildWebuiEntry(esbuild, temporary);
  // What this build read from the workspace (installed dependencies are covered by the lock file), with the
  // directories they are in: a file added there may change what an import resolves to.
  const sources = [...Object.keys(result.metafile.inputs), ...webuiInputs]
    .map((input) => resolve(repositoryRoot, input))
    .filter((path) => !path.split(/[\\/]/).includes('node_modules') && path.startsWith(packagesDir));
  const files = [
    ...new Set([...ALWAYS, ...manifestsOf(sources), ...sources, ...sources.map((path) => dirname(path))]),
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
    entry: `${name}/${ENTRY_NAME}`,
    files: files.map((path) => relative(repositoryRoot, path)),
    // A source saved while esbuild was reading it may not be in this build: no stamps, so the next start builds again.
    stamps: racy ? [] : stamps,
  };
  writeFileSync(`${CURRENT_FILE}.tmp`, `${JSON.stringify(record)}\n`);
  renameSync(`${CURRENT_FILE}.tmp`, CURRENT_FILE);
  removeOldBuilds(name);
  return join(target, ENTRY_NAME);
}

/**
 * Builds the WebUI package's entry (its src/index.ts: where the page is and how to build it) into the build directory
 * being made, when the checkout has that package; returns the inputs it read. Its dependencies stay imports (Vite is
 * loaded only to build the page). The package finds its page from its own module URL, so that URL is the package's
 * src/index.ts wherever the build directory is (both lie at fixed places in the checkout).
 */
async function buildWebuiEntry(esbuild, directory) {
  const entry = join(WEBUI_DIR, 'src', 'index.ts');
  if (!existsSync(entry)) return [];
  // The build directory is renamed into BUNDLE_DIR/<name>/ afterwards: the same depth as `directory`.
  const fromBuild = relative(join(BUNDLE_DIR, 'build'), entry).split(sep).join('/');
  const result = await esbuild({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    packages: 'external',
    define: { 'import.meta.url': '__aalisWebuiUrl' },
    banner: { js: `const __aalisWebuiUrl = new URL(${JSON.stringify(fromBuild)}, import.meta.url).href;` },
    absWorkingDir: repositoryRoot,
    outfile: join(directory, WEBUI_ENTRY_NAME),
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  return Object.keys(result.metafile.inputs);
}

/**
 * Builds the WebUI page when it is missing or older than its sources (a fresh clone, a changed page), once for all
 * processes starting at the same time; `entry` is the command's build, with the WebUI package's entry beside it.
 * A page that cannot be built is said and the command starts anyway: the chat works, and the page's address shows
 * what went wrong and how to build it.
 */
async function freshWebuiPage(entry, log) {
  const module = join(dirname(entry), WEBUI_ENTRY_NAME);
  if (!existsSync(module)) return;
  const webui = await import(pathToFileURL(module).href);
  if (!webui.pageIsStale()) return;
  await withLock(async () => {
    if (!webui.pageIsStale()) return;
    const started = Date.now();
    log(
      existsSync(join(webui.PAGE_OUT_DIR, 'index.html'))
        ? 'WebUI page sources changed: rebuilding the page…'
        : 'Building the WebUI page (first start)…',
    );
    try {
      await webui.buildWebuiPage();
      log(`Built the WebUI page in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      log(
        `The WebUI page could not be built (${reason}); Aalis starts without it. Build it with: npm run build:page -w ${WEBUI_PACKAGE}`,
      );
    }
  });
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
 * The entry of a build made from the sources as they are now, after building it when there is none, and the WebUI
 * page built when it is stale. `log` receives a line when a build starts (the terminal shows why the start takes
 * longer).
 */
export async function freshBundle({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const entry =
    freshEntry() ??
    (await withLock(async () => {
      // Another process may have built it while this one waited.
      const built = freshEntry();
      if (built) return built;
      log(currentBuild() ? 'Sources changed: rebuilding Aalis…' : 'Building Aalis (first start)…');
      return await build();
    }));
  await freshWebuiPage(entry, log);
  return entry;
}

/**
 * The build's text as loadBundle compiles it. Each `import()` esbuild leaves (of Node's built-ins, of the WebUI page
 * package) calls the loader's `__aalisImport` instead: on Node 20 a script compiled from a code cache loses its
 * dynamic-import callback. And everything is ASCII — esbuild escapes all but regular expression literals, where a
 * \uXXXX per UTF-16 unit means the same with or without the u flag — so a start reads the file as Latin-1, which
 * costs nothing, instead of decoding UTF-8.
 */
async function forTheCodeCache(code) {
  const { init, parse } = await import('es-module-lexer');
  await init;
  const [imports] = parse(code);
  let text = code;
  // From the end, so earlier offsets stay valid; `import` is replaced up to its parenthesis.
  for (const { d, ss } of [...imports].filter((entry) => entry.d > -1).sort((a, b) => b.ss - a.ss)) {
    text = `${text.slice(0, ss)}__aalisImport${text.slice(d)}`;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, on purpose
  return text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** How loadBundle wraps the build (a CommonJS module's parameters, and the loader's import()). */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __aalisImport) { ';
const WRAPPER_TAIL = '\n})';
/**
 * import() for a build: resolved from this file (bare specifiers: built-ins, packages of the checkout), except the
 * WebUI package, which is the entry built beside the build's own when there is one (see buildWebuiEntry).
 */
function importerFor(entry) {
  const webui = join(dirname(entry), WEBUI_ENTRY_NAME);
  return (specifier) =>
    specifier === WEBUI_PACKAGE && existsSync(webui) ? import(pathToFileURL(webui).href) : import(specifier);
}

/**
 * Runs a build's entry as Node runs a CommonJS module, compiled with the code cache beside it when there is one (V8
 * checks it against the source and the engine, and compiles normally when it does not match). `save()` — called
 * when the run is over, so the cache holds every function this run compiled, not only the top level — writes a
 * fresh cache when there was none or it was rejected.
 */
export function loadBundle(entry) {
  const cacheFile = `${entry}.v8-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  // The build is ASCII (see forTheCodeCache).
  const script = new Script(WRAPPER_HEAD + readFileSync(entry, 'latin1') + WRAPPER_TAIL, {
    filename: entry,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {}, filename: entry, id: entry, loaded: false };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(entry), module, entry, dirname(entry), importerFor(entry));
  module.loaded = true;
  return {
    exports: module.exports,
    /** Whether this run was compiled from the cache. */
    fromCache: cachedData !== undefined && !script.cachedDataRejected,
    save() {
      if (cachedData && !script.cachedDataRejected) return;
      try {
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      } catch {
        // A cache is an optimisation: a read-only checkout runs without one.
      }
    },
  };
}
