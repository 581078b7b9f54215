// Conformance: plugins from the registry added and removed through the session protocol (admin.plugins.add /
// remove / installed), against a real host running from a deployment directory and real npm with packed plugin
// tarballs (what a registry serves; offline: the plugins have no dependencies besides the deployment's own core).
// An add streams npm's phases (never npm's output) and ends with the plugin running — its settings section on the
// config page — without a restart; a failing add changes nothing (package.json, the lock file and
// node_modules/.package-lock.json hashed before and after); one operation at a time; a non-owner is refused; a host
// that runs from no deployment says why it cannot add plugins.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PluginInstallView, type ResultOf, type SessionClient, SessionClientError } from '@aalis/session-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, waitFor } from './harness.case.js';

const TIMEOUT = 60_000;
const CORE = fileURLToPath(new URL('../../../../host/core', import.meta.url));
const KEPT = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];
const { host, track, connected } = hostPerFile();
const tarballs = new Map<string, string>();

/** Packs a plugin package as a registry would hold it. */
function pack(name: string, source: string, range = '^0.1.0'): void {
  const dir = join(host.dir, 'sources', name, 'package');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      description: `${name} (a test plugin)`,
      type: 'module',
      main: 'index.js',
      peerDependencies: { '@aalis/core': range },
    }),
  );
  writeFileSync(join(dir, 'index.js'), source);
  // What npm pack makes (the files under package/, gzipped tar), without starting npm for it.
  const file = join(host.dir, 'sources', `${name}-1.0.0.tgz`);
  execFileSync('tar', ['-czf', file, '-C', join(dir, '..'), 'package']);
  tarballs.set(name, file);
}

const hashes = () =>
  KEPT.map((file) => {
    const path = join(host.dir, file);
    return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing';
  });

/** What the installer said before the host's directory was a deployment. */
let outside: { installed: ResultOf<'admin.plugins.installed'>; add: unknown };

