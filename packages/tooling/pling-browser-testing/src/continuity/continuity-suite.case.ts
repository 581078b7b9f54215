// Continuity and the model settings in real Chromium, one suite that every adapter's continuity.browser.test.ts runs
// against its own two-pages fixture (two-pages-shop.case.ts with that adapter's dock): a conversation that survives a
// full navigation to another page and a reload (pending confirmation included), what the checkpoint holds in the tab's
// real sessionStorage, and the model settings panel feeding the next request and kept for the page.
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { CONTINUITY_TEXTS } from '@plingjs/agent';
import { DOCK_TEXTS, MODEL_SETTINGS_TEXTS } from '@plingjs/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../launch-chromium.js';
import { type OpenedFixture, openFixture } from '../open-fixture.js';

const continuity = CONTINUITY_TEXTS['zh-CN'];
const texts = DOCK_TEXTS['zh-CN'];

type WireMessage = { role: string; content: string | null };
type ChatBody = { model: string; temperature?: number; max_tokens?: number; messages: WireMessage[] };

/** How the suite scripts the model's replies: a whole text answer, and one call of a tool. */
export interface ContinuityReplies {
  text(text: string): ScriptedReply;
  toolCall(name: string, args: Record<string, unknown>): ScriptedReply;
}

const DEFAULT_REPLIES: ContinuityReplies = {
  text: (text) => textReply(text),
  toolCall: (name, args) => toolCallReply([{ name, arguments: args }]),
};

