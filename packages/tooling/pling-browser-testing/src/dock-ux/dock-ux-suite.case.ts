// The dock as people judge it, one suite that every adapter's browser test runs against its own fixture (the orders
// page of orders-page.case.ts with that adapter's dock), in real Chromium against the scripted model server behind the
// page's relative /v1. Driven as a person would: typing, clicking, scrolling, reloading, at desktop and phone widths.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorReply, type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { DOCK_TEXTS } from '@plingjs/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../launch-chromium.js';
import { type OpenedFixture, openFixture } from '../open-fixture.js';
import { CUSTOMER_EMAIL } from './orders-page.case.js';

export type DockAdapterName = 'vanilla' | 'vue' | 'react' | 'vue2';

/** Where the screenshots script writes, and the file names it writes (see scripts/screenshots-pling.ts). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'pling');
export const screenshotName = (adapter: DockAdapterName, locale: 'zh-CN' | 'en', width: 'desktop' | 'phone') =>
  `${adapter}-${locale}-${width}.png`;

/** A streamed reply that pauses after `first` for `pauseMs` before the rest. */
export function slowReply(first: string, rest: string, pauseMs: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: first },
      { flush: true },
      { delayMs: pauseMs },
      { text: rest },
      { finish: 'stop' },
      { done: true },
    ],
  };
}

/**
 * A streamed reply that holds after `first` until the test calls `release()`, then sends the rest: the reply is
 * streaming for exactly as long as the test looks at it (a fixed pause outlasted the checks, or on a loaded machine
 * ran out before them).
 */
function gatedReply(first: string, rest: string): { reply: ScriptedReply; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reply: {
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: first },
        { until: released },
        { text: rest },
        { finish: 'stop' },
        { done: true },
      ],
    },
    release,
  };
}

const dock = (page: Page) => page.locator('[data-pling="dock"]');

async function send(page: Page, text: string): Promise<void> {
  await page.locator('[data-pling="input"]').fill(text);
  await page.locator('[data-pling="input"]').press('Enter');
}

/** The settled (not streaming) replies' texts. */
const replies = (page: Page) =>
  page
    .locator('[data-pling="message"][data-role="assistant"]:not([data-streaming]) [data-pling="text"]')
    .evaluateAll((items) => items.map((item) => item.textContent?.trim() ?? ''));

/** How long a step of a conversation may take (the model server's scripted pauses included). */
const SETTLE = { timeout: 15_000 };

