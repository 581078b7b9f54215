// What the console may ask npm to install, and how a spec is shown: npm names with versions, ranges and tags,
// https tarballs and absolute tarball paths pass; options, relative paths, directories, git URLs and control
// characters do not; a URL is shown without its credentials. A host that stops during an add stops npm and rolls the
// deployment back before it is gone (real npm, a deployment in a temporary directory).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginInstallOperation } from '@aalis/api-host-config';
import { describe, expect, it } from 'vitest';
import { KEPT_FILES, PLUGIN_LOCK } from './plugin-command.js';
import { createPluginInstaller, isInstallable, shownSpec } from './plugin-installer.js';

describe('isInstallable', () => {
  it.each([
    'aalis-plugin-weather',
    'aalis-plugin-weather@1.2.3',
    'aalis-plugin-weather@^1.2.0',
    'aalis-plugin-weather@next',
    '@scope/aalis-plugin@>=1.0.0 <2',
    'https://registry.example.com/aalis-plugin-weather/-/aalis-plugin-weather-1.0.0.tgz',
    '/srv/plugins/aalis-plugin-weather-1.0.0.tgz',
    'file:/srv/plugins/aalis-plugin-weather-1.0.0.tar.gz',
  ])('accepts %s', (spec) => {
    expect(isInstallable(spec)).toBe(true);
  });

  it.each([
    '',
    '--global',
    '-g',
    'Upper-Case',
    'two words',
    './relative.tgz',
    '../up.tgz',
    '/srv/plugins/a-directory',
    'file:../x.tgz',
    'git+ssh://git@example.com/x.git',
    'github:user/repo',
    'http://insecure.example.com/x.tgz',
    'name\nnext-line',
    'x'.repeat(1001),
  ])('refuses %j', (spec) => {
    expect(isInstallable(spec)).toBe(false);
  });
});

describe('shownSpec', () => {
  it('drops the credentials and query of a URL and leaves names and paths as they are', () => {
    expect(shownSpec('https://user:s3cret@registry.example.com/x/-/x-1.0.0.tgz?token=abc')).toBe(
      'https://registry.example.com/x/-/x-1.0.0.tgz',
    );
    expect(shownSpec('aalis-plugin-weather@^1.2.0')).toBe('aalis-plugin-weather@^1.2.0');
    expect(shownSpec('/srv/x-1.0.0.tgz')).toBe('/srv/x-1.0.0.tgz');
  });
});

describe('close', () => {
  it('stops a running add and rolls the deployment back before it resolves; later requests are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-plugin-installer-'));
    try {
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'my-bot', private: true }, null, 2)}\n`);
      const hashes = () =>
        KEPT_FILES.map((file) => {
          const path = join(dir, file);
          return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing';
        });
      const before = hashes();
      const installer = createPluginInstaller({
        dir,
        env: { ...process.env, npm_config_offline: 'true' },
        locale: () => 'en',
        slots: async () => [],
        setSlots: () => undefined,
      });
      const seen: PluginInstallOperation[] = [];
      installer.onChange((operation) => seen.push({ ...operation }));
      installer.start('add', 'aalis-plugin-never-published@1.0.0');
      await installer.close();
      const last = seen.at(-1)!;
      expect(last).toMatchObject({ state: 'failed', phase: 'finished', unchanged: true });
      expect(last.error?.code).toBe('AALIS_PLUGIN_INSTALL_FAILED');
      expect(last.error?.details?.failure).toBe('aborted');
      expect(last.error?.localized('en')).toContain('Aalis is shutting down: npm install was stopped.');
      expect(seen.map((operation) => operation.phase)).toContain('rolling-back');
      expect(hashes()).toEqual(before);
      expect(existsSync(join(dir, PLUGIN_LOCK))).toBe(false);
      expect(() => installer.start('add', 'aalis-plugin-other')).toThrow(/shutting down/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
