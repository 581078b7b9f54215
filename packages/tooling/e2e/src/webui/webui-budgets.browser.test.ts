// Budgets in the WebUI, in Debian Chromium against a real `aalis serve` with plugins.budget configured: a turn's
// tokens show in the session panel's budget lines and in the admin area's 预算/Budgets section (per chat, per person,
// the deployment); the owner adjusts a limit from the page (a typed negative is refused in the page, nothing sent),
// the next turn of another account in a chat over it gets the notice instead of a model call, and the limit goes back
// to the configured one. zh-CN on a phone. Screenshots in docs/screenshots/webui/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { textReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 150_000;
const SLOW = { timeout: 15_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  served = await serveWebui({
    extraConfig: `  session-server:
    accounts: [{ userId: bea, displayName: Bea }]
  budget:
    personPerDay: 5000
    roomPerDay: 100000
    deploymentPerMonth: 1000000
`,
  });
  context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'en'));
  page = await context.newPage();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

/** Sends `text` from the new-chat page `tab` shows and waits for the reply `reply` (the scripted model's, with `tokens`). */
async function chat(
  tab: Page,
  text: string,
  reply: string,
  tokens: { promptTokens: number; completionTokens: number },
) {
  served.model.enqueue(textReply(reply, { usage: tokens }));
  await tab.getByTestId('new-chat').waitFor();
  const box = tab.getByTestId('composer-text');
  await box.fill(text);
  await box.press('Enter');
  await tab.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
  await expect.poll(() => tab.getByTestId('turn').last().textContent(), SLOW).toContain(reply);
}

describe('budgets in the WebUI', () => {
  it(
    'shows what a chat spent, adjusts a limit that the next model call obeys, and goes back to the configured one',
    async () => {
      await page.goto(served.link);
      await page.getByTestId('new-chat').waitFor();
      await chat(page, 'count my tokens', 'Counted.', { promptTokens: 300, completionTokens: 45 });

      // The session panel: everyone this month, this chat today, me today.
      if ((await page.getByTestId('side-panel').count()) === 0) await page.getByTestId('panel-toggle').click();
      const lines = page.getByTestId('session-budget');
      await expect.poll(() => lines.textContent(), SLOW).toContain('345 of 100,000');
      const shown = (await lines.textContent()) ?? '';
      expect(shown).toContain('345 of 100,000');
      expect(shown).toContain('You today');
      expect(shown).toContain('345 of 5,000 · 6%');
      expect(shown).toContain('Everyone this month');

      await page.getByTestId('open-admin').click();
      const section = page.getByTestId('budgets-section');
      await section.getByRole('heading', { name: 'Budgets' }).waitFor();
      await expect.poll(() => section.getByTestId('budget-rooms').textContent(), SLOW).toContain('345');
      expect(await section.getByTestId('budget-people').textContent()).toContain('webui:owner');
      expect(await section.getByTestId('budget-deployment-used').textContent()).toContain('345 of 1,000,000');
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'budgets-en.png'), fullPage: true });

      // A negative limit is refused in the page; nothing is sent.
      const room = section.getByLabel('Limit: Per chat per day', { exact: true });
      await room.fill('-5');
      await section.getByRole('button', { name: 'Save limit: Per chat per day' }).click();
      await expect
        .poll(() => section.getByTestId('budget-room').getByRole('alert').textContent(), SLOW)
        .toContain('at least 0');
      await room.fill('50');
      await section.getByRole('button', { name: 'Save limit: Per chat per day' }).click();
      await expect.poll(() => section.getByRole('status').textContent(), SLOW).toBe('Per chat per day is now 50.');
      expect(await section.getByTestId('budget-room').textContent()).toContain('Adjusted (configured: 100,000)');
      // The chat that spent 345 is over the new limit: its bar says so.
      expect(await section.getByTestId('budget-rooms').locator('.budget-over').count()).toBe(1);

      // Another account's chat runs over the adjusted limit: its next message gets the notice, not a model call.
      const other = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        await other.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'en'));
        const bea = await other.newPage();
        await bea.goto(await served.freshLink('bea'));
        await bea.getByTestId('new-chat').waitFor();
        await chat(bea, 'first question', 'First answer.', { promptTokens: 40, completionTokens: 20 });
        const calls = served.model.requests.length;
        const box = bea.getByTestId('composer-text');
        await box.fill('second question');
        await box.press('Enter');
        await expect
          .poll(() => bea.getByTestId('conversation').textContent(), SLOW)
          .toContain("This chat's daily budget is used up");
        expect(served.model.requests.length).toBe(calls);
      } finally {
        await other.close();
      }

      await section.getByRole('button', { name: 'Back to configured: Per chat per day' }).click();
      await expect.poll(() => section.getByRole('status').textContent(), SLOW).toBe('Per chat per day is now 100,000.');
      expect(await section.getByTestId('budget-room').textContent()).toContain('Configured');
      expect(await section.getByLabel('Limit: Per chat per day', { exact: true }).inputValue()).toBe('100000');
    },
    TIMEOUT,
  );

  it(
    'reads and adjusts budgets in 中文 on a phone',
    async () => {
      const phone = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      try {
        await phone.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
        await phone.addCookies(await context.cookies());
        const small = await phone.newPage();
        await small.goto(new URL('/', page.url()).toString());
        // The page lands in a new chat once it has loaded the sessions; the admin area opened before that was
        // closed again by it.
        await small.getByTestId('new-chat').waitFor();
        // On a phone the pages are in the session drawer.
        await small.getByTestId('menu').click();
        await small.getByTestId('open-admin').click();
        const section = small.getByTestId('budgets-section');
        await section.getByRole('heading', { name: '预算' }).waitFor();
        await expect.poll(() => section.getByTestId('budget-rooms').textContent(), SLOW).toContain('345');
        await section.getByLabel('每人每天的上限', { exact: true }).fill('2000');
        await section.getByRole('button', { name: '保存每人每天的上限' }).click();
        await expect.poll(() => section.getByRole('status').textContent(), SLOW).toBe('每人每天的上限已设为 2,000。');
        expect(await section.textContent()).toContain('今天用得最多的会话');
        // The section fits the phone's width: nothing runs off to the side.
        const overflow = await section.evaluate((element) => element.scrollWidth - element.clientWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        await section.scrollIntoViewIfNeeded();
        await small.screenshot({ path: join(SHOTS, 'budgets-phone-zh-CN.png'), fullPage: true });
      } finally {
        await phone.close();
      }
    },
    TIMEOUT,
  );
});