export function describeDockUx(adapter: DockAdapterName, entry: URL): void {
  describe(`the ${adapter} dock as people judge it`, { timeout: 90_000 }, () => {
    let browser: Browser;
    let fixture: OpenedFixture;
    let page: Page;

    /** A fresh page in `locale`, nothing remembered from an earlier test. */
    const load = async (locale: 'zh-CN' | 'en' = 'en') => {
      // The page is on the fixture's origin from the start (openFixture loads it), so its storage is emptied there
      // and one navigation loads the page afresh: the dock writes localStorage only when the person changes something.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${fixture.url}?locale=${locale}`);
      await dock(page).waitFor();
    };
    /** Console errors apart from the one Chromium logs for an HTTP error status. */
    const pageErrors = () => fixture.errors.filter((entry) => !entry.includes('Failed to load resource'));

    beforeAll(async () => {
      browser = await launchChromium();
      fixture = await openFixture({ entry, browser, title: `dock-ux-${adapter}` });
      page = fixture.page;
    }, 90_000);
    afterAll(async () => {
      await fixture?.close();
      await browser?.close();
    });

    it('the chat stays where the person scrolled up to while a reply streams; aria-busy while it runs', async () => {
      await load();
      const longReply = Array.from({ length: 40 }, (_, index) => `Line ${index + 1} of the order history.`).join('\n');
      fixture.modelServer.enqueue(textReply(longReply, { chunkSize: 200 }));
      await send(page, 'show my order history');
      await expect.poll(() => replies(page), SETTLE).toHaveLength(1);
      const second = gatedReply('Second ', 'reply, done.');
      fixture.modelServer.enqueue(second.reply);
      await send(page, 'and now?');
      const messages = page.locator('[data-pling="messages"]');
      await page.locator('[data-pling="message"][data-streaming="true"]').waitFor();
      expect(await dock(page).getAttribute('aria-busy')).toBe('true');
      // Sending pinned the chat to its bottom.
      expect(
        await messages.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
      ).toBeLessThanOrEqual(32);
      await messages.evaluate((element) => {
        element.scrollTop = 0;
      });
      await page.waitForTimeout(150); // the scroll event
      // The rest streams in while the person is scrolled up.
      second.release();
      await expect.poll(() => replies(page), SETTLE).toHaveLength(2);
      expect(await messages.evaluate((element) => element.scrollTop)).toBeLessThan(10);
      await expect.poll(() => dock(page).getAttribute('aria-busy')).toBe('false');
      expect(pageErrors()).toEqual([]);
    });

    it('a reply renders sanitised Markdown (code, a mended table, safe links), streamed without rebuilding', async () => {
      await load();
      const rest = [
        '** is on its way.',
        '',
        '| Order | Item | Total |',
        '|---|---|',
        '| #1007 | Headphones | €89.00 |',
        '',
        '```js',
        "track('#1007');",
        '```',
        '',
        '[Tracking](https://example.com/track?id=1007) and [bad](javascript:alert(1)) <img src="x" onerror="globalThis.injected = true">',
      ].join('\n');
      const order = gatedReply('First paragraph.\n\n**Order #1007', rest);
      fixture.modelServer.enqueue(order.reply);
      await send(page, 'where is my order?');
      const streaming = page.locator('[data-pling="message"][data-streaming="true"] [data-pling="text"]');
      await expect.poll(() => streaming.locator('p').count()).toBeGreaterThan(0);
      await streaming.evaluate((element) => {
        (globalThis as { firstParagraph?: Element }).firstParagraph = element.querySelector('p')!;
      });
      order.release();
      await expect.poll(() => replies(page), SETTLE).toHaveLength(1);
      const text = page.locator('[data-pling="message"][data-role="assistant"] [data-pling="text"]');
      expect(await text.locator('strong').textContent()).toBe('Order #1007');
      expect(await text.locator('table th').allTextContents()).toEqual(['Order', 'Item', 'Total']);
      expect(await text.locator('table td').allTextContents()).toEqual(['#1007', 'Headphones', '€89.00']);
      expect(await text.locator('pre code.language-js').textContent()).toBe("track('#1007');\n");
      const tracking = text.locator('a', { hasText: 'Tracking' });
      expect(await tracking.getAttribute('href')).toBe('https://example.com/track?id=1007');
      expect(await tracking.getAttribute('target')).toBe('_blank');
      expect(await tracking.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await text.locator('a', { hasText: 'bad' }).getAttribute('href')).toBeNull();
      expect(await text.locator('img, script').count()).toBe(0);
      expect(await text.textContent()).toContain('<img src="x"');
      expect(await page.evaluate(() => (globalThis as { injected?: boolean }).injected)).toBeUndefined();
      // The paragraph rendered while streaming is the very node shown now: nothing was rebuilt (no flicker).
      expect(
        await text.evaluate((element) => {
          const kept = (globalThis as { firstParagraph?: Element }).firstParagraph;
          return kept?.isConnected === true && element.querySelector('p') === kept;
        }),
      ).toBe(true);
      expect(pageErrors()).toEqual([]);
    });

    it('a launcher opens and closes the dock, remembered per page; closed on a phone it covers nothing', async () => {
      await load();
      const texts = DOCK_TEXTS.en;
      const launcher = page.locator('[data-pling="launcher"]');
      expect(await launcher.isVisible()).toBe(false);
      await page.locator('[data-pling="close"]').click();
      await launcher.waitFor();
      expect(await launcher.textContent()).toBe(texts.open);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-pling'))).toBe('launcher');
      expect(await page.locator('[data-pling="input"]').isVisible()).toBe(false);
      const closed = (await dock(page).boundingBox())!;
      expect(closed.width).toBeLessThan(240);
      expect(closed.height).toBeLessThan(72);
      await page.reload();
      await launcher.waitFor();
      expect(await page.locator('[data-pling="input"]').isVisible()).toBe(false);
      await launcher.click();
      await page.locator('[data-pling="input"]').waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-pling'))).toBe('input');
      await page.reload();
      await page.locator('[data-pling="input"]').waitFor();
      // Escape folds it too, from the input, with focus on the launcher.
      await page.locator('[data-pling="input"]').press('Escape');
      await launcher.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-pling'))).toBe('launcher');
      await launcher.click();
      await page.locator('[data-pling="input"]').waitFor();

      const viewport = page.viewportSize()!;
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        const open = (await dock(page).boundingBox())!;
        expect(open.x).toBeGreaterThanOrEqual(0);
        expect(open.x + open.width).toBeLessThanOrEqual(390);
        await page.locator('[data-pling="close"]').click();
        await launcher.waitFor();
        const box = (await dock(page).boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        expect(box.y + box.height).toBeLessThanOrEqual(844);
        expect(box.width * box.height).toBeLessThan(390 * 844 * 0.05);
        // The page under it is reachable: its heading, its table, its search field.
        expect(
          await page.evaluate(() =>
            ['#page h1', '#page table', '#search'].map((selector) => {
              const { left, top, width, height } = document.querySelector(selector)!.getBoundingClientRect();
              const hit = document.elementFromPoint(left + width / 2, top + Math.min(height / 2, 20));
              return document.querySelector('[data-pling="dock"]')!.contains(hit);
            }),
          ),
        ).toEqual([false, false, false]);
      } finally {
        await page.setViewportSize(viewport);
      }
      expect(pageErrors()).toEqual([]);
    });

    it('"thinking" shows before the first token; an operation waiting for confirmation says so', async () => {
      await load();
      const texts = DOCK_TEXTS.en;
      fixture.modelServer.enqueue({
        ...(textReply('Here is your order.') as Extract<ScriptedReply, { type: 'stream' }>),
        headersDelayMs: 1_200,
      });
      await send(page, 'order 1007?');
      const thinking = page.locator('[data-pling="thinking"]');
      await thinking.waitFor();
      expect(await thinking.textContent()).toBe(texts.thinking);
      await expect.poll(() => replies(page), SETTLE).toEqual(['Here is your order.']);
      expect(await thinking.count()).toBe(0);

      fixture.modelServer.enqueue(
        toolCallReply([{ name: 'email_invoice', arguments: { to: '[redacted:email]', order: '#1007' } }]),
        textReply('Not sent.'),
      );
      await send(page, 'email me the invoice');
      await page.locator('[data-pling="confirmation"]').waitFor();
      const operation = page.locator('[data-pling="operation"]');
      expect(await operation.getAttribute('data-status')).toBe('waiting');
      expect(await operation.textContent()).toBe(texts.toolWaiting('email_invoice'));
      expect(await dock(page).textContent()).not.toContain(texts.toolRunning('email_invoice'));
      await page.locator('[data-pling="reject"]').click();
      await expect.poll(() => replies(page), SETTLE).toEqual(['Here is your order.', 'Not sent.']);
      expect(await operation.getAttribute('data-status')).toBe('failed');
      expect(await operation.textContent()).toBe(texts.toolDeclined('email_invoice'));
      expect(pageErrors()).toEqual([]);
    });

    it('a confirmation: reject then approve, a destructive approve, announced and focused, the real value shown', async () => {
      await load();
      const texts = DOCK_TEXTS.en;
      fixture.modelServer.enqueue(
        toolCallReply([{ name: 'email_invoice', arguments: { to: '[redacted:email]', order: '#1007' } }]),
        textReply('Sent.'),
      );
      await send(page, 'email me the invoice of #1007');
      const card = page.locator('[data-pling="confirmation"]');
      await card.waitFor();
      expect(
        await card.locator('button').evaluateAll((buttons) => buttons.map((button) => button.dataset.pling)),
      ).toEqual(['reject', 'approve']);
      const colours = await card.evaluate((element) => {
        const colour = (selector: string) => getComputedStyle(element.querySelector(selector)!).backgroundColor;
        return { approve: colour('[data-pling="approve"]'), reject: colour('[data-pling="reject"]') };
      });
      expect(colours.approve).toBe('rgb(207, 34, 46)');
      expect(colours.reject).not.toBe(colours.approve);
      const announcer = page.locator('[data-pling="announcer"]');
      expect(await announcer.getAttribute('aria-live')).toBe('assertive');
      expect(await announcer.textContent()).toBe(texts.confirmAnnouncement('email_invoice', true));
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              document.activeElement?.getAttribute('data-pling') === 'reject' &&
              document.activeElement.closest('[data-pling="confirmation"]') !== null,
          ),
        )
        .toBe(true);
      expect(await card.locator('pre').textContent()).toContain(CUSTOMER_EMAIL);
      const asked = JSON.stringify(fixture.modelServer.chatBodies());
      expect(asked).toContain('[redacted:email]');
      expect(asked).not.toContain(CUSTOMER_EMAIL);
      await card.locator('[data-pling="approve"]').click();
      await expect.poll(() => replies(page), SETTLE).toEqual(['Sent.']);
      expect(await page.evaluate(() => (globalThis as { invoicesSent?: unknown[] }).invoicesSent)).toEqual([
        { to: CUSTOMER_EMAIL, order: '#1007' },
      ]);
      expect(JSON.stringify(fixture.modelServer.chatBodies())).not.toContain(CUSTOMER_EMAIL);
      expect(await announcer.textContent()).toBe('');
      // A value the person types shows as they typed it in their own bubble; the model gets the marker.
      fixture.modelServer.enqueue(textReply('Noted.'));
      await send(page, `my address is ${CUSTOMER_EMAIL}`);
      await expect.poll(() => replies(page), SETTLE).toEqual(['Sent.', 'Noted.']);
      expect(await page.locator('[data-pling="message"][data-role="user"]').last().textContent()).toContain(
        `my address is ${CUSTOMER_EMAIL}`,
      );
      const typedBody = JSON.stringify(fixture.modelServer.chatBodies().at(-1));
      expect(typedBody).toContain('my address is [redacted:email]');
      expect(typedBody).not.toContain(CUSTOMER_EMAIL);
      expect(pageErrors()).toEqual([]);
    });

    it('after an error: words for the person, details for the developer behind a disclosure, and a retry', async () => {
      await load();
      const texts = DOCK_TEXTS.en;
      const asked = fixture.modelServer.chatBodies().length;
      fixture.modelServer.enqueue(errorReply(500, 'upstream exploded'));
      await send(page, 'cancel order 1006');
      const error = page.locator('[data-pling="error"]');
      await error.waitFor();
      const code = (await error.locator('.pling-error-code').textContent())!;
      expect(code).toMatch(/^[A-Z_]+$/);
      expect(await error.locator('[data-pling="error-summary"]').textContent()).toBe(texts.errorSummary(code));
      const details = error.locator('details[data-pling="error-details"]');
      expect(await details.evaluate((element: HTMLDetailsElement) => element.open)).toBe(false);
      expect(await details.locator('summary').textContent()).toBe(texts.errorDetails);
      expect(await details.textContent()).toContain('upstream exploded');
      expect(await error.locator('[data-pling="error-summary"]').isVisible()).toBe(true);
      expect(await details.locator('p').isVisible()).toBe(false);
      fixture.modelServer.enqueue(textReply('Order 1006 is cancelled.'));
      await error.locator('[data-pling="retry"]').click();
      await expect.poll(() => replies(page), SETTLE).toEqual(['Order 1006 is cancelled.']);
      expect(await error.count()).toBe(0);
      expect(fixture.modelServer.chatBodies()).toHaveLength(asked + 2);
      // Run again, not sent again: the model sees the person's message once.
      const retriedBody = fixture.modelServer.chatBodies().at(-1) as {
        messages: Array<{ role: string; content: unknown }>;
      };
      const asks = retriedBody.messages.filter(
        (message) => message.role === 'user' && message.content === 'cancel order 1006',
      );
      expect(asks).toHaveLength(1);
      expect(
        await page.locator('[data-pling="message"][data-role="user"]', { hasText: 'cancel order 1006' }).count(),
      ).toBe(1);
      expect(pageErrors()).toEqual([]);
    });

    it('zh-CN as people see it: every fixed text in Chinese, and screenshots of this dock kept in docs', async () => {
      await load('zh-CN');
      const zh = DOCK_TEXTS['zh-CN'];
      fixture.modelServer.enqueue(errorReply(500, 'upstream exploded'));
      await send(page, '取消订单 1006');
      await page.locator('[data-pling="error"]').waitFor();
      // innerText on purpose: what is rendered (the folded launcher's text, display: none, is not).
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the person reads.
      const shown = (await dock(page).evaluate((element: HTMLElement) => element.innerText)).replace(
        /upstream exploded|取消订单 1006|[A-Z_]{4,}/g,
        '',
      );
      for (const fixed of [zh.clear, zh.close, zh.send, zh.recentOperations, zh.retryButton, zh.errorDetails]) {
        expect(shown).toContain(fixed);
      }
      const english = Object.values(DOCK_TEXTS.en).filter((value): value is string => typeof value === 'string');
      for (const text of english) expect(shown, text).not.toContain(text);
      expect(shown).not.toMatch(/[A-Za-z]{4,}/);
      for (const locale of ['zh-CN', 'en'] as const) {
        for (const width of ['desktop', 'phone'] as const) {
          const file = join(SCREENSHOT_DIR, screenshotName(adapter, locale, width));
          expect(existsSync(file), `${file}: run npm run screenshots`).toBe(true);
        }
      }
      expect(pageErrors()).toEqual([]);
    });
  });
}
