#!/usr/bin/env node
// Builds every workspace package to dist/ (JavaScript, declarations and their maps) as its tsconfig.build.json says,
// in one TypeScript program over all of them, and the WebUI page (its package's `build:page`, Vite) and the `aalis`
// command's bundle beside it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { packageDirs } from './package-dirs.mjs';
import { checkWorkspaceGraph } from './workspace-graph.mjs';

const root = join(import.meta.dirname, '..');
const started = Date.now();

/**
 * One program instead of one `tsc -p` per package (69 of them): each of those parsed the libraries' and its
 * dependencies' declarations again, 225 s of CPU where this takes a fraction (docs/decisions/test-suite-time.md).
 * The program resolves workspace packages to their sources (the "source" condition, as the type check does), so no
 * package waits for another's declarations; what each file emits does not depend on that (isolatedModules).
 */
const packages = [];
for (const { dir, path } of packageDirs(root)) {
  const manifestFile = join(path, 'package.json');
  const configFile = join(path, 'tsconfig.build.json');
  if (!existsSync(manifestFile) || !existsSync(configFile)) continue;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (!manifest.scripts?.build) continue;
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic },
  );
  if (config.errors.length > 0) fail(config.errors);
  packages.push({ dir, path, manifest, config });
}

const rootConfig = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic },
);
/** Where each built file goes: its package's outDir, at its path under the package's rootDir. */
const outputOf = new Map();
for (const { config } of packages) {
  const { rootDir, outDir } = config.options;
  for (const file of config.fileNames) outputOf.set(resolve(file), { rootDir, outDir });
}
const graphProblems = checkWorkspaceGraph(root, new Set(outputOf.keys()));
if (graphProblems.length > 0) {
  console.error(`The workspace's package graph is wrong:\n  ${graphProblems.join('\n  ')}`);
  process.exit(1);
}
// The program writes as if to <virtual>/<path under the repository>; writeFile moves each output to its package's
// outDir (and rewrites the maps' source paths for where they really are).
const virtual = join(root, '.build-out');
// The type check's options (tsconfig.json: the base, the "source" condition), emitting.
const options = {
  ...rootConfig.options,
  noEmit: false,
  composite: false,
  rootDir: root,
  outDir: virtual,
};
delete options.configFilePath;
/**
 * With --typecheck the program holds every file the type check does (`npm run typecheck`: tests, benchmarks,
 * scripts, examples too) with the same options, so one pass checks them all and emits the packages: what `npm test`
 * runs, one process instead of a type check and a build that parse the same sources side by side.
 */
const typecheck = process.argv.includes('--typecheck');
const rootNames = typecheck
  ? [...new Set([...rootConfig.fileNames.map((file) => resolve(file)), ...outputOf.keys()])]
  : [...outputOf.keys()];
const program = ts.createProgram({ rootNames, options });

const sourceOf = (output) => {
  const path = relative(virtual, output).replace(/(\.d\.ts|\.js)(\.map)?$/, '');
  for (const extension of ['.ts', '.tsx']) {
    const file = join(root, path + extension);
    if (outputOf.has(file)) return file;
  }
  return undefined;
};
let written = 0;
const writeFile = (name, text) => {
  const source = sourceOf(name);
  if (!source) return; // a file outside every package's build (none should be emitted)
  const { rootDir, outDir } = outputOf.get(source);
  const target = join(outDir, relative(rootDir, dirname(source)), name.slice(dirname(name).length + 1));
  let content = text;
  if (name.endsWith('.map')) {
    const map = JSON.parse(text);
    map.sources = map.sources.map((path) => relative(dirname(target), resolve(dirname(name), path)));
    content = JSON.stringify(map);
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  written++;
};

// The WebUI page (Vite, from sources), then the bundle the `aalis` command runs, build while the program checks and
// emits (scripts/build-page-and-bundle.mjs).
const pages = [run(process.execPath, [join(import.meta.dirname, 'build-page-and-bundle.mjs')], { cwd: root })];

// What `tsc --noEmit` reports; declaration diagnostics (a declaration that cannot be written) come from the emit,
// for the files built only, as from each package's own tsc before.
const diagnostics = [
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...program.getSemanticDiagnostics(),
];
for (const file of outputOf.keys()) {
  const sourceFile = program.getSourceFile(file);
  if (sourceFile) diagnostics.push(...program.emit(sourceFile, writeFile).diagnostics);
}
if (diagnostics.length > 0) fail(diagnostics);
await Promise.all(pages).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
console.log(`built ${packages.length} packages (${written} files) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

function run(command, args, spawnOptions) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...spawnOptions });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolveRun()
        : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

function onUnRecoverableConfigFileDiagnostic(diagnostic) {
  fail([diagnostic]);
}

function fail(list) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(list, host));
  process.exit(1);
}
