// The built JavaScript the aalis command runs in a source checkout: one esbuild bundle of the CLI and every workspace
// package it reaches, rebuilt before a start whenever a source it was built from changed — so a start never serves
// old code and never pays for a TypeScript loader. Freshness is a fingerprint of the sources (path, size, mtime of
// every non-test file under src/ of each package the runtime depends on, their package.json) and of the installed
// dependencies (node_modules/.package-lock.json), stored next to the bundle.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const runtimeDir = fileURLToPath(new URL('../', import.meta.url));
const packagesDir = join(runtimeDir, '..');
const repositoryRoot = join(packagesDir, '..');
export const BUNDLE_FILE = join(runtimeDir, 'dist', 'aalis-bundle.mjs');
const STAMP_FILE = `${BUNDLE_FILE}.fingerprint`;
const LOCK_DIR = `${BUNDLE_FILE}.lock`;
/** Native or optional modules that cannot be bundled; the WebUI page package is imported by name when served. */
const EXTERNAL = ['better-sqlite3', 'pg-native', 'bufferutil', 'utf-8-validate', '@aalis/plugin-webui'];

/** Workspace package directories the runtime depends on (itself included), following package.json dependencies. */
function closure() {
  const byName = new Map();
  for (const dir of readdirSync(packagesDir)) {
    const file = join(packagesDir, dir, 'package.json');
    if (!existsSync(file)) continue;
    byName.set(JSON.parse(readFileSync(file, 'utf8')).name, join(packagesDir, dir));
  }
  const seen = new Map();
  const queue = ['@aalis/runtime'];
  while (queue.length > 0) {
    const name = queue.pop();
    const dir = byName.get(name);
    if (!dir || seen.has(name)) continue;
    seen.set(name, dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
  }
  return [...seen.values()].sort();
}

function addTree(hash, dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) addTree(hash, path);
    // Tests are not bundled: editing one needs no rebuild.
    else if (entry.isFile() && !/\.(test|case)\.tsx?$/.test(entry.name)) addFile(hash, path);
  }
}

function addFile(hash, path) {
  try {
    const stat = statSync(path);
    hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  } catch {
    hash.update(`${path}\0missing\n`);
  }
}

/** The fingerprint of everything the bundle is built from. */
export function sourceFingerprint() {
  const hash = createHash('sha256');
  addFile(hash, fileURLToPath(import.meta.url)); // the build options themselves
  addFile(hash, join(repositoryRoot, 'node_modules', '.package-lock.json'));
  for (const dir of closure()) {
    addFile(hash, join(dir, 'package.json'));
    addTree(hash, join(dir, 'src'));
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return readFileSync(STAMP_FILE, 'utf8').trim();
  } catch {
    return undefined;
  }
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
  mkdirSync(dirname(LOCK_DIR), { recursive: true });
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

/**
 * The bundle's path, after building it when it is missing or was built from other sources. `log` receives one
 * line when a build starts (the terminal shows why the start takes longer).
 */
export async function freshBundle({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const wanted = sourceFingerprint();
  if (existsSync(BUNDLE_FILE) && readStamp() === wanted) return BUNDLE_FILE;
  return await withLock(async () => {
    // Another process may have built it while this one waited.
    const fingerprint = sourceFingerprint();
    if (existsSync(BUNDLE_FILE) && readStamp() === fingerprint) return BUNDLE_FILE;
    log(existsSync(BUNDLE_FILE) ? 'Sources changed: rebuilding Aalis…' : 'Building Aalis (first start)…');
    const { build } = await loadEsbuild();
    const temporary = `${BUNDLE_FILE}.${process.pid}.tmp`;
    await build({
      entryPoints: [join(runtimeDir, 'src', 'cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: temporary,
      // Workspace packages from their TypeScript sources (their exports' "source" condition).
      conditions: ['source'],
      external: EXTERNAL,
      // Bundled CommonJS dependencies call require() for Node's built-ins.
      banner: {
        js: "import { createRequire as __aalisCreateRequire } from 'node:module'; const require = __aalisCreateRequire(import.meta.url);",
      },
      // Less to parse at every start; names are kept for stack traces, the source map maps them back.
      minifyWhitespace: true,
      minifySyntax: true,
      sourcemap: 'linked',
      legalComments: 'none',
      logLevel: 'error',
    });
    renameSync(`${temporary}.map`, `${BUNDLE_FILE}.map`);
    // The source map comment names the temporary file: point it at the final one.
    const code = readFileSync(temporary, 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
    writeFileSync(temporary, `${code}//# sourceMappingURL=aalis-bundle.mjs.map\n`);
    renameSync(temporary, BUNDLE_FILE);
    writeFileSync(STAMP_FILE, `${fingerprint}\n`);
    return BUNDLE_FILE;
  });
}
