// A long history in Debian Chromium against a real `aalis serve` whose session server sends only the latest three
// timeline entries (`historyEntries: 3`): the page says that earlier ones are not shown. The host speaks zh-CN
// (`locale: zh-CN`) and the browser English: everything the server writes for this page is English, the notices it
// writes once for every reader too (a failed turn's, a held-back message's, a failed delivery's note in a OneBot
// group), live and after a reload; the same host read in zh-CN shows them in Chinese, codes in full-width brackets.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  errorReply,
  type OneBotImplementation,
  onebotGroupMessage,
  startOneBotImplementation,
  textReply,
} from '@aalis/testing';
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
const SELF = 10_000;
const GROUP = 556;
const ROOM = `onebot:group:${GROUP}`;
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
let served: ServedWebui;
let onebot: OneBotImplementation;

beforeAll(async () => {
  onebot = await startOneBotImplementation({ selfId: SELF });
  served = await serveWebui({
    locale: 'zh-CN',
    extraConfig: `  session-server:
    historyEntries: 3
  platform-onebot: { url: ${onebot.url} }
  flow-control: { cooldown: { roomSeconds: 600 } }
`,
  });
  await onebot.connected();
}, TIMEOUT);

afterAll(async () => {
  await served?.stop();
  await onebot?.close();
}, TIMEOUT);

/** A group message addressed to her (an @ of her account first). */
function askInGroup(text: string): void {
  onebot.push(
    onebotGroupMessage({
      selfId: SELF,
      groupId: GROUP,
      userId: 42,
      card: 'Boss',
      message: [
        { type: 'at', data: { qq: String(SELF) } },
        { type: 'text', data: { text: ` ${text}` } },
      ],
    }),
  );
}

/** Whether the info notice of the conversation comes after the input saying `text`. */
function noticeAfterInput(page: Page, text: string): Promise<boolean> {
  return page.evaluate((said) => {
    const notice = document.querySelector('[data-testid="conversation"] [data-testid="notice"][data-tone="info"]');
    const inputs = Array.from(document.querySelectorAll('[data-testid="conversation"] [data-testid="input"]'));
    const input = inputs.find((node) => node.textContent?.includes(said));
    return Boolean(notice && input && input.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING);
  }, text);
}

/** The session events of kind `type` the page received on its socket (frames `{ type: 'event', event }`). */
function socketEvents(page: Page): { of(type: string): Record<string, unknown>[] } {
  const events: Record<string, unknown>[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.includes('"event"')) return;
      const frame = JSON.parse(payload) as { type?: string; event?: Record<string, unknown> };
      if (frame.type === 'event' && frame.event) events.push(frame.event);
    }),
  );
  return { of: (type) => events.filter((event) => event.type === type) };
}

