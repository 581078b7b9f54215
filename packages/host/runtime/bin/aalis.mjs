#!/usr/bin/env node
// The aalis command. It always runs built JavaScript: in a source checkout (src/ is present) an esbuild bundle of the
// CLI and the workspace packages it uses, rebuilt first whenever a source changed since it was built, and run with a
// V8 code cache (see fresh-bundle.mjs; a rebuild takes a few seconds and says so on standard error); an installed
// package (no src/) runs its dist/. AALIS_USE_DIST=1 runs dist/ in a checkout (after `npm run build`);
// AALIS_USE_SOURCE=1 runs the TypeScript sources through tsx (no build at all, slower to start).
import { closeSync, existsSync } from 'node:fs';
import { register } from 'node:module';
import { isatty } from 'node:tty';

// The standard streams that are a terminal now, to tell at exit whether that terminal was closed meanwhile.
const terminalsAtStart = [0, 1, 2].filter((fd) => isatty(fd));
const root = new URL('../', import.meta.url);
const source = new URL('src/cli.ts', root);
let entry = new URL('dist/cli.js', root);
/** Called once the command is over (the start build's code cache is written then). */
let finish = () => {};
let main;
if (existsSync(source) && process.env.AALIS_USE_SOURCE) {
  // Resolve workspace packages to their TypeScript sources (their exports' "source" condition).
  const addSourceCondition =
    'export async function resolve(specifier, context, next) {' +
    " return next(specifier, { ...context, conditions: [...new Set([...context.conditions, 'source'])] }); }";
  register(`data:text/javascript,${encodeURIComponent(addSourceCondition)}`);
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  entry = source;
} else if (existsSync(source) && !process.env.AALIS_USE_DIST) {
  const { freshBundle, loadBundle } = await import('./fresh-bundle.mjs');
  let built;
  try {
    built = await freshBundle();
  } catch (error) {
    // esbuild has printed what is wrong in which source file; nothing old is run instead.
    process.stderr.write(
      `Aalis could not be built from its sources (${error instanceof Error ? error.message.split('\n')[0] : error}). Fix the source named above, or run AALIS_USE_DIST=1 after npm run build.\n`,
    );
    process.exit(1);
  }
  const bundle = loadBundle(built);
  main = bundle.exports.main;
  finish = bundle.save;
}
main ??= (await import(entry.href)).main;
const code = await main(process.argv.slice(2));
finish();
// Let buffered output reach pipes before leaving; stdin or idle sockets would otherwise keep the process alive.
await new Promise((done) => process.stdout.write('', done));
await new Promise((done) => process.stderr.write('', done));
releaseClosedTerminal();
process.exit(code);

/**
 * When the terminal was closed (SIGHUP, `aalis start` in a window that went away), Node 20 resets the tty's modes at
 * exit, fails with EIO and aborts with a native stack trace instead of exiting with our status (fixed in later Node
 * releases). A standard stream that was a terminal at start and is no longer one (its tty hung up) is closed first,
 * so that reset skips it. Nothing can be shown on such a terminal anyway.
 */
function releaseClosedTerminal() {
  for (const fd of terminalsAtStart) {
    if (!isatty(fd)) {
      try {
        closeSync(fd);
      } catch {
        // Already closed: nothing to reset.
      }
    }
  }
}
