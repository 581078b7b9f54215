// The 「后台」 tab in Debian Chromium against a real `aalis serve`: a turn spawns two subtasks and waits; the tab
// lists both with status and tokens, one is stopped with its button, 「全部停止」 stops the other, and the waiting
// turn then answers with what came back.
import { textReply, toolCallReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  served = await serveWebui();
  context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

const texts = (body: Record<string, unknown>) =>
  ((body.messages ?? []) as Array<{ content?: unknown }>).map((message) => String(message.content ?? ''));
const isChild = (task: string) => (body: Record<string, unknown>) =>
  texts(body).some((text) => text.startsWith('[Cross-session delegation]') && text.includes(task));
const endless = {
  type: 'stream' as const,
  steps: [
    { role: 'assistant' as const },
    { delayMs: 60_000 },
    { text: 'late' },
    { finish: 'stop' },
    { done: true as const },
  ],
};

describe('the 后台 tab', () => {
  it(
    'lists the subtasks with status, stops one with its button and the rest with 全部停止',
    async () => {
      await page.goto(served.link);
      await page.getByTestId('sessions').waitFor();
      await page.getByTestId('new-chat').waitFor();
      served.model.enqueueWhen(isChild('map the east'), endless);
      served.model.enqueueWhen(isChild('map the west'), endless);
      served.model.enqueue(
        toolCallReply([
          { id: 'c1', name: 'spawn_subtask', arguments: { task: 'map the east' } },
          { id: 'c2', name: 'spawn_subtask', arguments: { task: 'map the west', background: true } },
        ]),
        toolCallReply([{ id: 'c3', name: 'wait_subtasks', arguments: {} }]),
        textReply('Both maps were stopped.'),
      );
      const box = page.getByTestId('composer-text');
      await box.fill('map both sides');
      await box.press('Enter');
      // The first message created the session; its panel (open by default on a desktop) follows.
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      if ((await page.getByTestId('side-panel').count()) === 0) await page.getByTestId('panel-toggle').click();
      await page.getByTestId('tab-background').click();
      const rows = page.getByTestId('background-task');
      await expect.poll(() => rows.count(), SLOW).toBe(2);
      await expect
        .poll(() => rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-status'))), SLOW)
        .toEqual(['running', 'running']);
      const east = rows.filter({ hasText: 'map the east' });
      expect(await east.getByTestId('background-status').textContent()).toBe('Running');
      await east.getByTestId('background-stop').click();
      await expect.poll(() => east.getAttribute('data-status'), SLOW).toBe('stopped');
      expect(await rows.filter({ hasText: 'map the west' }).getAttribute('data-status')).toBe('running');
      await page.getByTestId('background-stop-all').click();
      await expect
        .poll(() => rows.filter({ hasText: 'map the west' }).getAttribute('data-status'), SLOW)
        .toBe('stopped');
      expect(await page.getByTestId('background-stop').count()).toBe(0);
      await expect.poll(() => page.getByTestId('turn').last().textContent(), SLOW).toContain('Both maps were stopped.');
    },
    TIMEOUT,
  );

  it(
    "writes a reminder's next time in the page's language, not the browser's",
    async () => {
      // The browser is en-US; the reader picked 中文 on the page (kept in localStorage).
      const chinese = await served.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await chinese.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
        const tab = await chinese.newPage();
        await tab.goto(await served.freshLink());
        await tab.getByTestId('sessions').waitFor();
        await tab.getByTestId('new-chat').waitFor();
        const box = tab.getByTestId('composer-text');
        await box.fill('/remind 2h drink water');
        await box.press('Enter');
        await tab.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
        if ((await tab.getByTestId('side-panel').count()) === 0) await tab.getByTestId('panel-toggle').click();
        await tab.getByTestId('tab-background').click();
        const row = tab.getByTestId('background-task').filter({ hasText: 'drink water' });
        await expect.poll(() => row.count(), SLOW).toBe(1);
        const shown = (await row.textContent()) ?? '';
        const next = shown.slice(shown.indexOf('下次：'));
        // zh-CN writes 2026/12/2 05:13:00; en-US would write 12/2/2026, 5:13:00 AM.
        expect(next).toMatch(/^下次：\d{4}\/\d{1,2}\/\d{1,2}/);
        expect(next).not.toMatch(/AM|PM/);
      } finally {
        await chinese.close();
      }
    },
    TIMEOUT,
  );
});
