#!/usr/bin/env node
// `npm test`: lint, type check and build at the same time (the type check and the lint need no build, and they use
// the core the build leaves idle while a package waits for the ones it depends on), then, when all three passed,
// every test. Each is the package.json script of its name; the lint's and the type check's output is shown when
// each ends, the build's as it goes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`; `buffered` holds its output until it ends (so parallel outputs do not interleave). */
function run(script, { buffered }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      cwd: root,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    const finish = (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (buffered && chunks.length > 0) process.stdout.write(`── ${script} ──\n${Buffer.concat(chunks).toString()}`);
      process.stdout.write(`${script}: ${code === 0 ? 'passed' : `failed (${code})`} in ${seconds} s\n`);
      resolve(code);
    };
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? signal));
  });
}

const codes = await Promise.all([
  run('lint', { buffered: true }),
  run('typecheck', { buffered: true }),
  run('build', { buffered: false }),
]);
if (codes.some((code) => code !== 0)) process.exit(1);
const code = await run('test:unit', { buffered: false });
process.exit(code === 0 ? 0 : 1);
