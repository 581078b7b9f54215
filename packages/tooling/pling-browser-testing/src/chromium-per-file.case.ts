// Test-only set-up shared by this package's browser tests: one Chromium per test file, the fixtures a test opens in
// it closed after that test (even when it fails), and the adapters' fixture files addressed from here.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from './launch-chromium.js';
import { type OpenedFixture, type OpenFixtureOptions, openFixture } from './open-fixture.js';
import { type OpenViteAppOptions, openViteApp } from './vite-app.js';

/** The Pling packages' folder (packages/pling), for the fixtures that live in the adapters' packages. */
export const PACKAGES = new URL('../../../pling/', import.meta.url);

export interface ChromiumPerFile {
  /** openFixture in the file's Chromium; closed after the test. */
  openFixture(options: Omit<OpenFixtureOptions, 'browser'>): Promise<OpenedFixture>;
  /** openViteApp in the file's Chromium; closed after the test. */
  openViteApp(options: Omit<OpenViteAppOptions, 'browser'>): Promise<OpenedFixture>;
}

/** Call at the top of a describe block: launches Chromium before its tests and closes everything after. */
export function chromiumPerFile(): ChromiumPerFile {
  let browser: Browser | undefined;
  const opened: OpenedFixture[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    // close() is idempotent, so a fixture a test closed itself is closed again harmlessly.
    for (const fixture of opened.splice(0).reverse()) await fixture.close();
  });
  afterAll(() => browser?.close());
  const keep = (fixture: OpenedFixture) => {
    opened.push(fixture);
    return fixture;
  };
  return {
    openFixture: async (options) => keep(await openFixture({ ...options, browser })),
    openViteApp: async (options) => keep(await openViteApp({ ...options, browser })),
  };
}

/** Types `text` into the page's dock and sends it with Enter, as a person would; returns the dock. */
export async function sendInDock(page: Page, text: string): Promise<Locator> {
  const dock = page.locator('[data-pling="dock"]');
  await dock.getByRole('textbox').fill(text);
  await dock.getByRole('textbox').press('Enter');
  return dock;
}
