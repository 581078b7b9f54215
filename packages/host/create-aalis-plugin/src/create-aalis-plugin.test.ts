// The template is what it says: its test harness passes against the real @aalis/core, and `aalis plugin add` of the
// packed package accepts it and the next start runs it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runAalis } from '../../runtime/src/spawn-aalis.case.js';
import { coreRange, main } from './create-aalis-plugin.js';

const CORE = fileURLToPath(new URL('../../core', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'create-aalis-plugin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// Two npm installs, a pack and two runs of the command (the first may rebuild its bundle): minutes on a loaded machine.
const TIMEOUT = 240_000;

async function create(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await main(argv, { stdout, stderr, env: {}, cwd: root });
  return { code, out, err };
}

describe('npm create aalis-plugin', () => {
  it(
    'writes a plugin whose own test harness passes, which aalis plugin add accepts and the next start runs',
    async () => {
      const made = await create(['aalis-plugin-hello', '--lang', 'en']);
      expect(made.code).toBe(0);
      expect(made.out).toContain('Wrote the plugin aalis-plugin-hello');
      const dir = join(root, 'aalis-plugin-hello');
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(manifest.peerDependencies).toEqual({ '@aalis/core': coreRange() });
      // Its harness, against this repository's @aalis/core (what npm install would put there).
      mkdirSync(join(dir, 'node_modules', '@aalis'), { recursive: true });
      symlinkSync(CORE, join(dir, 'node_modules', '@aalis', 'core'));
      const harness = spawnSync(process.execPath, ['--test'], { cwd: dir, encoding: 'utf8' });
      expect(harness.status, `${harness.stdout}\n${harness.stderr}`).toBe(0);
      expect(harness.stdout).toMatch(/# pass 1/);
      // Packed as the registry would serve it, added to a deployment, loaded by the next start.
      rmSync(join(dir, 'node_modules'), { recursive: true });
      const tarball = join(
        root,
        execFileSync('npm', ['pack', '--pack-destination', root], { cwd: dir, encoding: 'utf8' })
          .trim()
          .split('\n')
          .at(-1)!,
      );
      const deployment = join(root, 'deployment');
      mkdirSync(deployment);
      writeFileSync(
        join(deployment, 'package.json'),
        JSON.stringify({ name: 'deployment', private: true, dependencies: { '@aalis/core': `file:${CORE}` } }),
      );
      execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: deployment, stdio: 'ignore' });
      const added = await runAalis({ cwd: deployment, args: ['plugin', 'add', tarball], env: { AALIS_LOCALE: 'en' } });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain('Added aalis-plugin-hello@0.1.0');
      const chat = await runAalis({
        cwd: deployment,
        args: ['chat'],
        input: 'hello\n',
        env: { AALIS_LOG_LEVEL: 'info' },
      });
      expect(chat.code, chat.stderr).toBe(0);
      const logs = readFileSync(join(deployment, 'data', 'logs', 'aalis.log'), 'utf8');
      expect(logs, logs.slice(-3000)).toContain('aalis-plugin-hello is running');
    },
    TIMEOUT,
  );

  it('refuses a bad name, a directory that is not empty and a missing directory, writing nothing', async () => {
    expect((await create(['Bad Name', '--lang', 'en'])).err).toContain('is not a valid npm package name');
    const occupied = join(root, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'mine.txt'), 'x');
    const refused = await create(['occupied', '--lang', 'zh-CN']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('已存在且不是空的：没有改动任何文件');
    expect((await create(['--lang', 'en'])).err).toContain('No directory given');
  });
});