/** Runs the suite against the fixture at `entry`; `dockName` names the dock in the suite's title. */
export function describeContinuity(dockName: string, entry: URL, replies: ContinuityReplies = DEFAULT_REPLIES): void {
  describe(`continuity and model settings in ${dockName}`, { timeout: 90_000 }, () => {
    let browser: Browser;
    let fixture: OpenedFixture;
    const dock = (selector = '') => fixture.page.locator(`[data-pling="dock"] ${selector}`.trim());
    const bodies = () => fixture.modelServer.chatBodies() as unknown as ChatBody[];
    const storage = () => fixture.page.evaluate(() => JSON.stringify({ ...sessionStorage }));

    async function open(query = '') {
      await fixture.page.goto(fixture.url + query);
      await dock().waitFor();
    }
    async function say(text: string) {
      await dock('[data-pling="input"]').fill(text);
      await dock('[data-pling="input"]').press('Enter');
    }
    const assistantSaid = (text: string) =>
      dock('[data-pling="message"][data-role="assistant"]:not([data-streaming])').filter({ hasText: text }).waitFor();

    beforeAll(async () => {
      browser = await launchChromium();
      fixture = await openFixture({ entry, browser, title: 'Shop' });
    }, 60_000);
    afterAll(async () => {
      await fixture?.close();
      await browser?.close();
    });
    beforeEach(async () => {
      fixture.modelServer.reset();
      // A fresh tab's state for every test: no checkpoint, no kept settings.
      await fixture.page.goto(fixture.url);
      await fixture.page.evaluate(() => {
        sessionStorage.clear();
        localStorage.clear();
      });
      fixture.errors.length = 0;
    });

    it('a session survives a navigation to another page and a reload: messages, events, the next request', async () => {
      await open('?page=orders');
      fixture.modelServer.enqueue(replies.text('你好，我在。'));
      await say('你好');
      await assistantSaid('你好，我在。');

      await fixture.page.locator('#to-detail').click();
      await fixture.page.waitForURL(/page=detail/);
      await fixture.page.locator('h1', { hasText: '订单详情' }).waitFor();
      await assistantSaid('你好，我在。');
      expect(await dock('[data-pling="message"]').count()).toBe(2);
      expect(await dock('[data-pling="operations"]').textContent()).toContain(continuity.restored(2));

      fixture.modelServer.enqueue(replies.text('这是 7 号订单。'));
      await say('这是哪个订单？');
      await assistantSaid('这是 7 号订单。');
      const [, second] = bodies();
      expect(second!.messages.slice(1).map((message) => message.content)).toEqual([
        '你好',
        '你好，我在。',
        '这是哪个订单？',
      ]);
      // The prompt is rebuilt from the page the person is on now, not the one the conversation started on.
      expect(second!.messages[0]!.content).toContain('订单详情');
      expect(second!.messages[0]!.content).not.toContain('订单列表');

      await fixture.page.reload();
      await assistantSaid('这是 7 号订单。');
      expect(await dock('[data-pling="message"]').count()).toBe(4);
      expect(fixture.errors).toEqual([]);
    });

    it('an action that navigates: the run carries on in the new page, with its prompt and its tools', async () => {
      await open('?page=orders');
      fixture.modelServer.enqueue(
        replies.toolCall('open_order', {}),
        // The old page's next request is cut by the navigation; the new page sends it again.
        { type: 'hang' },
        replies.text('已打开 7 号订单的详情。'),
      );
      await say('打开 7 号订单');
      await fixture.page.waitForURL(/page=detail/);
      await fixture.page.locator('h1', { hasText: '订单详情' }).waitFor();
      await assistantSaid('已打开 7 号订单的详情。');
      const last = bodies().at(-1)!;
      expect(last.messages[0]!.content).toContain('订单详情');
      const tool = last.messages.find((message) => message.role === 'tool')!;
      expect(JSON.parse(tool.content!)).toEqual({ result: { opening: 7 } });
      expect(last.messages.at(-1)!.role).toBe('tool');
      expect(fixture.errors).toEqual([]);
    });

    it('a pending confirmation is shown again after a reload, and approving it runs the action there', async () => {
      await open('?page=detail');
      fixture.modelServer.enqueue(
        replies.toolCall('send_receipt', { to: '[redacted:email]' }),
        replies.text('收据已发送。'),
      );
      await say('把收据发给客户');
      await dock('[data-pling="confirmation"]').waitFor();

      await fixture.page.reload();
      const card = dock('[data-pling="confirmation"]');
      await card.waitFor();
      expect(await card.textContent()).toContain(texts.confirm('send_receipt'));
      expect(await fixture.page.locator('#sent').textContent()).toBe('');
      await card.locator('[data-pling="approve"]').click();

      await expect.poll(() => fixture.page.locator('#sent').textContent()).toBe('sent to ada@example.com');
      await assistantSaid('收据已发送。');
      expect(bodies()).toHaveLength(2);
      const tool = bodies()[1]!.messages.find((message) => message.role === 'tool')!;
      expect(JSON.parse(tool.content!)).toHaveProperty('result');
      // The tab's real storage: markers, never the value the page shows as sensitive (the handler echoed it).
      await expect.poll(storage).toContain('收据已发送。');
      expect(await storage()).toContain('[redacted:email]');
      expect(await storage()).not.toContain('ada@example.com');
      expect(fixture.errors).toEqual([]);
    });

    it('a checkpoint of an unknown version is discarded with its reason shown, and nothing breaks', async () => {
      await fixture.page.evaluate(() =>
        sessionStorage.setItem(
          'pling:checkpoint:default',
          JSON.stringify({ version: 99, messages: 'from the future' }),
        ),
      );
      await open('?page=orders');
      await dock('[data-pling="operation"]')
        .filter({ hasText: continuity.discarded('unknown-version') })
        .waitFor();
      expect(await dock('[data-pling="message"]').count()).toBe(0);
      fixture.modelServer.enqueue(replies.text('重新开始。'));
      await say('你好');
      await assistantSaid('重新开始。');
      expect(bodies()[0]!.messages.slice(1)).toEqual([{ role: 'user', content: '你好' }]);
      expect(fixture.errors).toEqual([]);
    });

    it('past the size bound the dock says the conversation will not carry over, and the next page starts afresh', async () => {
      await open('?page=orders&maxBytes=400');
      fixture.modelServer.enqueue(replies.text('一段很长的回复'.repeat(20)));
      await say('你好');
      await assistantSaid('一段很长的回复');
      await dock('[data-pling="operation"]')
        .filter({ hasText: continuity.notSaved('too-large', 400) })
        .waitFor();
      await fixture.page.locator('#to-detail').click();
      await fixture.page.waitForURL(/page=detail/);
      await dock('[data-pling="operation"]')
        .filter({ hasText: continuity.discarded('too-large') })
        .waitFor();
      expect(await dock('[data-pling="message"]').count()).toBe(0);
      expect(fixture.errors).toEqual([]);
    });

    it('model settings: model, temperature and max output are used by the next send and kept for the page', async () => {
      const settingsTexts = MODEL_SETTINGS_TEXTS['zh-CN'];
      await open('?page=orders');
      const panel = dock('[data-pling="model-settings"]');
      await panel.locator('summary').click();
      expect(await panel.locator('summary').textContent()).toBe(settingsTexts.heading);
      expect(await panel.locator('[data-pling="model-select"] option').allTextContents()).toEqual([
        `test-model${settingsTexts.defaultMark}`,
        'large-model',
      ]);
      await panel.locator('[data-pling="model-select"]').selectOption('large-model');
      await panel.locator('[data-pling="temperature"]').fill('0.9');
      await panel.locator('[data-pling="temperature"]').press('Enter');
      await panel.locator('[data-pling="max-tokens"]').fill('200');
      await panel.locator('[data-pling="max-tokens"]').blur();
      // Refused by the runtime's rules: the reason is shown and 0.9 stays in effect.
      await panel.locator('[data-pling="temperature"]').fill('5');
      await panel.locator('[data-pling="temperature"]').blur();
      const error = panel.locator('[data-pling="setting-error"][data-field="temperature"]');
      await error.waitFor();
      expect(await error.textContent()).toContain('temperature');
      expect(await panel.locator('[data-pling="temperature"]').getAttribute('aria-invalid')).toBe('true');

      fixture.modelServer.enqueue(replies.text('好的。'));
      await say('你好');
      await assistantSaid('好的。');
      expect(bodies()[0]).toMatchObject({ model: 'large-model', temperature: 0.9, max_tokens: 200 });

      await fixture.page.reload();
      await dock('[data-pling="model-settings"] summary').click();
      expect(await dock('[data-pling="model-select"]').inputValue()).toBe('large-model');
      expect(await dock('[data-pling="temperature"]').inputValue()).toBe('0.9');
      expect(await dock('[data-pling="max-tokens"]').inputValue()).toBe('200');
      await dock('[data-pling="reset-settings"]').click();
      expect(await dock('[data-pling="model-select"]').inputValue()).toBe('test-model');
      fixture.modelServer.enqueue(replies.text('默认设置。'));
      await say('再来');
      await assistantSaid('默认设置。');
      expect(bodies()[1]).toMatchObject({ model: 'test-model', temperature: 0.3, max_tokens: 1024 });
      expect(fixture.errors).toEqual([]);
    });
  });
}
