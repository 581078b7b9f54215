// A long history in Debian Chromium against a real `aalis serve` whose session server sends only the latest two
// timeline entries (`historyEntries: 2`): the page says that earlier ones are not shown.
import { textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
let served: ServedWebui;

beforeAll(async () => {
  served = await serveWebui({ extraConfig: '  session-server:\n    historyEntries: 2\n' });
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
});
