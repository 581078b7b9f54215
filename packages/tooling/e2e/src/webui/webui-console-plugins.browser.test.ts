// The console's plugins from the registry in Debian Chromium against a real `aalis serve` running from a deployment
// directory: the owner adds a plugin by its npm name (Add plugin / 添加插件) — here a packed tarball, installed by real
// npm offline (the plugins' only dependency is the deployment's own core), which a local registry would serve the
// same way — sees npm's phases and then the plugin running in the plugin list with its settings form, without a
// restart; an add that npm refuses (a core range this deployment cannot have) says why and leaves package.json, the
// lock file and node_modules/.package-lock.json byte for byte as they were; Remove / 移除 on its row takes a plugin
// out. en on a desktop, zh-CN on a phone; screenshots in docs/screenshots/webui/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 30_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
const CORE = fileURLToPath(new URL('../../../../host/core', import.meta.url));
const KEPT = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];

let served: ServedWebui;
let context: BrowserContext;
let page: Page;
const tarballs = new Map<string, string>();

function pack(name: string, source: string, range: string): void {
  const dir = join(served.dir, 'sources', name, 'package');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      description: 'Says hello (a test plugin).',
      type: 'module',
      main: 'index.js',
      peerDependencies: { '@aalis/core': range },
    }),
  );
  writeFileSync(join(dir, 'index.js'), source);
  // What npm pack makes (the files under package/, gzipped tar), without starting npm for it.
  const file = join(served.dir, 'sources', `${name}-1.0.0.tgz`);
  execFileSync('tar', ['-czf', file, '-C', join(dir, '..'), 'package']);
  tarballs.set(name, file);
}

const hashes = () =>
  KEPT.map((file) => {
    const path = join(served.dir, file);
    return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing';
  });

beforeAll(async () => {
  served = await serveWebui();
  // The workspace becomes a deployment: a package.json with the core it runs on.
  writeFileSync(
    join(served.dir, 'package.json'),
    `${JSON.stringify({ name: 'my-bot', private: true, dependencies: { '@aalis/core': `file:${CORE}` } }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: served.dir, stdio: 'ignore' });
  const source = `import { s } from '@aalis/core';
export default {
  name: 'aalis-plugin-hello',
  config: s.object({ greeting: s.string().default('hello').describe('What it says first.') }),
  apply() {},
};`;
  pack('aalis-plugin-hello', source, '^0.1.0');
  pack('aalis-plugin-future', source.replace('aalis-plugin-hello', 'aalis-plugin-future'), '^9.0.0');
  context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

const section = () => page.getByTestId('plugin-install');
const operation = () => page.getByTestId('install-operation');

describe('the console’s plugins from the registry', () => {
  it(
    'adds a plugin by its npm name: npm’s phases, then it runs with its settings form; a refused add changes nothing',
    async () => {
      await page.goto(served.link);
      await page.getByTestId('open-admin').click();
      const form = section().getByRole('form', { name: 'Add plugin' });
      await form.getByLabel('npm package name').fill(tarballs.get('aalis-plugin-hello')!);
      await form.getByRole('button', { name: 'Add plugin' }).click();
      // A phase of npm's (or the checks) shows while it runs, then the outcome.
      await expect.poll(() => operation().getAttribute('data-phase'), SLOW).not.toBe(null);
      await expect.poll(() => operation().getAttribute('data-state'), SLOW).toBe('done');
      expect(await operation().getByTestId('install-outcome').textContent()).toBe(
        'Added aalis-plugin-hello 1.0.0: it runs now; its settings are in the plugin list above.',
      );
      const row = page.locator('[data-testid="plugins"] tr[data-plugin="aalis-plugin-hello"]');
      await expect.poll(() => row.getAttribute('data-state'), SLOW).toBe('active');
      expect(await row.locator('.plugin-description').textContent()).toBe('Says hello (a test plugin).');
      await row.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('form', { name: 'Settings of aalis-plugin-hello' });
      await expect.poll(() => settings.getByLabel('greeting', { exact: true }).count(), SLOW).toBe(1);
      await row.getByRole('button', { name: 'Close' }).click();
      // Installed from the registry: its row has Remove (a first-party plugin's has none).
      expect(await row.getByRole('button', { name: 'Remove' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(1);
      await section().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-plugin-added-en.png') });

      // npm refuses the core range: said in the page's language with its code, nothing changed.
      const before = hashes();
      await form.getByLabel('npm package name').fill(tarballs.get('aalis-plugin-future')!);
      await form.getByRole('button', { name: 'Add plugin' }).click();
      await expect.poll(() => operation().getAttribute('data-state'), SLOW).toBe('failed');
      const outcome = operation().getByTestId('install-outcome');
      expect(await outcome.getAttribute('role')).toBe('alert');
      const said = (await outcome.textContent()) ?? '';
      expect(said).toContain('Could not add');
      expect(said).toContain('ERESOLVE');
      expect(said).toContain('Nothing was changed: the deployment is as it was before.');
      expect(said).toContain('AALIS_PLUGIN_INSTALL_FAILED');
      // The tarball asked for is named; nothing else of the deployment's paths (npm's output is never shown).
      expect(said.replace(tarballs.get('aalis-plugin-future')!, '')).not.toContain(served.dir);
      expect(hashes()).toEqual(before);
      expect(await page.locator('[data-testid="plugins"] tr[data-plugin="aalis-plugin-future"]').count()).toBe(0);
      await section().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-plugin-failed-en.png') });
    },
    TIMEOUT,
  );

  it(
    'removes it in Chinese on a phone (移除), nothing wider than the screen',
    async () => {
      await page.evaluate(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${served.origin}/`);
      await page.getByTestId('menu').click();
      await page.locator('[data-testid="open-admin"]:visible').click();
      const form = section().getByRole('form', { name: '添加插件' });
      await form.waitFor();
      expect(await form.getByLabel('npm 包名').count()).toBe(1);
      const row = page.locator('[data-testid="plugins"] tr[data-plugin="aalis-plugin-hello"]');
      await row.getByRole('button', { name: '移除' }).click();
      await expect.poll(() => operation().getAttribute('data-state'), SLOW).toBe('done');
      expect(await operation().getByTestId('install-outcome').textContent()).toBe(
        '已移除 aalis-plugin-hello，它已停止运行。',
      );
      await expect.poll(() => row.count(), SLOW).toBe(0);
      const manifest = JSON.parse(readFileSync(join(served.dir, 'package.json'), 'utf8'));
      expect(Object.keys(manifest.dependencies)).toEqual(['@aalis/core']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await section().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-plugin-removed-phone-zh-CN.png') });
    },
    TIMEOUT,
  );
});
