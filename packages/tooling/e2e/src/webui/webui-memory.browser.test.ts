// The 记忆 page in Debian Chromium against a real `aalis serve`: she is told a fact and keeps it with
// memory_remember (the scripted model calls the tool), the page shows it under the person, it is deleted from the
// page after a confirmation, and a later search finds it nowhere — not in the profile, not in long-term memory.
// A skill she saved is shown and edited; in 中文 on a phone the page reads in Chinese. Screenshots in
// docs/screenshots/webui/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { textReply, toolCallReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');

let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  served = await serveWebui();
  context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await page.goto(served.link);
  await page.getByTestId('new-chat').waitFor();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

async function tell(on: Page, text: string, calls: { name: string; arguments: Record<string, unknown> }[]) {
  served.model.enqueue(toolCallReply(calls), textReply('Noted.'));
  const box = on.getByTestId('composer-text');
  await box.fill(text);
  await box.press('Enter');
  const turns = on.getByTestId('conversation').getByTestId('turn');
  await expect.poll(() => turns.last().getByTestId('reply').textContent(), SLOW).toContain('Noted.');
}

const facts = (on: Page) => on.getByTestId('memory-facts').getByTestId('memory-fact');

describe('the memory page', () => {
  it(
    'shows a fact she was told, deletes it after a confirmation, and a later search finds it nowhere',
    async () => {
      await tell(page, 'Please remember that I like jasmine tea.', [
        { name: 'memory_remember', arguments: { fact: 'likes jasmine tea' } },
      ]);
      await page.getByTestId('open-memory').click();
      await page.getByTestId('memory').waitFor();
      await expect
        .poll(() => facts(page).allTextContents(), SLOW)
        .toEqual([expect.stringContaining('likes jasmine tea')]);
      expect(await page.getByRole('heading', { name: 'Profile of owner' }).count()).toBe(1);
      expect(await page.getByTestId('memory-person').allTextContents()).toEqual([expect.stringContaining('owner')]);
      // Before deleting: the fact and her long-term memory of what was said both answer a search.
      await page.getByTestId('memory-search-input').fill('jasmine');
      await page.getByTestId('memory-search-button').click();
      const results = page.getByTestId('memory-results');
      await expect.poll(() => results.getByTestId('memory-fact').count(), SLOW).toBe(1);
      expect(await results.getByTestId('memory-message').count()).toBeGreaterThan(0);
      await page.screenshot({ path: join(SHOTS, 'memory-en.png'), fullPage: true });

      await facts(page).first().getByTestId('memory-fact-delete').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('"likes jasmine tea" will be deleted');
      await dialog.getByTestId('confirm').click();
      await expect
        .poll(() => page.getByTestId('memory-notice').textContent(), SLOW)
        .toMatch(/^Deleted; (1 related message|([2-9]|[1-9]\d+) related messages) left long-term memory too\.$/);
      await expect.poll(() => facts(page).count(), SLOW).toBe(0);
      // The search shown is asked again: found nowhere, neither in the profile nor in long-term memory.
      await expect
        .poll(() => page.getByTestId('memory-nothing-found').textContent(), SLOW)
        .toBe('"jasmine" was found nowhere.');
      await page.getByTestId('memory-search-input').fill('jasmine tea');
      await page.getByTestId('memory-search-button').click();
      await expect
        .poll(() => page.getByTestId('memory-nothing-found').textContent(), SLOW)
        .toBe('"jasmine tea" was found nowhere.');
      // And she is not given it any more: the next turn carries no profile block (the chat's own history still
      // holds the tool call, as the session's record).
      await page.getByTestId('memory-back').click();
      served.model.enqueue(textReply('Water, maybe?'));
      const box = page.getByTestId('composer-text');
      await box.fill('What should I drink?');
      await box.press('Enter');
      await expect
        .poll(
          () => page.getByTestId('conversation').getByTestId('turn').last().getByTestId('reply').textContent(),
          SLOW,
        )
        .toContain('Water');
      const sent = served.model.chatBodies().at(-1)?.messages as { content: unknown }[];
      expect(sent.some((message) => String(message.content).startsWith('[Profiles]'))).toBe(false);
      expect(sent.some((message) => String(message.content).startsWith('[Long-term memory]'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'shows and edits a skill she saved, in 中文 on a phone',
    async () => {
      const phone = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        locale: 'zh-CN',
      });
      try {
        await phone.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
        // The same login as the desktop (its cookie): no second link to mint.
        await phone.addCookies(await context.cookies());
        const small = await phone.newPage();
        await small.goto(served.origin);
        await small.getByTestId('new-chat').waitFor();
        await tell(small, '记住：我叫小林，以后周报按这个做法写', [
          { name: 'memory_remember', arguments: { fact: '名字叫小林' } },
          {
            name: 'skill_save',
            arguments: { name: '整理周报', content: '1. 收集本周合并的拉取请求\n2. 按标签分组\n3. 写成周报' },
          },
        ]);
        // On a phone the other pages are in the session drawer.
        await small.getByTestId('menu').click();
        await small.getByRole('button', { name: '记忆' }).click();
        await small.getByTestId('memory').waitFor();
        await small.getByRole('heading', { name: '她记得的事' }).waitFor();
        await expect.poll(() => facts(small).allTextContents(), SLOW).toEqual([expect.stringContaining('名字叫小林')]);
        const skill = small.getByTestId('memory-skills').getByTestId('memory-skill');
        await expect.poll(() => skill.allTextContents(), SLOW).toEqual([expect.stringContaining('整理周报')]);
        expect(await skill.textContent()).toContain('和 owner 的私聊');
        await small.screenshot({ path: join(SHOTS, 'memory-phone-zh-CN.png'), fullPage: true });

        await skill.getByTestId('memory-skill-edit').click();
        await small.getByTestId('memory-skill-name').fill('写周报');
        await small.getByTestId('memory-save').click();
        await expect.poll(() => skill.textContent(), SLOW).toContain('写周报');
        await facts(small).first().getByTestId('memory-fact-edit').click();
        await small.getByTestId('memory-fact-input').fill('名字叫小林，在北京');
        await small.getByTestId('memory-save').click();
        await expect.poll(() => facts(small).first().textContent(), SLOW).toContain('名字叫小林，在北京');
        expect(await facts(small).first().textContent()).toContain('在这里改过');
        await small.setViewportSize({ width: 1280, height: 900 });
        await small.screenshot({ path: join(SHOTS, 'memory-zh-CN.png'), fullPage: true });
      } finally {
        await phone.close();
      }
    },
    TIMEOUT,
  );
});
