// Opening a page in Chromium the way every browser test wants it: in the given context (a page of its own), else a
// context of its own (in the given browser, or a fresh one), console errors and uncaught exceptions recorded, and the
// steps to undo it pushed onto `teardown`.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './launch-chromium.js';

/** How long closing a page may spend emptying its origin's localStorage (a hung page is closed anyway). */
const CLEAR_STORAGE_MS = 2_000;

export async function openRecordedPage({
  browser,
  context,
  url,
  teardown,
}: {
  browser: Browser | undefined;
  /**
   * A context shared by the file's tests: a page of its own there costs about half the CPU of a context of its own
   * and its page (0.35 s against 0.76 s in Debian's Chromium 156: each context is a profile of its own).
   */
  context?: BrowserContext | undefined;
  url: string;
  /** Receives the close steps, to be run in reverse order. */
  teardown: Array<() => Promise<unknown>>;
}): Promise<{ page: Page; errors: string[] }> {
  let page: Page;
  if (context) {
    page = await context.newPage();
    teardown.push(async () => {
      // The page's origin is its server's port; should a later server get the same port, its page starts with an
      // empty localStorage all the same (sessionStorage belongs to the page and goes with it).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        page.evaluate(() => localStorage.clear()).catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLEAR_STORAGE_MS);
        }),
      ]);
      clearTimeout(timer);
      await page.close();
    });
  } else {
    let chromium = browser;
    if (!chromium) {
      const launched = await launchChromium();
      teardown.push(() => launched.close());
      chromium = launched;
    }
    const own = await chromium.newContext();
    teardown.push(() => own.close());
    page = await own.newPage();
  }
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url: source, lineNumber } = message.location();
    errors.push(`console.error: ${message.text()}${source ? ` (${source}:${lineNumber + 1})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.stack ?? error.message}`));
  await page.goto(url);
  return { page, errors };
}
