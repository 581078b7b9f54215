// A long history in Debian Chromium against a real `aalis serve` whose session server sends only the latest two
// timeline entries (`historyEntries: 2`): the page says that earlier ones are not shown. The host speaks zh-CN
// (`locale: zh-CN`) and the browser English: everything the server writes for this page is English.
import { errorReply, textReply } from '@aalis/testing';
import type { Locator, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;

/**
 * Each run of Chinese in the element's text, with a little around it to say where it is. The default persona's name
 * is data, not a text of the server: the persona file written at the first start in the host's language (爱丽丝).
 */
async function chineseIn(target: Locator): Promise<string[]> {
  const text = ((await target.textContent()) ?? '').replaceAll('爱丽丝', 'Aalis');
  return text.match(/.{0,24}[\u3400-\u4dbf\u4e00-\u9fff]+.{0,24}/g) ?? [];
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('composer-text');
  await box.fill(text);
  await box.press('Enter');
}
const SLOW = { timeout: 15_000 };
let served: ServedWebui;

beforeAll(async () => {
  served = await serveWebui({ locale: 'zh-CN', extraConfig: '  session-server:\n    historyEntries: 2\n' });
}, TIMEOUT);

afterAll(async () => {
  await served?.stop();
}, TIMEOUT);

describe('a history longer than the server sends', () => {
  it(
    'shows the latest turns with a line saying earlier messages are not shown',
    async () => {
      const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(served.link);
      // The page lands in a new chat; its first message creates the session.
      await page.getByTestId('new-chat').waitFor();
      for (const word of ['one', 'two', 'three']) {
        served.model.enqueue(textReply(`answer ${word}`));
        const box = page.getByTestId('composer-text');
        await box.fill(`question ${word}`);
        await box.press('Enter');
        await expect.poll(() => page.getByText(`answer ${word}`).count(), SLOW).toBe(1);
        expect(await page.getByTestId('truncated').count()).toBe(0);
      }
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      expect(await page.getByTestId('turn').count()).toBe(2);
      expect(await page.getByText('answer one').count()).toBe(0);
      expect(await page.getByTestId('truncated').textContent()).toBe('Earlier messages are not shown');
      await context.close();
    },
    TIMEOUT,
  );

  it(
    'writes English for an English page although the host speaks zh-CN: settings, usage, commands, errors, admin',
    async () => {
      const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(await served.freshLink());
      await page.getByTestId('new-chat').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      served.model.enqueue(textReply('Hello there.'));
      await send(page, 'Hello');
      await expect.poll(() => page.getByText('Hello there.').count(), SLOW).toBe(1);
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      // The settings the host describes: labels, notes, choices and sources.
      const settings = page.getByTestId('settings');
      await settings.locator('[data-testid="setting"][data-key="think"]').waitFor(SLOW);
      for (const summary of await settings.locator('summary').all()) await summary.click();
      expect(await chineseIn(settings)).toEqual([]);
      expect(await chineseIn(page.locator('.composer'))).toEqual([]);
      // Usage rows and their notes, measured after the call.
      await page.getByTestId('tab-usage').click();
      await page.getByTestId('usage-measured').waitFor(SLOW);
      expect(await chineseIn(page.getByTestId('usage-panel'))).toEqual([]);
      await page.getByTestId('tab-settings').click();
      // A command's answer and a refused value (a coded error), in the conversation and after a reload.
      await send(page, '/help');
      await page.getByTestId('command').last().getByTestId('command-reply').waitFor(SLOW);
      await send(page, '/session.set historyLimit many');
      await expect.poll(() => page.getByTestId('command').count(), SLOW).toBe(2);
      const refused = page.getByTestId('command').last().getByTestId('command-reply');
      await expect.poll(() => refused.textContent(), SLOW).toContain('historyLimit');
      // A failed turn: the host's coded reason around the model server's words, live and after the reload.
      served.model.enqueue(errorReply(500, 'the upstream exploded'));
      await send(page, 'This will fail');
      const outcome = page.getByTestId('turn').last().getByTestId('outcome');
      await expect.poll(() => outcome.textContent(), SLOW).toContain('the upstream exploded');
      expect(await chineseIn(page.getByTestId('conversation'))).toEqual([]);
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await expect.poll(() => page.getByTestId('turn').count(), SLOW).toBe(1);
      expect(await page.getByTestId('outcome').textContent()).toContain('the upstream exploded');
      expect(await chineseIn(page.getByTestId('conversation'))).toEqual([]);
      // The admin area: plugin states and descriptions.
      await page.getByTestId('open-admin').click();
      const agent = page.locator('tr', { hasText: '@aalis/plugin-agent' }).first();
      await agent.waitFor(SLOW);
      expect(await chineseIn(agent)).toEqual([]);
      await context.close();
    },
    TIMEOUT,
  );
});
