#!/usr/bin/env node
// Builds every workspace package to dist/ (JavaScript and declarations) in dependency order.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const manifests = new Map();
for (const dir of readdirSync(packagesDir)) {
  const file = join(packagesDir, dir, 'package.json');
  if (!existsSync(file)) continue;
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifests.set(manifest.name, { dir, manifest });
}
const order = [];
const state = new Map();
const visit = (name, trail) => {
  if (state.get(name) === 'done') return;
  if (state.get(name) === 'visiting') throw new Error(`Dependency cycle: ${[...trail, name].join(' → ')}`);
  state.set(name, 'visiting');
  const { manifest } = manifests.get(name);
  const deps = { ...manifest.dependencies, ...manifest.peerDependencies };
  for (const dep of Object.keys(deps)) if (manifests.has(dep)) visit(dep, [...trail, name]);
  state.set(name, 'done');
  order.push(name);
};
for (const name of [...manifests.keys()].sort()) visit(name, []);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
for (const name of order) {
  const { dir, manifest } = manifests.get(name);
  if (!manifest.scripts?.build) continue;
  process.stdout.write(`build ${name}\n`);
  execFileSync(process.execPath, [tsc, '-p', join(packagesDir, dir, 'tsconfig.build.json')], { stdio: 'inherit' });
  // A package with a page (the WebUI) builds it too, with its own `build:page` script (Vite).
  if (manifest.scripts['build:page']) {
    execFileSync('npm', ['run', '--silent', 'build:page'], { cwd: join(packagesDir, dir), stdio: 'inherit' });
  }
}
console.log(`built ${order.length} packages`);
