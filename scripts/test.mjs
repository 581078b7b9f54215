#!/usr/bin/env node
// `npm test`: the lint and the build with the type check (`build -- --typecheck`: one TypeScript program checks
// every file `npm run typecheck` does and emits the packages) at the same time, then, when both passed, every test.
// Each is the package.json script of its name; the lint's output is shown when it ends, the build's as it goes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`; `buffered` holds its output until it ends (so parallel outputs do not interleave). */
function run(script, { buffered, args = [] }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
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
  run('build', { buffered: false, args: ['--typecheck'] }),
]);
if (codes.some((code) => code !== 0)) process.exit(1);
const code = await run('test:unit', { buffered: false });
process.exit(code === 0 ? 0 : 1);
