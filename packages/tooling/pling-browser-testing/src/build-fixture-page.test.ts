import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildFixturePage, type FixturePage } from './build-fixture-page.js';
import { launchChromium } from './launch-chromium.js';
import { type OpenedFixture, openFixture } from './open-fixture.js';

// These guard the bundling set-up the adapters depend on: TSX through Vite's built-in JSX transform, Vue 3 render
// functions with its compile-time flags, and workspace packages from their TypeScript sources.
describe('buildFixturePage', { timeout: 60_000 }, () => {
  let browser: Browser;
  let fixture: OpenedFixture | undefined;
  let built: FixturePage | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await built?.cleanup();
    built = undefined;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a React .tsx fixture compiles (automatic JSX runtime) and renders in Chromium', async () => {
    fixture = await openFixture({ entry: new URL('./fixtures/react-hello.case.tsx', import.meta.url), browser });
    const button = fixture.page.getByRole('button', { name: 'Hello Pling from React, clicked 0' });
    await button.click();
    await fixture.page.getByRole('button', { name: 'Hello Pling from React, clicked 1' }).waitFor();
    expect(fixture.errors).toEqual([]);
  });

  it('a Vue 3 render-function fixture builds without process or feature-flag globals and renders', async () => {
    fixture = await openFixture({ entry: new URL('./fixtures/vue-hello.case.ts', import.meta.url), browser });
    await fixture.page.getByRole('button', { name: 'Hello Pling from Vue, clicked 0' }).click();
    await fixture.page.getByRole('button', { name: 'Hello Pling from Vue, clicked 1' }).waitFor();
    expect(fixture.errors).toEqual([]);
  });

  it('bundles workspace packages from their TypeScript sources (the "source" export condition)', async () => {
    built = await buildFixturePage({ entry: new URL('./fixtures/workspace-source.case.ts', import.meta.url) });
    const assets = join(built.dir, 'assets');
    const map = (await readdir(assets)).find((name) => name.endsWith('.js.map'))!;
    const { sources } = JSON.parse(await readFile(join(assets, map), 'utf8')) as { sources: string[] };
    expect(sources.some((source) => source.includes('pling-core/src/sensitive.ts'))).toBe(true);
    // No workspace package from its build output (third-party packages, e.g. DOMPurify, ship only dist files).
    expect(sources.filter((source) => /packages\/[^/]+\/dist\//.test(source))).toEqual([]);
    expect(await readFile(join(built.dir, 'index.html'), 'utf8')).toContain('<title>Pling fixture</title>');
  });

  it('cleanup() removes the temporary directory; a missing or relative entry fails with a clear message', async () => {
    built = await buildFixturePage({ entry: new URL('./fixtures/smoke.case.ts', import.meta.url) });
    await built.cleanup();
    await expect(readdir(built.dir)).rejects.toThrow(/ENOENT/);
    await expect(buildFixturePage({ entry: 'fixtures/smoke.case.ts' })).rejects.toThrow(/absolute path or a file URL/);
    await expect(buildFixturePage({ entry: '/nonexistent/entry.ts' })).rejects.toThrow(/does not exist/);
  });
});
