// `aalis plugin add|remove` in a deployment, with plugin packages packed as the registry would serve them (npm pack
// tarballs): an add that passes its checks is loaded by the next start; every add that fails — npm refuses the
// @aalis/core range, the package is no plugin, it does not load — leaves package.json, the lock file and
// node_modules/.package-lock.json byte for byte as they were (hashed before and after); one at a time.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedPluginSlots } from './installed-plugins.js';
import { KEPT_FILES, runPluginCommand } from './plugin-command.js';
import { runAalis } from './spawn-aalis.case.js';

const CORE = fileURLToPath(new URL('../../core', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'aalis-plugin-command-'));
const deployment = join(root, 'deployment');
const tarballs = new Map<string, string>();
const TIMEOUT = 120_000;
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes a plugin package's sources; packAll() packs them as the registry would hold them. */
function writePlugin(name: string, { range = '^0.1.0', source }: { range?: string | null; source: string }): void {
  const dir = join(root, 'sources', name);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name,
    version: '1.0.0',
    type: 'module',
    main: 'index.js',
    ...(range === null ? {} : { peerDependencies: { '@aalis/core': range } }),
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'index.js'), source);
}

/** `npm pack` of every package written by writePlugin(), in one npm run (an npm start costs more than packing). */
function packAll(): void {
  const names = readdirSync(join(root, 'sources'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', root, ...names.map((name) => `./${name}`)], {
      cwd: join(root, 'sources'),
      encoding: 'utf8',
    }),
  ) as { name: string; filename: string }[];
  for (const { name, filename } of packed) tarballs.set(name, join(root, filename));
  expect([...tarballs.keys()].sort()).toEqual(names.sort());
}

const env = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

async function plugin(action: 'add' | 'remove', target: string) {
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
  const code = await runPluginCommand(action, target, { cwd: deployment, env, stdout, stderr, locale: 'en' });
  return { code, out, err };
}

/** The hashes of the files an install may change. */
function hashes(): string[] {
  return KEPT_FILES.map((file) => {
    const path = join(deployment, file);
    return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing';
  });
}

beforeAll(() => {
  mkdirSync(deployment);
  writeFileSync(
    join(deployment, 'package.json'),
    `${JSON.stringify({ name: 'deployment', private: true, dependencies: { '@aalis/core': `file:${CORE}` } }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: deployment, env, stdio: 'ignore' });
  writePlugin('aalis-plugin-hello', {
    source: `import { writeFileSync } from 'node:fs';
export default { name: 'aalis-plugin-hello', apply() { if (process.env.HELLO_MARK) writeFileSync(process.env.HELLO_MARK, 'applied'); } };`,
  });
  writePlugin('aalis-plugin-future', { range: '^9.0.0', source: "export default { name: 'future', apply() {} };" });
  writePlugin('aalis-plugin-broken', { source: "throw new Error('broken on purpose');" });
  writePlugin('not-a-plugin', { range: null, source: 'export default 42;' });
  writePlugin('aalis-plugin-no-definition', { source: 'export default { hello: true };' });
  packAll();
}, TIMEOUT);

describe('aalis plugin add / remove', () => {
  it(
    'adds a plugin that declares a compatible core range and loads; the next start runs it; remove takes it out',
    async () => {
      const added = await plugin('add', tarballs.get('aalis-plugin-hello')!);
      expect(added.err).not.toContain('Rolled back');
      expect(added.code).toBe(0);
      expect(added.out).toContain('Added aalis-plugin-hello@1.0.0');
      const manifest = JSON.parse(readFileSync(join(deployment, 'package.json'), 'utf8'));
      expect(Object.keys(manifest.dependencies)).toContain('aalis-plugin-hello');
      expect(installedPluginSlots(deployment).map((slot) => slot.alias)).toEqual(['aalis-plugin-hello']);
      // The real command in the deployment loads and applies it.
      const mark = join(root, 'applied.txt');
      const run = await runAalis({ cwd: deployment, args: ['chat'], input: 'hello\n', env: { HELLO_MARK: mark } });
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(mark, 'utf8')).toBe('applied');
      const removed = await plugin('remove', 'aalis-plugin-hello');
      expect(removed.code).toBe(0);
      expect(existsSync(join(deployment, 'node_modules', 'aalis-plugin-hello'))).toBe(false);
      expect(installedPluginSlots(deployment)).toEqual([]);
      expect((await plugin('remove', 'aalis-plugin-hello')).code).toBe(2);
    },
    TIMEOUT,
  );

  it.each([
    ['aalis-plugin-future', /npm install failed|needs @aalis\/core \^9\.0\.0/],
    ['not-a-plugin', /not-a-plugin is not an Aalis plugin/],
    ['aalis-plugin-broken', /aalis-plugin-broken does not load: .*broken on purpose/],
    ['aalis-plugin-no-definition', /default export of aalis-plugin-no-definition is not a plugin definition/],
  ])(
    'a failed add of %s leaves the deployment exactly as it was',
    async (name, reason) => {
      const before = hashes();
      expect(before[0]).not.toBe('missing');
      const result = await plugin('add', tarballs.get(name)!);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(reason);
      expect(result.err).toContain('Rolled back');
      expect(hashes()).toEqual(before);
      expect(existsSync(join(deployment, 'node_modules', name))).toBe(false);
      expect(existsSync(join(deployment, '.aalis-plugin.lock'))).toBe(false);
    },
    TIMEOUT,
  );

  it('runs one at a time: while another holds the lock, an add changes nothing and says why', async () => {
    mkdirSync(join(deployment, '.aalis-plugin.lock'));
    try {
      const before = hashes();
      const result = await plugin('add', tarballs.get('aalis-plugin-hello')!);
      expect(result.code).toBe(1);
      expect(result.err).toContain('Another aalis plugin is installing or removing a plugin in this deployment');
      expect(hashes()).toEqual(before);
    } finally {
      rmSync(join(deployment, '.aalis-plugin.lock'), { recursive: true });
    }
  });
});
