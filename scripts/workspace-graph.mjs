// What the build checks about how workspace packages depend on each other (the single-program build resolves every
// package to its sources, so nothing else would notice): no cycle among their dependencies, contract packages
// (api-*) depending on no implementation (plugin-*), and every @aalis/* or @plingjs/* import of a package's sources
// declared in its package.json — in dependencies when the file is built (it ships), in devDependencies at least when
// it is not (tests, fixtures, scripts) — as an install from the registry needs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { packageDirs } from './package-dirs.mjs';

const RELATIVE_IMPORT = /(?:\bfrom|\bimport\(|^import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const WORKSPACE_IMPORT = /(?:\bfrom|\bimport\(|^import)\s*['"]((?:@aalis|@plingjs)\/[^/'"]+)/gm;

const sourcesOf = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourcesOf(path);
    return /\.(?:ts|tsx|vue)$/.test(name) ? [path] : [];
  });

/**
 * The problems found, one line each saying what and how to fix it; empty when there are none. `built`: the absolute
 * paths of the source files the build compiles into packages' dist (what ships).
 */
export function checkWorkspaceGraph(root, built) {
  const packagesDir = join(root, 'packages');
  const packages = new Map();
  for (const { path } of packageDirs(root)) {
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    packages.set(manifest.name, { path, manifest });
  }
  const problems = [];
  const runtimeDependencies = (manifest) =>
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) => packages.has(name));

  for (const [name, { path, manifest }] of packages) {
    const src = join(path, 'src');
    if (!existsSync(src)) continue;
    const runtime = new Set(runtimeDependencies(manifest));
    const dev = new Set(Object.keys(manifest.devDependencies ?? {}));
    const reported = new Set();
    for (const file of sourcesOf(src)) {
      const testOnly = !built.has(file);
      for (const [, imported] of readFileSync(file, 'utf8').matchAll(WORKSPACE_IMPORT)) {
        if (imported === name || runtime.has(imported) || (testOnly && dev.has(imported))) continue;
        const where = `${imported} in ${testOnly ? 'devDependencies' : 'dependencies'}`;
        if (reported.has(where)) continue;
        reported.add(where);
        problems.push(
          `${name}: ${relative(packagesDir, file)} imports ${imported}, which its package.json does not declare: add ${where}`,
        );
      }
    }
    // Plugins, contracts and shared libraries never import the runtime, not even in a test or a benchmark: what needs
    // the whole product lives with the runtime's own tests or in packages/tooling (@aalis/e2e).
    const host = join(packagesDir, 'host') + sep;
    const tooling = join(packagesDir, 'tooling') + sep;
    const runtimeDir = join(packagesDir, 'host', 'runtime') + sep;
    if (!path.startsWith(host) && !path.startsWith(tooling))
      for (const folder of ['src', 'bench'].map((inside) => join(path, inside)).filter(existsSync))
        for (const file of sourcesOf(folder)) {
          const text = readFileSync(file, 'utf8');
          const specifiers = [
            ...[...text.matchAll(WORKSPACE_IMPORT)].map((match) => match[1]),
            ...[...text.matchAll(RELATIVE_IMPORT)].map((match) => resolve(dirname(file), match[1])),
          ];
          if (specifiers.some((specifier) => specifier === '@aalis/runtime' || specifier.startsWith(runtimeDir)))
            problems.push(
              `${name}: ${relative(packagesDir, file)} imports the runtime: a plugin, contract or library never does; put a test that needs the whole product in packages/tooling/e2e or beside the runtime's tests`,
            );
        }
    if (name.includes('/api-'))
      for (const dependency of runtime)
        if (dependency.includes('/plugin-'))
          problems.push(
            `${name} is a contract package but depends on the implementation ${dependency}: move what it needs into a contract`,
          );
  }

  // Cycles among runtime dependencies (devDependencies may point back: a test helper package used by its users' tests).
  const state = new Map();
  const visit = (name, path) => {
    state.set(name, 'open');
    for (const dependency of runtimeDependencies(packages.get(name).manifest)) {
      if (state.get(dependency) === 'open')
        problems.push(`dependency cycle: ${[...path.slice(path.indexOf(dependency)), dependency].join(' → ')}`);
      else if (!state.has(dependency)) visit(dependency, [...path, dependency]);
    }
    state.set(name, 'done');
  };
  for (const name of packages.keys()) if (!state.has(name)) visit(name, [name]);
  return problems;
}
