// Opening a page in Chromium the way every browser test wants it: its own context (in the given browser, or a
// fresh one), console errors and uncaught exceptions recorded, and the steps to undo it pushed onto `teardown`.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './launch-chromium.js';

export async function openRecordedPage({
  browser,
  url,
  teardown,
}: {
  browser: Browser | undefined;
  url: string;
  /** Receives the close steps, to be run in reverse order. */
  teardown: Array<() => Promise<unknown>>;
}): Promise<{ page: Page; errors: string[] }> {
  let chromium = browser;
  if (!chromium) {
    const launched = await launchChromium();
    teardown.push(() => launched.close());
    chromium = launched;
  }
  const context = await chromium.newContext();
  teardown.push(() => context.close());
  const page = await context.newPage();
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