describe('a history longer than the server sends', () => {
  it(
    'shows the latest turns with a line saying earlier messages are not shown',
    async () => {
      const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(served.link);
      // The page lands in a new chat; its first message creates the session.
      await page.getByTestId('new-chat').waitFor();
      for (const word of ['one', 'two', 'three', 'four']) {
        served.model.enqueue(textReply(`answer ${word}`));
        const box = page.getByTestId('composer-text');
        await box.fill(`question ${word}`);
        await box.press('Enter');
        await expect.poll(() => page.getByText(`answer ${word}`).count(), SLOW).toBe(1);
        expect(await page.getByTestId('truncated').count()).toBe(0);
      }
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      expect(await page.getByTestId('turn').count()).toBe(3);
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
      const received = socketEvents(page);
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
      // A sentence, and its code in small print (the answer as sent keeps it after a space in half-width brackets).
      expect(await refused.locator('.markdown').textContent()).toMatch(/changed\.$/);
      expect(await refused.getByTestId('error-code').textContent()).toBe('code AALIS_SETTINGS_INVALID_VALUE');
      const answer = received.of('command').at(-1)?.entry as { reply?: string } | undefined;
      expect(answer?.reply).toMatch(/\. \(AALIS_SETTINGS_INVALID_VALUE\)$/);
      expect(await page.locator('[data-testid="notice"]', { hasText: 'historyLimit' }).count()).toBe(0);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'coded-error-en.png') });
      // A failed turn: the host's coded reason around the model server's words, live and after the reload.
      served.model.enqueue(errorReply(500, 'the upstream exploded'));
      await send(page, 'This will fail');
      const outcome = page.getByTestId('turn').last().getByTestId('outcome');
      await expect.poll(() => outcome.textContent(), SLOW).toContain('the upstream exploded');
      expect(await chineseIn(page.getByTestId('conversation'))).toEqual([]);
      // The [错误] notice sent with the turn came in both languages (the page shows its own until the outcome line
      // says the same); terminals and platforms got the host's.
      const notice = received.of('message').find((event) => event.kind === 'error');
      expect(notice?.text).toMatch(/^\[错误\] /);
      const texts = notice?.texts as { 'zh-CN': string; en: string } | undefined;
      expect(texts?.en).toMatch(/^\[Error\] .*the upstream exploded/);
      expect(texts?.['zh-CN']).toBe(notice?.text);
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

  it(
    'shows the notices the host wrote once in the page’s language: a failed delivery, a held-back message, a failed turn',
    async () => {
      const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(await served.freshLink());
      await page.getByTestId('new-chat').waitFor();
      // A reply the group never got: the platform refuses the send (the note is stored with the turn).
      served.model.enqueue(textReply('Lost on the way.'));
      onebot.failNextSend({ status: 'failed', retcode: 1200, data: null });
      askInGroup('are you there?');
      const row = page.locator(`[data-testid="session-row"][data-session-id="${ROOM}"]`);
      await row.waitFor({ timeout: 20_000 });
      await row.locator('.session-open').click();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      const conversation = page.getByTestId('conversation');
      const failed = conversation.locator('[data-testid="notice"][data-tone="delivery-failure"]');
      await expect.poll(() => failed.textContent(), { timeout: 20_000 }).toContain('[Delivery failed]');
      // Inside the cooldown the next one is held back, with a notice to the group (stored outside any turn).
      const calls = served.model.chatBodies().length;
      askInGroup('hello again?');
      const held = conversation.locator('[data-testid="notice"][data-tone="info"]');
      await expect.poll(() => held.count(), SLOW).toBe(1);
      const english = async () => {
        expect(await failed.textContent()).toMatch(/^\[Delivery failed\] The reply above did not reach onebot: /);
        expect(await held.textContent()).toMatch(/^I just answered; ask me again in \d+ s\./);
        expect(await chineseIn(conversation)).toEqual([]);
        // The notice answers the held-back message: shown after it, though it went out first.
        await expect.poll(() => noticeAfterInput(page, 'hello again?'), SLOW).toBe(true);
      };
      await english();
      expect(served.model.chatBodies().length).toBe(calls);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'notices-en.png') });
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await expect.poll(() => held.count(), SLOW).toBe(1);
      await english();
      await context.close();

      // The same host read in zh-CN: the same notices in Chinese, a failed turn's reason and a coded refusal with
      // the code in full-width brackets.
      const chinese = await served.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
      const zh = await chinese.newPage();
      const zhReceived = socketEvents(zh);
      await zh.goto(await served.freshLink());
      await zh.getByTestId('new-chat').waitFor();
      expect(await zh.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      served.model.enqueue(errorReply(500, 'the upstream exploded'));
      await send(zh, '这次会失败');
      const outcome = zh.getByTestId('turn').last().getByTestId('outcome');
      await expect.poll(() => outcome.textContent(), SLOW).toContain('the upstream exploded');
      expect(await outcome.textContent()).toMatch(/[\u4e00-\u9fff]/);
      await send(zh, '/session.set historyLimit many');
      const refused = zh.getByTestId('command').last().getByTestId('command-reply');
      await expect.poll(() => refused.textContent(), SLOW).toContain('historyLimit');
      expect(await refused.locator('.markdown').textContent()).toMatch(/没有做任何改动。$/);
      expect(await refused.getByTestId('error-code').textContent()).toBe('错误代码 AALIS_SETTINGS_INVALID_VALUE');
      // As sent (and copied): the code in full-width brackets right after the sentence.
      const answer = zhReceived.of('command').at(-1)?.entry as { reply?: string } | undefined;
      expect(answer?.reply).toMatch(/没有做任何改动。（AALIS_SETTINGS_INVALID_VALUE）$/);
      // Shown once: under its command, not again as a note.
      expect(await zh.locator('[data-testid="notice"]', { hasText: 'historyLimit' }).count()).toBe(0);
      await zh.screenshot({ path: join(SHOTS, 'coded-error-zh-CN.png') });
      await zh.locator(`[data-testid="session-row"][data-session-id="${ROOM}"] .session-open`).click();
      await zh.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      const zhFailed = zh.locator('[data-testid="notice"][data-tone="delivery-failure"]');
      await expect.poll(() => zhFailed.textContent(), SLOW).toMatch(/^\[投递失败\] 上面那条回复没有送到 onebot：/);
      expect(await zh.locator('[data-testid="notice"][data-tone="info"]').textContent()).toMatch(/^我刚回过话，/);
      expect(await noticeAfterInput(zh, 'hello again?')).toBe(true);
      await zh.screenshot({ path: join(SHOTS, 'notices-zh-CN.png') });
      await chinese.close();

      // On a phone, opened by its address: the same notes, nothing wider than the screen.
      const phone = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        locale: 'zh-CN',
      });
      const small = await phone.newPage();
      await small.goto(await served.freshLink());
      await small.getByTestId('new-chat').waitFor();
      await small.goto(`${served.origin}/?session=${encodeURIComponent(ROOM)}`);
      await small.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      const smallFailed = small.locator('[data-testid="notice"][data-tone="delivery-failure"]');
      await expect.poll(() => smallFailed.textContent(), SLOW).toMatch(/^\[投递失败\] /);
      expect(await small.locator('[data-testid="notice"][data-tone="info"]').textContent()).toMatch(/^我刚回过话，/);
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await small.screenshot({ path: join(SHOTS, 'notices-phone-zh-CN.png') });
      await phone.close();
    },
    TIMEOUT,
  );
});
