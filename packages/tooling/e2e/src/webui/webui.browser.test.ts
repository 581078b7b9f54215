// The WebUI in Debian Chromium (playwright-core) against a real `aalis serve` and the scripted model server: the
// login link, a streamed reply, a tool card, Stop mid-stream, a message typed during a turn, a setting used by
// the next turn, a reload that restores the conversation, deleting a running session, and the phone layout.

import { createRequire } from 'node:module';
import { errorReply, textReply, toolCallReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeResult {
  violations: { id: string; impact?: string | null; nodes: { target: string[] }[] }[];
}

const TIMEOUT = 90_000;
/** How long a page may take to reach a state on a loaded machine (expect.poll's default is 1 s). */
const SLOW = { timeout: 15_000 };
/** A second WebUI account, not an owner (level 0). */
const GUEST_ACCOUNT = '  session-server:\n    accounts:\n      - { userId: guest, displayName: Guest }\n';
/** A 2×2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
let served: ServedWebui;
/** The session of the first conversation (tool card, stopped turns), reopened by later tests. */
let firstSession = '';
let context: BrowserContext;
let page: Page;

/** A reply that streams `first`, waits, then streams `rest` (long enough to see the stream, or to stop it). */
function slowReply(first: string, rest: string, delayMs: number) {
  return {
    type: 'stream' as const,
    steps: [
      { role: 'assistant' as const },
      { text: first },
      { flush: true as const },
      { delayMs },
      { text: rest },
      { finish: 'stop' },
      { usage: { promptTokens: 30, completionTokens: 5, cachedTokens: 16 } },
      { done: true as const },
    ],
  };
}

/** Opens a new chat (no session exists until its first message) and waits until the page shows it. */
async function newChat(): Promise<void> {
  await page.getByTestId('new-session').click();
  await page.getByTestId('new-chat').waitFor();
  await expect.poll(() => new URL(page.url()).searchParams.get('session')).toBe(null);
}

/** The session the page shows (the address names it once the new chat's first message created it). */
async function currentSession(): Promise<string> {
  let id = '';
  await expect
    .poll(() => {
      id = new URL(page.url()).searchParams.get('session') ?? '';
      return id;
    }, SLOW)
    .not.toBe('');
  await page.locator(`[data-testid="conversation"][data-session-id="${id}"][data-loaded="true"]`).waitFor();
  return id;
}

async function send(text: string): Promise<void> {
  const box = page.getByTestId('composer-text');
  await box.fill(text);
  await box.press('Enter');
}

const lastTurn = () => page.getByTestId('turn').last();

/**
 * A reply that streams `first`, then holds until the test calls `release()` and streams `rest`: the test checks the
 * running turn for as long as it needs, and no longer (a fixed delay either outlasted the checks or, on a loaded
 * machine, ran out before them).
 */
function gatedReply(first: string, rest: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const reply = {
    type: 'stream' as const,
    steps: [
      { role: 'assistant' as const },
      { text: first },
      { until: released },
      { text: rest },
      { finish: 'stop' },
      { usage: { promptTokens: 30, completionTokens: 5, cachedTokens: 16 } },
      { done: true as const },
    ],
  };
  return { reply, release };
}

beforeAll(async () => {
  served = await serveWebui({ extraConfig: GUEST_ACCOUNT });
  context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

describe('the WebUI against aalis serve', () => {
  it(
    'logs in through the one-time link and takes the token out of the address',
    async () => {
      await page.goto(served.link);
      await page.getByTestId('sessions').waitFor();
      expect(page.url()).not.toContain('token=');
      // The link is single-use: a second browser cannot log in with it and is told how to get a fresh one — a
      // sentence as the heading, in the browser's language, the code in small print.
      for (const [locale, heading] of [
        ['en-US', 'This login link was used already'],
        ['zh-CN', '这个登录链接已经用过了'],
      ] as const) {
        const stranger = await served.browser.newContext({ locale });
        const other = await stranger.newPage();
        await other.goto(served.link);
        expect(await other.locator('h1').textContent()).toContain(heading);
        expect(await other.locator('h1').textContent()).not.toContain('AALIS_');
        expect(await other.locator('small code').textContent()).toBe('AALIS_WEBUI_LINK_USED');
        expect(await other.locator('body').textContent()).toContain('aalis webui-link');
        await stranger.close();
      }
    },
    TIMEOUT,
  );

  it(
    'sends with Enter (Shift+Enter adds a line) and shows the reply as it streams',
    async () => {
      // The page lands in a new chat: the composer has the cursor, the model picker and starters beside it.
      await page.getByTestId('new-chat').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-text');
      expect(await page.getByTestId('starter').count()).toBeGreaterThan(2);
      expect(await page.locator('.composer select[data-key="llm"] option').allTextContents()).toEqual(
        expect.arrayContaining(['Default (Test Model)', 'Vision Model (openai/vision-model)']),
      );
      const sessionsBefore = await page.getByTestId('session-row').count();
      const hello = gatedReply('Hello ', 'world, **nice** to meet you.');
      served.model.enqueue(hello.reply);
      const box = page.getByTestId('composer-text');
      await box.fill('first line');
      await box.press('Shift+Enter');
      await box.pressSequentially('second line');
      expect(await box.inputValue()).toBe('first line\nsecond line');
      await box.press('Enter');
      await expect.poll(() => box.inputValue(), SLOW).toBe('');
      const reply = lastTurn().getByTestId('reply');
      await expect.poll(() => reply.textContent(), { timeout: 10_000 }).toContain('Hello');
      // Mid-stream: the rest has not come, the turn runs and Stop is offered.
      expect(await reply.textContent()).not.toContain('world');
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      hello.release();
      await expect.poll(() => reply.textContent(), { timeout: 10_000 }).toContain('world, nice to meet you.');
      expect(await reply.locator('strong').textContent()).toBe('nice');
      await expect.poll(() => page.getByTestId('stop').count(), SLOW).toBe(0);
      expect(await lastTurn().getByTestId('input').textContent()).toContain('first line\nsecond line');
      // The first message created the session (one, not one per opened new chat).
      firstSession = await currentSession();
      expect(await page.getByTestId('session-row').count()).toBe(sessionsBefore + 1);
      const body = served.model.chatBodies().at(-1)!;
      expect(JSON.stringify(body.messages)).toContain('first line\\nsecond line');
    },
    TIMEOUT,
  );

  it(
    'refuses an overlong message before sending it, saying why, and keeps the text',
    async () => {
      const requests = served.model.chatBodies().length;
      const box = page.getByTestId('composer-text');
      const long = 'x'.repeat(32_001);
      await box.fill(long);
      await box.press('Enter');
      const alert = page.getByTestId('composer').locator('[role="alert"]');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('32001 characters, at most 32000');
      expect((await box.inputValue()).length).toBe(long.length);
      expect(served.model.chatBodies()).toHaveLength(requests);
      await box.fill('');
    },
    TIMEOUT,
  );

  it(
    'shows a tool card with its arguments, result and duration, matched to the call',
    async () => {
      served.model.enqueue(
        toolCallReply([{ id: 'call_calc', name: 'calculator', arguments: { expression: '6*7' } }]),
        textReply('The answer is 42.'),
      );
      await send('What is 6*7? Use the calculator.');
      const card = lastTurn().getByTestId('tool-card');
      await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
      await expect
        .poll(() => lastTurn().getByTestId('reply').last().textContent(), SLOW)
        .toContain('The answer is 42.');
      await card.locator('summary').click();
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('calculator');
      expect(text).toContain('"expression": "6*7"');
      expect(text).toContain('42');
      expect(text).toMatch(/\d+ ms/);
      expect(await card.getAttribute('data-call-id')).toBeTruthy();
    },
    TIMEOUT,
  );

  it(
    'stops a turn mid-stream with Stop, and answers the next message',
    async () => {
      served.model.enqueue(slowReply('I will write a very long ', 'essay that never ends.', 30_000));
      await send('Write a long essay.');
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 10_000 })
        .toContain('very long');
      await page.getByRole('button', { name: 'Stop' }).click();
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), { timeout: 15_000 }).toBe('aborted');
      expect(await lastTurn().getByTestId('outcome').textContent()).toContain('Stopped');
      // What was shown stays, marked as stopped and not kept (the history keeps nothing of it: see the reload).
      const stopped = lastTurn().getByTestId('reply');
      expect(await stopped.getAttribute('data-stopped')).toBe('true');
      expect(await stopped.textContent()).toContain('I will write a very long');
      expect(await stopped.getByTestId('stopped').textContent()).toBe('Stopped — not kept');
      expect(await stopped.getByRole('button', { name: 'Copy' }).count()).toBe(1);
      served.model.enqueue(textReply('Back again.'));
      await send('Are you there?');
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 15_000 })
        .toContain('Back again.');
      // The reply's text arrives before the turn's end: the outcome follows it.
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), { timeout: 15_000 }).toBe('replied');
    },
    TIMEOUT,
  );

  it(
    'speaks zh-CN when picked: 「停止」 while a turn runs, 已停止 after',
    async () => {
      await page.getByTestId('locale-header').selectOption('zh-CN');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      served.model.enqueue(slowReply('好的,', '这句不会写完。', 30_000));
      await send('写一段话。');
      await page.getByRole('button', { name: '停止' }).click();
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('aborted');
      expect(await lastTurn().getByTestId('outcome').textContent()).toBe('已停止（你）');
      expect(await lastTurn().getByTestId('stopped').textContent()).toBe('已停止，这段没有保存');
      await page.getByTestId('locale-header').selectOption('en');
      expect(await lastTurn().getByTestId('outcome').textContent()).toBe('Stopped (You)');
    },
    TIMEOUT,
  );

  it(
    'shows a message typed during a turn as joining or queued, then answers it',
    async () => {
      const first = gatedReply('Thinking about ', 'the first question.');
      served.model.enqueue(first.reply, textReply('And the second one.'));
      await send('First question');
      await expect.poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 10_000 }).toContain('Thinking');
      await send('Second question');
      const waiting = page.getByTestId('waiting');
      await waiting.waitFor({ timeout: 10_000 });
      expect(await waiting.textContent()).toContain('Second question');
      expect(await waiting.textContent()).toMatch(/Waiting to join this turn|Queued for the next turn/);
      // Shown once: the waiting entry, not also a 「Sending…」 bubble of the same message.
      await expect
        .poll(() => page.getByTestId('conversation').getByText('Second question', { exact: true }).count(), SLOW)
        .toBe(1);
      first.release();
      await expect.poll(() => page.getByText('And the second one.').count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => waiting.count(), SLOW).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'changes a setting in the panel and the next turn uses it; 深度思考 follows the model',
    async () => {
      const settings = page.getByTestId('settings');
      if ((await settings.count()) === 0) await page.getByTestId('panel-toggle').click();
      const think = settings.locator('select[data-key="think"]');
      await think.waitFor();
      await expect
        .poll(() => think.locator('option').allTextContents())
        .toEqual(expect.arrayContaining(['Low', 'High']));
      await think.selectOption('high');
      const row = settings.locator('[data-testid="setting"][data-key="think"]');
      await expect.poll(() => row.getAttribute('data-source'), SLOW).toBe('session');
      served.model.enqueue(textReply('Thought hard.'));
      await send('Think hard about this.');
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 15_000 })
        .toContain('Thought hard.');
      expect(served.model.chatBodies().at(-1)).toMatchObject({ reasoning_effort: 'high' });
      // The model beside the composer: picking one without thinking levels refetches 深度思考's options.
      const llm = page.locator('.composer select[data-key="llm"]');
      await llm.selectOption('openai/vision-model');
      await expect.poll(() => think.locator('option').allTextContents(), SLOW).not.toContain('Low');
      served.model.enqueue(textReply('Seen.'));
      await send('Which model?');
      await expect.poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 15_000 }).toContain('Seen.');
      expect(served.model.chatBodies().at(-1)).toMatchObject({ model: 'vision-model' });
    },
    TIMEOUT,
  );

  it(
    'sends an image to a model that accepts images and shows it; another file is taken for the file reader',
    async () => {
      // The session's model is vision-model since the previous test.
      const file = page.getByTestId('composer-file');
      await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
      expect(await page.getByTestId('file-chip').textContent()).toContain('notes.txt');
      expect(await page.getByTestId('attachment-notes').textContent()).toBe(
        'The file reader will read notes.txt for the model.',
      );
      await page.getByRole('button', { name: 'Remove the attachment notes.txt' }).click();
      await file.setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: PNG });
      // A model that sees gets the image as it is: nothing to say.
      expect(await page.getByTestId('attachment-notes').textContent()).toBe('');
      await page.locator('.previews img').waitFor();
      served.model.enqueue(textReply('A red square.'));
      await send('What is in this picture?');
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 15_000 })
        .toContain('A red square.');
      expect(JSON.stringify(served.model.chatBodies().at(-1)!.messages)).toContain('data:image/png;base64,');
      expect(await page.locator('.previews').count()).toBe(0);
      const shown = lastTurn().getByTestId('input').locator('img');
      await expect
        .poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBe(2);
    },
    TIMEOUT,
  );

  it(
    'restores the conversation after a reload: replies, the tool card, the stopped turn',
    async () => {
      const before = await page.getByTestId('turn').count();
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await expect.poll(() => page.getByTestId('turn').count(), SLOW).toBe(before);
      expect(await page.locator('[data-testid="tool-card"][data-state="done"]').count()).toBe(1);
      expect(await page.locator('[data-testid="turn"][data-outcome="aborted"]').count()).toBe(2); // English and zh-CN
      // Stopped turns read as stopped; what streamed before Stop was not kept.
      expect(await page.locator('[data-testid="turn"][data-outcome="aborted"] [data-testid="reply"]').count()).toBe(0);
      expect(await page.getByText('I will write a very long').count()).toBe(0);
      expect(await page.getByText('The answer is 42.').count()).toBe(1);
      expect(await page.getByText('Back again.').count()).toBe(1);
      await page.getByTestId('tab-usage').click();
      // The subscribe's token:request snapshot, drawn from its parts.
      await expect.poll(() => page.getByTestId('usage-row').count(), { timeout: 10_000 }).toBeGreaterThan(1);
      expect(await page.getByTestId('usage-total').textContent()).toMatch(/\/ context 128,000/); // vision-model: the default window
      expect(await page.getByTestId('usage-panel').textContent()).toContain('History');
      await page.getByTestId('tab-settings').click();
    },
    TIMEOUT,
  );

  it(
    'passes an axe accessibility check in light and dark, and its delete dialog works from the keyboard',
    async () => {
      // axe is injected as a script, which the server's Content-Security-Policy rightly refuses: this context
      // bypasses it.
      const auditContext = await served.browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true });
      const page = await auditContext.newPage();
      await page.goto(await served.freshLink());
      await page.getByTestId('new-chat').waitFor();
      await page.goto(`${served.origin}/?session=${encodeURIComponent(firstSession)}`);
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await page.getByTestId('tool-card').first().waitFor();
      await page.addScriptTag({ path: AXE_PATH });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResult> } }).axe;
          const result = await axe.run(document);
          return result.violations
            .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
            .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        expect(violations, colorScheme).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      const remove = page.getByTestId('delete-session').first();
      await remove.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor();
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count(), SLOW).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('delete-session');
      await auditContext.close();
    },
    TIMEOUT,
  );

  it(
    'gives the owner the admin area: plugin states, the default model used by the next turn, live logs',
    async () => {
      await page.getByTestId('open-admin').click();
      const plugins = page.getByTestId('plugins');
      await plugins.locator('tbody tr').first().waitFor();
      expect(await plugins.locator('tr[data-state="active"]', { hasText: '@aalis/plugin-agent' }).count()).toBe(1);
      await page.getByTestId('default-model').selectOption('openai/vision-model');
      await expect.poll(() => page.getByTestId('default-model-now').textContent(), SLOW).toContain('Vision Model');
      await page.getByRole('button', { name: 'Back to the conversation' }).click();
      await newChat();
      served.model.enqueue(textReply('Default model here.'));
      await send('Which model now?');
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 15_000 })
        .toContain('Default model here.');
      expect(served.model.chatBodies().at(-1)).toMatchObject({ model: 'vision-model' });
      await page.getByTestId('open-admin').click();
      await expect.poll(() => page.getByTestId('logs').locator('.log').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.getByTestId('default-model').selectOption('');
      await expect.poll(() => page.getByTestId('default-model-now').textContent(), SLOW).toContain('Test Model');
      await page.getByRole('button', { name: 'Back to the conversation' }).click();
    },
    TIMEOUT,
  );

  it(
    'shows a non-owner only their own sessions, no admin area, and owner fields read-only',
    async () => {
      const guestContext = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
      const guest = await guestContext.newPage();
      await guest.goto(await served.freshLink('guest'));
      await guest.getByTestId('sessions').waitFor();
      expect(await guest.getByTestId('session-row').count()).toBe(0);
      expect(await guest.getByTestId('open-admin').count()).toBe(0);
      await guest.getByTestId('new-chat').waitFor();
      served.model.enqueue(textReply('Hello, guest.'));
      await guest.getByTestId('composer-text').fill('Hello from a guest');
      await guest.getByTestId('composer-text').press('Enter');
      await expect.poll(() => guest.getByText('Hello, guest.').count(), SLOW).toBe(1);
      expect(await guest.getByTestId('session-row').count()).toBe(1);
      const settings = guest.getByTestId('settings');
      await settings.locator('summary', { hasText: 'Advanced' }).click();
      const row = settings.locator('[data-testid="setting"][data-key="historyLimit"]');
      await row.waitFor();
      expect(await row.locator('input').isDisabled()).toBe(true);
      expect(await row.textContent()).toContain('Owner only');
      await guestContext.close();
    },
    TIMEOUT,
  );

  it(
    'deletes a running session after a confirmation; its turn stops',
    async () => {
      await newChat();
      served.model.enqueue(slowReply('This will be ', 'cut short.', 30_000));
      await send('Start something long.');
      const sessionId = await currentSession();
      await expect
        .poll(() => lastTurn().getByTestId('reply').textContent(), { timeout: 10_000 })
        .toContain('This will be');
      const row = page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`);
      await row.getByTestId('delete-session').click();
      const dialog = page.getByTestId('confirm-dialog');
      expect(await dialog.textContent()).toContain('that turn stops at once');
      await dialog.getByTestId('confirm').click();
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
      const request = served.model.requests.at(-1)!;
      await request.closed;
      expect(request.abortedByClient).toBe(true);
      await page.reload();
      await page.getByTestId('sessions').waitFor();
      expect(await page.locator(`[data-session-id="${sessionId}"]`).count()).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'shows a failed turn once, with its reason in the outcome line, and the message that opened it in its own colour',
    async () => {
      await newChat();
      served.model.enqueue(errorReply(500, 'the upstream exploded'));
      await send('This turn will fail');
      const outcome = lastTurn().getByTestId('outcome');
      await expect.poll(() => outcome.textContent(), { timeout: 10_000 }).toContain('the upstream exploded');
      // Once: not also as a 「[错误] …」 notice above the outcome (a reload shows only the outcome).
      await expect
        .poll(
          () =>
            page
              .getByTestId('conversation')
              .getByText(/the upstream exploded/)
              .count(),
          SLOW,
        )
        .toBe(1);
      const colour = (selector: string) =>
        lastTurn()
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).color);
      expect(await colour('[data-testid="input"] .bubble-text')).not.toBe(await colour('[data-testid="outcome"]'));
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      expect(await lastTurn().getByTestId('outcome').textContent()).toContain('the upstream exploded');
      expect(
        await page
          .getByTestId('conversation')
          .getByText(/the upstream exploded/)
          .count(),
      ).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'logs out: the login page says how to get a link, and a reload does not log in again',
    async () => {
      const other = await served.browser.newContext();
      const tab = await other.newPage();
      await tab.goto(await served.freshLink());
      await tab.getByTestId('sessions').waitFor();
      await tab.getByTestId('logout').click();
      await tab.getByTestId('login').waitFor(SLOW);
      expect(await tab.getByTestId('login').textContent()).toContain('aalis webui-link');
      await tab.reload();
      await tab.getByTestId('login').waitFor(SLOW);
      expect(await tab.getByTestId('sessions').count()).toBe(0);
      await other.close();
    },
    TIMEOUT,
  );

  it(
    'is usable 390 px wide: no sideways scrolling, the list and the panel as drawers',
    async () => {
      const phone = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
      });
      const small = await phone.newPage();
      await small.goto(await served.freshLink());
      await small.getByTestId('composer-text').waitFor();
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await small.getByTestId('sessions').isVisible()).toBe(false);
      // A new chat on a phone too: the cursor in the composer, the starters above it.
      expect(await small.evaluate(() => document.activeElement?.id)).toBe('composer-text');
      expect(await small.getByTestId('starter').first().isVisible()).toBe(true);
      await small.getByTestId('menu').click();
      await expect.poll(() => small.getByTestId('sessions').isVisible(), SLOW).toBe(true);
      await small.keyboard.press('Escape');
      await expect.poll(() => small.getByTestId('sessions').isVisible(), SLOW).toBe(false);
      await small.goto(`${served.origin}/?session=${encodeURIComponent(firstSession)}`);
      await small.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      // The header keeps only what fits: nothing in it overlaps another control or leaves the screen; the other
      // pages are in the drawer, one tap each.
      const boxes = await small.locator('header.topbar').evaluate((header) =>
        [...header.querySelectorAll('button, select, a:not(.skip-link)')]
          .map((element) => element.getBoundingClientRect())
          .filter((box) => box.width > 0)
          .map((box) => ({ left: box.left, right: box.right, top: box.top, bottom: box.bottom })),
      );
      expect(boxes.length).toBeGreaterThanOrEqual(2);
      for (const [index, box] of boxes.entries()) {
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(390);
        for (const other of boxes.slice(index + 1)) {
          const apart =
            box.right <= other.left || other.right <= box.left || box.bottom <= other.top || other.bottom <= box.top;
          expect(apart, JSON.stringify({ box, other })).toBe(true);
        }
      }
      expect(await small.locator('header.topbar [data-testid="open-memory"]').count()).toBe(0);
      await small.getByTestId('menu').click();
      await small.getByTestId('open-memory').click();
      await small.getByTestId('memory').waitFor();
      await expect.poll(() => small.getByTestId('sessions').isVisible(), SLOW).toBe(false);
      await small.getByTestId('memory-back').click();
      await small.getByTestId('menu').click();
      await small.getByTestId('open-admin').click();
      await small.getByTestId('plugins').waitFor();
      await small.getByRole('button', { name: 'Back to the conversation' }).click();
      await small.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      await small.getByTestId('panel-toggle').click();
      const panel = await small.getByTestId('side-panel').boundingBox();
      expect(panel!.x).toBeGreaterThanOrEqual(0);
      expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
      await small.keyboard.press('Escape');
      await expect.poll(() => small.getByTestId('side-panel').count(), SLOW).toBe(0);
      const composer = await small.getByTestId('composer').boundingBox();
      expect(composer!.x).toBeGreaterThanOrEqual(0);
      expect(composer!.x + composer!.width).toBeLessThanOrEqual(390);
      await phone.close();
    },
    TIMEOUT,
  );

  it(
    'lays itself out again when the window crosses the phone width: the desktop panel becomes a closed drawer',
    async () => {
      // A second tab of the owner's browser (logged in by its cookie): a window of its own to resize.
      const tab = await context.newPage();
      await tab.goto(`${served.origin}/?session=${encodeURIComponent(firstSession)}`);
      await tab.getByTestId('side-panel').waitFor();
      await tab.setViewportSize({ width: 390, height: 844 });
      // Over the conversation only when asked for, as on a phone from the start.
      await expect.poll(() => tab.getByTestId('side-panel').count(), SLOW).toBe(0);
      await tab.getByTestId('panel-toggle').click();
      await expect.poll(() => tab.getByTestId('side-panel').count(), SLOW).toBe(1);
      await tab.keyboard.press('Escape');
      await expect.poll(() => tab.getByTestId('side-panel').count(), SLOW).toBe(0);
      await tab.setViewportSize({ width: 1280, height: 860 });
      await expect.poll(() => tab.getByTestId('side-panel').count(), SLOW).toBe(1);
      await tab.close();
    },
    TIMEOUT,
  );
});
