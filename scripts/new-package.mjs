#!/usr/bin/env node
// Creates packages/<role>/<dir> (the role folder from the folder's name: scripts/package-dirs.mjs) with the workspace's standard package.json, build config, README and src/index.ts.
// Usage: node scripts/new-package.mjs <dir> <@scope/name> "<description>"
// Publishing (packages/tooling/release checks it for every package on each `npm test`): a package a deployment installs keeps
// the fields written here — version (the product's one version), description, license, exports, files (only dist/),
// engines (the root's Node range) — and a README saying what it is and how to use it; a package only this repository
// uses (test helpers, benchmarks) gets "private": true instead. Dependencies on workspace packages name their exact
// version.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { roleOf } from './package-dirs.mjs';

const [dir, name, description = ''] = process.argv.slice(2);
if (!dir || !name) {
  console.error('usage: node scripts/new-package.mjs <dir> <@scope/name> "<description>"');
  process.exit(2);
}
const role = roleOf(dir);
if (!role) {
  console.error(
    `No role folder for "${dir}": name it api-*, plugin-*, pling-*, util-*, bench-*, or add it to scripts/package-dirs.mjs`,
  );
  process.exit(2);
}
const root = join(import.meta.dirname, '..', 'packages', role, dir);
if (existsSync(root)) {
  console.error(`packages/${role}/${dir} exists already`);
  process.exit(2);
}
mkdirSync(join(root, 'src'), { recursive: true });
const manifest = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  engines: { node: JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).engines.node },
  exports: {
    '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
  },
  files: ['dist'],
  scripts: { build: 'tsc -p tsconfig.build.json' },
  dependencies: {},
};
writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const buildConfig = {
  extends: '../../../tsconfig.base.json',
  compilerOptions: { rootDir: 'src', outDir: 'dist', composite: false },
  include: ['src/**/*.ts', 'src/**/*.tsx'],
  exclude: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/*.case.ts'],
};
writeFileSync(join(root, 'tsconfig.build.json'), `${JSON.stringify(buildConfig, null, 2)}\n`);
writeFileSync(join(root, 'src', 'index.ts'), `// ${name}: ${description}\nexport {};\n`);
// What it is and how to use it: the package's page on the registry (write the rest as the package grows).
writeFileSync(join(root, 'README.md'), `# ${name}\n\n${description}\n`);
console.log(`created packages/${role}/${dir} (${name})`);
