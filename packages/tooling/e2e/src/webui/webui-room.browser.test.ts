// The WebUI showing a room: `aalis serve` with the OneBot v11 platform (our own implementation over a real
// WebSocket) and the scripted model server; a group message addressed to her opens a turn whose first words
// (written beside a tool call) were never sent to the group. The owner's page lists the room and marks those
// words 「未发出」/"Not sent", live and after a reload; the room's composer is off (its history is read-only here).

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
const SELF = 10_000;
const GROUP = 555;
let onebot: OneBotImplementation;
let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  onebot = await startOneBotImplementation({ selfId: SELF });
  served = await serveWebui({ extraConfig: `  platform-onebot: { url: ${onebot.url} }\n` });
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
});
