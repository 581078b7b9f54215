// Test-only set-up shared by this package's browser tests: one Chromium and one browser context per test file (each
// fixture a page of its own in it, on a server of its own), each page built once per file, the fixtures a test opens
// closed after that test (even when it fails), and the adapters' fixture files addressed from here.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { fixtureBuilds } from './fixture-builds.js';
import { launchChromium } from './launch-chromium.js';
import { type OpenedFixture, type OpenFixtureOptions, openFixture } from './open-fixture.js';
import { type OpenViteAppOptions, openViteApp } from './vite-app.js';

/** The Pling packages' folder (packages/pling), for the fixtures that live in the adapters' packages. */
export const PACKAGES = new URL('../../../pling/', import.meta.url);

export interface ChromiumPerFile {
  /** openFixture in the file's context, the page built once per file; closed after the test. */
  openFixture(options: Omit<OpenFixtureOptions, 'browser' | 'context' | 'builds'>): Promise<OpenedFixture>;
  /** openViteApp in the file's context, a production build made once per file; closed after the test. */
  openViteApp(options: Omit<OpenViteAppOptions, 'browser' | 'context' | 'builds'>): Promise<OpenedFixture>;
}

/** Call at the top of a describe block: launches Chromium before its tests and closes everything after. */
export function chromiumPerFile(): ChromiumPerFile {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const builds = fixtureBuilds();
  const opened: OpenedFixture[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
  }, 60_000);
  afterEach(async () => {
    // close() is idempotent, so a fixture a test closed itself is closed again harmlessly.
    for (const fixture of opened.splice(0).reverse()) await fixture.close();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await builds.cleanup();
  });
  const keep = (fixture: OpenedFixture) => {
    opened.push(fixture);
    return fixture;
  };
  return {
    openFixture: async (options) => keep(await openFixture({ ...options, browser, context, builds })),
    openViteApp: async (options) => keep(await openViteApp({ ...options, browser, context, builds })),
  };
}

/** Types `text` into the page's dock and sends it with Enter, as a person would; returns the dock. */
export async function sendInDock(page: Page, text: string): Promise<Locator> {
  const dock = page.locator('[data-pling="dock"]');
  await dock.getByRole('textbox').fill(text);
  await dock.getByRole('textbox').press('Enter');
  return dock;
}
