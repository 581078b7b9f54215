// The WebUI showing a room: `aalis serve` with the OneBot v11 platform (our own implementation over a real
// WebSocket) and the scripted model server; a group message addressed to her opens a turn whose first words
// (written beside a tool call) were never sent to the group. The owner's page lists the room and marks those
// words 「未发出」/"Not sent", live and after a reload; the room's composer is off (its history is read-only here).
// Then the owner sets the group's flow rules (cooldowns, rate limit, quiet hours) in the settings panel on the venue
// layer: stored (a reload shows them), obeyed by the group (a second message inside the cooldown is held back with
// a notice, no model call), and a bad clock refused with a clear error that changes nothing; in English and 中文.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
  type OneBotImplementation,
  onebotGroupMessage,
  startOneBotImplementation,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
const SELF = 10_000;
const GROUP = 555;
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
let onebot: OneBotImplementation;
let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  onebot = await startOneBotImplementation({ selfId: SELF });
  served = await serveWebui({ extraConfig: `  platform-onebot: { url: ${onebot.url} }\n  flow-control: {}\n` });
  await onebot.connected();
  context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  await page.goto(served.link);
  await page.getByTestId('sessions').waitFor();
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
  await onebot?.close();
}, TIMEOUT);

describe('a room in the WebUI', () => {
  it(
    'lists the room and marks the words that were never sent to it as 未发出',
    async () => {
      served.model.enqueue(
        toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], {
          text: 'Let me compute. ',
        }),
        textReply('It is 42.'),
      );
      onebot.push(
        onebotGroupMessage({
          groupId: GROUP,
          userId: 42,
          card: 'Boss',
          message: [
            { type: 'at', data: { qq: String(SELF) } },
            { type: 'text', data: { text: ' what is 6*7?' } },
          ],
        }),
      );
      const row = page.getByTestId('session-row').filter({ hasText: 'Room' });
      await row.waitFor({ timeout: 20_000 });
      await row.locator('.session-open').click();
      const turn = page.getByTestId('turn').last();
      await expect.poll(() => turn.getAttribute('data-outcome'), { timeout: 20_000 }).toBe('replied');
      const check = async () => {
        const replies = turn.getByTestId('reply');
        expect(await replies.count()).toBe(2);
        expect(await replies.first().textContent()).toContain('Let me compute.');
        expect(await replies.first().getByTestId('unsent').textContent()).toBe('Not sent');
        expect(await replies.last().getByTestId('unsent').count()).toBe(0);
        expect(await turn.getByTestId('input').textContent()).toContain('what is 6*7?');
      };
      await expect.poll(async () => (await turn.getByTestId('unsent').count()) === 1, { timeout: 10_000 }).toBe(true);
      await check();
      expect(onebot.sent.map((sent) => JSON.stringify(sent.message)).join()).not.toContain('Let me compute.');
      // The room's history is read-only here: people talk to her in the room.
      expect(await page.getByTestId('composer-text').isDisabled()).toBe(true);
      expect(await page.getByTestId('send').isDisabled()).toBe(true);
      // Its settings can be written for this session, its venue or its whole platform.
      const layer = page.getByTestId('write-layer');
      await layer.waitFor();
      expect(
        await layer.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      ).toEqual(['session', 'venue', 'platform']);
      await layer.selectOption('platform');
      expect(await layer.inputValue()).toBe('platform');
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await check();
    },
    TIMEOUT,
  );

  it(
    "sets the group's flow rules in the settings panel: stored, obeyed, a bad clock refused (English and 中文)",
    async () => {
      const LABELS = {
        en: {
          roomCooldown: 'Cooldown per chat (seconds, 0 = off)',
          personCooldown: 'Cooldown per person (seconds, 0 = off)',
          roomPerMinute: 'Rate limit per chat per minute (0 = none)',
          quietFrom: 'Quiet hours from (HH:MM, empty = none)',
          quietTo: 'Quiet hours to (HH:MM)',
          advanced: 'Advanced',
        },
        'zh-CN': {
          roomCooldown: '冷却：会话（秒，0 为关闭）',
          personCooldown: '冷却：每人（秒，0 为关闭）',
          roomPerMinute: '限速：会话每分钟（0 为不限）',
          quietFrom: '安静时段开始（时：分，留空为没有）',
          quietTo: '安静时段结束（时：分）',
          advanced: '高级',
        },
      } as const;
      type Locale = keyof typeof LABELS;
      const KEYS = {
        roomCooldown: 'flowRoomCooldownSeconds',
        personCooldown: 'flowPersonCooldownSeconds',
        roomPerMinute: 'flowRoomPerMinute',
        quietFrom: 'flowQuietFrom',
        quietTo: 'flowQuietTo',
      } as const;
      type Field = keyof typeof KEYS;
      const row = (key: string) => page.locator(`[data-testid="setting"][data-key="${key}"]`);
      /** The settings panel of the open room, its advanced part unfolded. */
      const openSettings = async (locale: Locale) => {
        await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
        if ((await page.getByTestId('side-panel').count()) === 0) await page.getByTestId('panel-toggle').click();
        await page.getByTestId('tab-settings').click();
        const advanced = page.locator('details.settings-group').filter({
          has: page.locator('summary', { hasText: LABELS[locale].advanced }),
        });
        if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
        await row('flowQuietTo').waitFor();
      };
      /**
       * Types into a field and commits it (the panel saves on change); unless it is to be refused, waits until the
       * field shows the value stored on the venue layer.
       */
      const write = async (locale: Locale, field: Field, value: string, refused = false) => {
        const input = page.getByLabel(LABELS[locale][field], { exact: true });
        await input.fill(value);
        await input.press('Tab');
        if (refused) return;
        await stored(field, value);
      };
      const stored = async (field: Field, value: string) => {
        const input = row(KEYS[field]).locator('input');
        await expect
          .poll(
            async () => [
              await input.isDisabled(),
              await input.inputValue(),
              await row(KEYS[field]).getAttribute('data-source'),
            ],
            SLOW,
          )
          .toEqual([false, value, 'venue']);
      };
      const values = () => Promise.all(Object.values(KEYS).map((key) => row(key).locator('input').inputValue()));

      // The group's own layer: every session of group 555 follows it.
      await openSettings('en');
      await page.getByTestId('write-layer').selectOption('venue');
      await write('en', 'personCooldown', '10');

      // The owner starts typing the room's cooldown; meanwhile the settings change elsewhere (another tab raises the
      // person's cooldown to 12 s) and the panel is redrawn with them: what is typed stays.
      const typing = page.getByLabel(LABELS.en.roomCooldown, { exact: true });
      await typing.fill('30');
      const other = await context.newPage();
      try {
        await other.goto(page.url());
        // The panel shows once the conversation has loaded: asked before that, it was not there yet, and the toggle
        // clicked to open it closed it (a run on a loaded machine timed out waiting for the layer picker).
        await other.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
        const panel = other.getByTestId('side-panel');
        if ((await panel.count()) === 0) await other.getByTestId('panel-toggle').click();
        await other.getByTestId('write-layer').selectOption('venue');
        await other.locator('details.settings-group summary', { hasText: LABELS.en.advanced }).click();
        const person = other.locator('[data-testid="setting"][data-key="flowPersonCooldownSeconds"] input');
        await person.fill('12');
        await person.press('Tab');
        await expect.poll(() => row(KEYS.personCooldown).locator('input').inputValue(), SLOW).toBe('12');
      } finally {
        await other.close();
      }
      expect(await typing.inputValue()).toBe('30');

      // The group obeys the person's cooldown: someone who has not spoken yet is answered, their second message inside
      // it is held back (a notice, no model call).
      const calls = served.model.chatBodies().length;
      const sent = onebot.sent.length;
      served.model.enqueue(textReply('Noted.'));
      const ask = (text: string) =>
        onebot.push(
          onebotGroupMessage({
            groupId: GROUP,
            userId: 77,
            card: 'Ada',
            message: [
              { type: 'at', data: { qq: String(SELF) } },
              { type: 'text', data: { text } },
            ],
          }),
        );
      ask(' first');
      await expect.poll(() => onebot.sent.length, SLOW).toBe(sent + 1);
      ask(' second');
      await expect.poll(() => onebot.sent.length, SLOW).toBe(sent + 2);
      expect(JSON.stringify(onebot.sent.at(-1)?.message)).toContain('I just answered; ask me again in');
      expect(served.model.chatBodies().length).toBe(calls + 1);
      await expect
        .poll(() => page.getByTestId('conversation').textContent(), SLOW)
        .toContain('I just answered; ask me again in');
      expect(await typing.inputValue()).toBe('30');
      await typing.press('Tab');
      await stored('roomCooldown', '30');

      await write('en', 'roomPerMinute', '6');
      await write('en', 'quietFrom', '23:00');
      await write('en', 'quietTo', '07:00');
      // A clock that does not exist: refused beside the field, in words that say what to write.
      await write('en', 'quietFrom', '25:00', true);
      await expect
        .poll(() => row('flowQuietFrom').getByRole('alert').textContent(), SLOW)
        .toContain("'HH:MM' (24-hour, e.g. 23:00) or empty");
      await row('flowQuietFrom').scrollIntoViewIfNeeded();
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'room-flow-settings-en.png') });

      // Stored: a reload shows what was saved, the refused clock changed nothing.
      await page.reload();
      await openSettings('en');
      expect(await values()).toEqual(['30', '12', '6', '23:00', '07:00']);
      expect(await row('flowQuietFrom').getAttribute('data-source')).toBe('venue');

      // 中文: the same fields in Chinese, a bad clock refused in Chinese, a good one stored.
      await page.evaluate(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      await page.reload();
      await openSettings('zh-CN');
      expect(await values()).toEqual(['30', '12', '6', '23:00', '07:00']);
      await page.getByTestId('write-layer').selectOption('venue');
      await write('zh-CN', 'quietTo', '7:60', true);
      await expect
        .poll(() => row('flowQuietTo').getByRole('alert').textContent(), SLOW)
        .toContain('「时：分」（24 小时制，如 23:00）或空');
      await row('flowQuietTo').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'room-flow-settings-zh-CN.png') });
      await write('zh-CN', 'quietTo', '06:30');
      await expect.poll(() => row('flowQuietTo').getByRole('alert').count(), SLOW).toBe(0);
      await page.reload();
      await openSettings('zh-CN');
      expect(await values()).toEqual(['30', '12', '6', '23:00', '06:30']);
    },
    TIMEOUT,
  );
});
