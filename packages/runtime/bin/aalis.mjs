#!/usr/bin/env node
// The aalis command. In a source checkout (src/ is present) it runs the TypeScript sources through tsx with the
// "source" export condition, so it works right after `npm install` without a build; an installed package (no
// src/) runs the built dist/. AALIS_USE_DIST=1 forces dist/ in a checkout (after `npm run build`).
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const root = new URL('../', import.meta.url);
const source = new URL('src/cli.ts', root);
let entry = new URL('dist/cli.js', root);
if (existsSync(source) && !process.env.AALIS_USE_DIST) {
  // Resolve workspace packages to their TypeScript sources (their exports' "source" condition).
  const addSourceCondition =
    'export async function resolve(specifier, context, next) {' +
    " return next(specifier, { ...context, conditions: [...new Set([...context.conditions, 'source'])] }); }";
  register(`data:text/javascript,${encodeURIComponent(addSourceCondition)}`);
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  entry = source;
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// Let buffered output reach pipes before leaving; stdin or idle sockets would otherwise keep the process alive.
await new Promise((done) => process.stdout.write('', done));
await new Promise((done) => process.stderr.write('', done));
process.exit(code);
