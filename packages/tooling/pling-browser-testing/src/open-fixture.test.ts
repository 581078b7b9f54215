import { textReply } from '@aalis/testing';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './launch-chromium.js';
import { type OpenedFixture, openFixture } from './open-fixture.js';

const smoke = new URL('./fixtures/smoke.case.ts', import.meta.url);

describe('openFixture (a fixture page in Chromium, /v1 proxied to the scripted model server)', {
  timeout: 60_000,
}, () => {
  let browser: Browser;
  let fixture: OpenedFixture | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a page asks the model through the relative /v1 and shows the non-streamed reply', async () => {
    fixture = await openFixture({ entry: smoke, browser, title: 'Smoke' });
    const { page, modelServer, errors } = fixture;
    expect(await page.title()).toBe('Smoke');
    modelServer.enqueue({ type: 'json', content: 'hello from the model' });

    await page.getByRole('button', { name: 'Ask' }).click();

    await page.getByText('hello from the model').waitFor();
    expect(modelServer.chatBodies()).toEqual([
      { model: 'test-model', stream: false, messages: [{ role: 'user', content: 'hi' }] },
    ]);
    expect(errors).toEqual([]);
  });

  it('a streamed reply (textReply) arrives through the proxy as Server-Sent Events', async () => {
    fixture = await openFixture({ entry: smoke, browser });
    const { page, modelServer, errors } = fixture;
    modelServer.enqueue(textReply('hello from the model'));

    await page.getByRole('button', { name: 'Stream' }).click();

    await page.getByText('hello from the model').waitFor();
    expect(modelServer.chatBodies()).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('collects console errors and uncaught exceptions; close() launches and closes its own Chromium', async () => {
    fixture = await openFixture({ entry: smoke });
    const { page, errors } = fixture;
    await page.evaluate(() => {
      console.error('broken on purpose');
      setTimeout(() => {
        throw new Error('thrown on purpose');
      });
    });
    await expect.poll(() => errors.length).toBe(2);
    expect(errors[0]).toMatch(/^console.error: broken on purpose/);
    expect(errors[1]).toMatch(/^pageerror: Error: thrown on purpose/);

    const ownBrowser = page.context().browser()!;
    await fixture.close();
    fixture = undefined;
    expect(ownBrowser.isConnected()).toBe(false);
    expect(browser.isConnected()).toBe(true);
  });

  it('in a given context: a page of its own there, closed by close() with its localStorage, the context left open', async () => {
    const context = await browser.newContext();
    try {
      fixture = await openFixture({ entry: smoke, context });
      const { page, url } = fixture;
      expect(page.context()).toBe(context);
      await page.evaluate(() => localStorage.setItem('left', 'behind'));
      // Another fixture in the same context is another server, so another origin with a storage of its own.
      const other = await openFixture({ entry: smoke, context });
      expect(new URL(other.url).origin).not.toBe(new URL(url).origin);
      expect(await other.page.evaluate(() => localStorage.getItem('left'))).toBe(null);
      await other.close();
      // Closing empties the page's origin: a page opened there later (a server given the same port) finds nothing.
      const origin = new URL(url).origin;
      await fixture.close();
      fixture = undefined;
      expect(page.isClosed()).toBe(true);
      expect(context.pages()).toEqual([]);
      const later = await context.newPage();
      await later.route(`${origin}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>later</p>' }));
      await later.goto(`${origin}/`);
      expect(await later.evaluate(() => localStorage.getItem('left'))).toBe(null);
      await later.close();
    } finally {
      await context.close();
    }
  });
});