beforeAll(async () => {
  const early = await connected();
  outside = {
    installed: await early.request('admin.plugins.installed', {}),
    add: await early.request('admin.plugins.add', { spec: 'aalis-plugin-anything' }).catch((error: unknown) => error),
  };
  early.close();
  // The host's directory becomes a deployment: a package.json with the core it runs on.
  writeFileSync(
    join(host.dir, 'package.json'),
    `${JSON.stringify({ name: 'deployment', private: true, dependencies: { '@aalis/core': `file:${CORE}` } }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: host.dir, stdio: 'ignore' });
  pack(
    'aalis-plugin-greeter',
    `import { s } from '@aalis/core';
export default {
  name: 'aalis-plugin-greeter',
  config: s.object({ greeting: s.string().default('hello').describe('What it says first.') }),
  apply() {},
};`,
  );
  pack('aalis-plugin-broken', "throw new Error('broken on purpose');");
}, TIMEOUT);

/** Follows one operation through its admin frames until it finished. */
function follow(client: SessionClient): { frames: PluginInstallView[]; finished: () => Promise<PluginInstallView> } {
  const frames: PluginInstallView[] = [];
  // The client is closed after the test, its listeners with it.
  client.on('admin', (frame) => {
    if (frame.change === 'install') frames.push(frame.operation);
  });
  return {
    frames,
    finished: async () => {
      await waitFor(() => frames.some((frame) => frame.phase === 'finished'), TIMEOUT);
      return frames.find((frame) => frame.phase === 'finished')!;
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<SessionClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionClientError) return error;
    throw error;
  }
  throw new Error('the request was not refused');
}

describe('plugins from the registry', () => {
  it('outside a deployment (no package.json beside the configuration) says why plugins cannot be added', () => {
    expect(outside.installed).toMatchObject({
      available: false,
      unavailable: { code: 'AALIS_PLUGIN_INSTALL_UNAVAILABLE' },
      plugins: [],
    });
    expect(outside.installed.unavailable?.message).toContain('there is no package.json in');
    expect(outside.add).toBeInstanceOf(SessionClientError);
    expect((outside.add as SessionClientError).code).toBe('AALIS_PLUGIN_INSTALL_UNAVAILABLE');
  });

  it(
    'adds a plugin: npm phases stream, then it runs without a restart and its section is on the config page',
    async () => {
      const client = await connected();
      const before = await client.request('admin.plugins.installed', {});
      expect(before).toMatchObject({ available: true, plugins: [] });
      const followed = follow(client);
      const { operation } = await client.request('admin.plugins.add', { spec: tarballs.get('aalis-plugin-greeter')! });
      expect(operation).toMatchObject({ action: 'add', state: 'running' });
      const done = await followed.finished();
      expect(done, JSON.stringify(done.error)).toMatchObject({
        state: 'done',
        name: 'aalis-plugin-greeter',
        version: '1.0.0',
        live: true,
        restartNeeded: false,
      });
      const phases = followed.frames.map((frame) => frame.phase);
      expect(phases).toEqual(expect.arrayContaining(['fetching', 'checking', 'loading', 'finished']));
      expect(phases.indexOf('fetching')).toBeLessThan(phases.indexOf('checking'));
      // npm's phases only: no path of the deployment, nothing npm printed.
      const said = JSON.stringify(followed.frames.map(({ target: _target, ...rest }) => rest));
      expect(said).not.toContain(host.dir);
      expect(said).not.toMatch(/npm (?:timing|notice|warn|error)/);

      const { plugins } = await client.request('admin.plugins', {});
      expect(plugins.find((plugin) => plugin.id === 'aalis-plugin-greeter')).toMatchObject({
        state: 'active',
        configurable: true,
        enabled: true,
        description: 'aalis-plugin-greeter (a test plugin)',
        removable: true,
      });
      expect(plugins.filter((plugin) => plugin.removable).map((plugin) => plugin.id)).toEqual(['aalis-plugin-greeter']);
      const config = await client.request('admin.config.get', { plugin: 'aalis-plugin-greeter' });
      expect(config.key).toBe('plugins.aalis-plugin-greeter');
      expect(config.schema.fields?.greeting).toMatchObject({ type: 'string', default: 'hello' });
      const saved = await client.request('admin.config.set', {
        plugin: 'aalis-plugin-greeter',
        values: { greeting: 'bonjour' },
        revision: config.revision,
      });
      expect(saved.plugin.state).toBe('active');
      expect(readFileSync(join(host.dir, 'aalis.config.yaml'), 'utf8')).toContain('greeting: bonjour');
      expect(await client.request('admin.plugins.installed', {})).toMatchObject({
        plugins: [{ name: 'aalis-plugin-greeter', version: '1.0.0' }],
        operation: { id: operation.id, state: 'done' },
      });
      const audit = await client.request('admin.audit.list', {});
      expect(audit.entries.map((entry) => entry.action)).toContain('plugins.add');
    },
    TIMEOUT,
  );

  it(
    'a failing add is rolled back byte for byte and says why; a second operation meanwhile is refused',
    async () => {
      const client = await connected();
      const before = hashes();
      const followed = follow(client);
      await client.request('admin.plugins.add', { spec: tarballs.get('aalis-plugin-broken')! });
      const busy = await refusal(client.request('admin.plugins.add', { spec: 'aalis-plugin-anything' }));
      expect(busy.code).toBe('AALIS_PLUGIN_INSTALL_BUSY');
      expect(busy.message).toContain('one at a time');
      const done = await followed.finished();
      expect(done).toMatchObject({ state: 'failed', unchanged: true, error: { code: 'AALIS_PLUGIN_INSTALL_FAILED' } });
      expect(done.error?.message).toMatch(
        /aalis-plugin-broken does not load: .*broken on purpose.*Nothing was changed/,
      );
      expect(followed.frames.map((frame) => frame.phase)).toContain('rolling-back');
      expect(hashes()).toEqual(before);
      expect(existsSync(join(host.dir, 'node_modules', 'aalis-plugin-broken'))).toBe(false);
      const { plugins } = await client.request('admin.plugins', {});
      expect(plugins.some((plugin) => plugin.id === 'aalis-plugin-broken')).toBe(false);
      expect(plugins.find((plugin) => plugin.id === 'aalis-plugin-greeter')?.state).toBe('active');
    },
    TIMEOUT,
  );

  it('refuses what npm would read as an option or a path, and a remove of what is not installed', async () => {
    const client = await connected();
    for (const spec of ['--global', 'foo bar', 'git+ssh://example.com/x.git', './relative.tgz']) {
      expect((await refusal(client.request('admin.plugins.add', { spec }))).code).toBe('AALIS_PLUGIN_INSTALL_BAD_SPEC');
    }
    const missing = await refusal(client.request('admin.plugins.remove', { name: '@aalis/plugin-agent' }));
    expect(missing.code).toBe('AALIS_PLUGIN_REMOVE_NOT_INSTALLED');
    expect(missing.message).toContain('aalis-plugin-greeter');
    expect((await refusal(client.request('admin.plugins.add', {} as never))).code).toBe('AALIS_WEBUI_BAD_REQUEST');
  });

  it('refuses every plugin install request to a non-owner, and changes nothing', async () => {
    const before = hashes();
    const alice = track(clientFor(host, await loginCookie(host, 'alice')));
    await alice.connect();
    for (const request of [
      alice.request('admin.plugins.installed', {}),
      alice.request('admin.plugins.add', { spec: tarballs.get('aalis-plugin-greeter')! }),
      alice.request('admin.plugins.remove', { name: 'aalis-plugin-greeter' }),
    ]) {
      expect((await refusal(request)).code).toBe('AALIS_WEBUI_FORBIDDEN');
    }
    expect(hashes()).toEqual(before);
  });

  it(
    'removes an installed plugin: it stops at once and leaves the deployment',
    async () => {
      const client = await connected();
      const followed = follow(client);
      await client.request('admin.plugins.remove', { name: 'aalis-plugin-greeter' });
      const done = await followed.finished();
      expect(done).toMatchObject({ state: 'done', action: 'remove', name: 'aalis-plugin-greeter', live: true });
      const manifest = JSON.parse(readFileSync(join(host.dir, 'package.json'), 'utf8'));
      expect(Object.keys(manifest.dependencies)).toEqual(['@aalis/core']);
      const { plugins } = await client.request('admin.plugins', {});
      expect(plugins.some((plugin) => plugin.id === 'aalis-plugin-greeter')).toBe(false);
      expect((await client.request('admin.plugins.installed', {})).plugins).toEqual([]);
    },
    TIMEOUT,
  );
});
