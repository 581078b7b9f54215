#!/usr/bin/env node
// `npm run example <name>`: starts Vite's dev server for examples/recipes/<name> (its vite.config.ts).
// Without a name it lists the recipes. Arguments after the name go to Vite: `npm run example vue3 -- --port 5174`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const recipesDir = join(root, 'examples', 'recipes');
const recipes = existsSync(recipesDir)
  ? readdirSync(recipesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(recipesDir, entry.name, 'vite.config.ts')))
      .map((entry) => entry.name)
      .sort()
  : [];

const [name, ...viteArgs] = process.argv.slice(2);
if (name === undefined) {
  console.log(`Recipes (npm run example <name>): ${recipes.join(', ') || '(none)'}`);
  console.log('Each is described in examples/recipes/<name>/README.md.');
  process.exit(0);
}
if (!recipes.includes(name)) {
  console.error(`Unknown recipe "${name}". Available: ${recipes.join(', ') || '(none)'}.`);
  process.exit(1);
}

const require = createRequire(import.meta.url);
const vitePackage = require.resolve('vite/package.json');
const viteBin = join(dirname(vitePackage), require(vitePackage).bin.vite);
const config = relative(root, join(recipesDir, name, 'vite.config.ts'));
const child = spawn(process.execPath, [viteBin, '--config', config, ...viteArgs], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
