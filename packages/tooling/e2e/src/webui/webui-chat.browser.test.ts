// The chat page's message actions, commands and keys in Debian Chromium against a real `aalis serve` and the
// scripted model server: Copy / Copy code (the clipboard read back), Edit with the earlier version behind
// 「‹ 1/2 ›」 (and another tab seeing it live), Regenerate, Retry, a command that settles at once with its Markdown
// answer and survives a reload, Esc / ↑ / Ctrl+K, "Jump to latest" — in English and 中文, desktop and phone widths.
// One browser and one server for the file.

import { errorReply, textReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
/** A 2×2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const SLOW = { timeout: 15_000 };

let served: ServedWebui;
let context: BrowserContext;
let page: Page;

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
      { done: true as const },
    ],
  };
}

async function send(on: Page, text: string): Promise<void> {
  const box = on.getByTestId('composer-text');
  await box.fill(text);
  await box.press('Enter');
}

async function newChat(on: Page): Promise<void> {
  await on.getByTestId('new-session').click();
  await on.getByTestId('new-chat').waitFor();
}

const turns = (on: Page = page) => on.getByTestId('conversation').getByTestId('turn');
const lastTurn = (on: Page = page) => turns(on).last();
const modelSaw = () => JSON.stringify(served.model.chatBodies().at(-1)?.messages ?? []);

beforeAll(async () => {
  served = await serveWebui();
  context = await served.browser.newContext({
    viewport: { width: 1280, height: 860 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  await page.goto(served.link);
  await page.getByTestId('new-chat').waitFor();
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

describe('message actions', () => {
  it(
    'copies a message and a code block with Copy and Copy code',
    async () => {
      served.model.enqueue(textReply('Run this:\n\n```bash\necho hello\n```\n\nThen check the output.'));
      await send(page, 'How do I print hello?');
      const reply = lastTurn().getByTestId('reply');
      await expect.poll(() => reply.textContent(), SLOW).toContain('Then check the output.');
      await reply.getByRole('button', { name: 'Copy code' }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), SLOW).toBe('echo hello\n');
      await reply.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()), SLOW)
        .toBe('Run this:\n\n```bash\necho hello\n```\n\nThen check the output.');
      await lastTurn().getByTestId('input').getByRole('button', { name: 'Copy', exact: true }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), SLOW).toBe('How do I print hello?');
      // Her last reply offers Regenerate; the person's message offers Edit.
      expect(await lastTurn().getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
      expect(await lastTurn().getByTestId('input').getByRole('button', { name: 'Edit' }).count()).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'edits a message: the new text runs as a new turn, the earlier version stays behind ‹ 1/2 ›, another tab sees it',
    async () => {
      const sessionId = new URL(page.url()).searchParams.get('session')!;
      // Another tab of the same browser (logged in by its cookie).
      const other = await context.newPage();
      await other.goto(`${served.origin}/?session=${encodeURIComponent(sessionId)}`);
      await expect.poll(() => lastTurn(other).textContent(), SLOW).toContain('Then check the output.');

      await lastTurn().getByTestId('input').getByRole('button', { name: 'Edit' }).click();
      const editor = page.getByTestId('edit-text');
      expect(await editor.inputValue()).toBe('How do I print hello?');
      served.model.enqueue(textReply('Use printf: `printf hello`.'));
      await editor.fill('How do I print hello without a newline?');
      await page.getByTestId('edit-save').click();
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('printf hello');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('replied');
      // The model saw the edited text and not the replaced turn.
      expect(modelSaw()).toContain('without a newline');
      expect(modelSaw()).not.toContain('echo hello');
      expect(await turns().count()).toBe(1);
      const position = lastTurn().getByTestId('version-position');
      expect(await position.textContent()).toBe('2/2');
      await lastTurn().getByRole('button', { name: 'Previous version' }).click();
      await expect.poll(() => page.getByTestId('version-position').textContent()).toBe('1/2');
      expect(await lastTurn().textContent()).toContain('Then check the output.');
      expect(await lastTurn().getAttribute('data-superseded')).toBe('edit');
      // The replaced version offers no Edit or Regenerate, only Copy.
      expect(await lastTurn().getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Next version' }).click();
      await expect.poll(() => page.getByTestId('version-position').textContent()).toBe('2/2');

      // The other tab: the change arrived live, with the same switch.
      await expect.poll(() => lastTurn(other).textContent(), SLOW).toContain('printf hello');
      expect(await other.getByTestId('version-position').textContent()).toBe('2/2');
      // After a reload: the same.
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      expect(await turns().count()).toBe(1);
      expect(await page.getByTestId('version-position').textContent()).toBe('2/2');
      await other.close();
    },
    TIMEOUT,
  );

  it(
    'regenerates her last reply with the same message',
    async () => {
      served.model.enqueue(textReply('Or use echo -n hello.'));
      await lastTurn().getByRole('button', { name: 'Regenerate' }).click();
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('echo -n hello');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('replied');
      expect(modelSaw()).toContain('without a newline');
      expect(modelSaw()).not.toContain('printf hello');
      expect(await page.getByTestId('version-position').textContent()).toBe('3/3');
    },
    TIMEOUT,
  );

  it(
    'retries a failed turn',
    async () => {
      await newChat(page);
      served.model.enqueue(errorReply(500, 'the upstream hiccuped'));
      await send(page, 'Tell me a joke');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('error');
      expect(await lastTurn().getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
      served.model.enqueue(textReply('Why did the function return? It had closure.'));
      await lastTurn().getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('closure');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('replied');
      expect(modelSaw()).toContain('Tell me a joke');
      expect(await page.getByTestId('version-position').textContent()).toBe('2/2');
    },
    TIMEOUT,
  );
});

describe('commands in the page', () => {
  it(
    'settles a command at once and shows its answer as Markdown under it; both survive a reload',
    async () => {
      await send(page, '/help');
      const command = page.getByTestId('command').last();
      await command.getByTestId('command-reply').waitFor(SLOW);
      // No 「Sending…」 left anywhere, and the answer keeps its lines (one command a line).
      expect(await page.getByTestId('conversation').getByText('Sending…').count()).toBe(0);
      // The answer is one command a line: its line breaks are kept (<br> in the rendered Markdown).
      expect(await command.getByTestId('command-reply').locator('.markdown br').count()).toBeGreaterThan(1);
      expect(await command.getByTestId('input').textContent()).toContain('/help');
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      const again = page.getByTestId('command').last();
      expect(await again.getByTestId('input').textContent()).toContain('/help');
      expect(await again.getByTestId('command-reply').locator('.markdown br').count()).toBeGreaterThan(1);
      // The model never saw it.
      expect(modelSaw()).not.toContain('/help');
    },
    TIMEOUT,
  );
});

describe('keys and scrolling', () => {
  it(
    'Esc stops a running reply, ↑ in the empty composer edits the last message, Ctrl+K goes to the search',
    async () => {
      served.model.enqueue(slowReply('A long story begins ', 'and never ends.', 30_000));
      await send(page, 'Tell me a long story');
      await expect.poll(() => lastTurn().getByTestId('reply').textContent(), SLOW).toContain('A long story');
      await page.keyboard.press('Escape');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('aborted');
      expect(await lastTurn().getByTestId('reply').textContent()).toContain('A long story begins');

      await page.getByTestId('composer-text').focus();
      await page.keyboard.press('ArrowUp');
      const editor = page.getByTestId('edit-text');
      await editor.waitFor();
      expect(await editor.inputValue()).toBe('Tell me a long story');
      await page.keyboard.press('Escape');
      await expect.poll(() => editor.count()).toBe(0);

      await page.keyboard.press('Control+k');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('session-search');
    },
    TIMEOUT,
  );

  it(
    'offers "Jump to latest" when a reply arrives while the reader is scrolled up',
    async () => {
      await newChat(page);
      const long = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of a long answer.`).join('\n\n');
      served.model.enqueue(textReply(long));
      await send(page, 'Write sixty lines');
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('Line 60 of');
      await expect.poll(() => lastTurn().getAttribute('data-outcome'), SLOW).toBe('replied');
      const conversation = page.getByTestId('conversation');
      await conversation.evaluate((element) => element.scrollTo({ top: 0 }));
      served.model.enqueue(textReply('A short one.'));
      await send(page, 'And one more');
      const jump = page.getByRole('button', { name: 'Jump to latest' });
      await jump.waitFor(SLOW);
      // Nothing pulled the reader down.
      expect(await conversation.evaluate((element) => element.scrollTop)).toBeLessThan(50);
      await jump.click();
      // The jump scrolls smoothly: on a loaded machine it takes longer than the poll's default second.
      await expect
        .poll(
          () => conversation.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
          SLOW,
        )
        .toBeLessThan(50);
      await expect.poll(() => jump.count(), SLOW).toBe(0);
    },
    TIMEOUT,
  );
});

describe('sessions', () => {
  it(
    'renames (menu and double-click), pins, archives and finds a session by its messages; exports it',
    async () => {
      await newChat(page);
      served.model.enqueue(textReply('Remember to drink water at three.'));
      await send(page, '提醒我下午三点喝水');
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('drink water');
      const sessionId = new URL(page.url()).searchParams.get('session')!;
      const row = page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`);
      // Rename through the menu.
      await row.getByTestId('session-more').click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      await row.getByTestId('session-rename-input').fill('Water plan');
      await row.getByTestId('session-rename-input').press('Enter');
      await expect.poll(() => row.locator('.session-title').textContent(), SLOW).toBe('Water plan');
      // And by double-click.
      await row.locator('.session-open').dblclick();
      await row.getByTestId('session-rename-input').fill('Hydration');
      await row.getByTestId('session-rename-input').press('Enter');
      await expect.poll(() => row.locator('.session-title').textContent(), SLOW).toBe('Hydration');
      // Pinned: first in the list.
      await row.getByTestId('session-more').click();
      await page.getByRole('menuitem', { name: 'Pin' }).click();
      await expect
        .poll(() => page.getByTestId('session-row').first().getAttribute('data-session-id'), SLOW)
        .toBe(sessionId);
      // Exported as Markdown and JSON.
      await row.getByTestId('session-more').click();
      const [markdown] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
      ]);
      expect(markdown.suggestedFilename()).toMatch(/\.md$/);
      const markdownText = await (await markdown.createReadStream()).toArray();
      expect(Buffer.concat(markdownText).toString('utf8')).toContain('提醒我下午三点喝水');
      await row.getByTestId('session-more').click();
      const [json] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Export as JSON' }).click(),
      ]);
      const exported = JSON.parse(Buffer.concat(await (await json.createReadStream()).toArray()).toString('utf8'));
      expect(exported).toMatchObject({ format: 'aalis-session', version: 1 });
      // Archived: out of the list, still found by a search of its content; the hit opens it at the message.
      await row.getByTestId('session-more').click();
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      await expect.poll(() => row.count(), SLOW).toBe(0);
      await newChat(page);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('喝水');
      const hit = page.getByTestId('search-hit').filter({ hasText: 'Hydration' }).first();
      await hit.waitFor(SLOW);
      expect(await hit.locator('mark').first().textContent()).toBe('喝水');
      await hit.click();
      await expect.poll(() => new URL(page.url()).searchParams.get('session'), SLOW).toBe(sessionId);
      await page.locator('[data-testid="conversation"] .found').waitFor(SLOW);
      expect(await page.locator('[data-testid="conversation"] .found').textContent()).toContain('喝水');
    },
    TIMEOUT,
  );

  it(
    'offers the commands this account may run when / is typed, filtered as you type',
    async () => {
      const box = page.getByTestId('composer-text');
      await box.fill('');
      await box.pressSequentially('/');
      const palette = page.getByTestId('command-palette');
      await palette.waitFor(SLOW);
      expect(await palette.getByTestId('command-option').count()).toBeGreaterThan(2);
      expect(await palette.textContent()).toContain('/help');
      await box.pressSequentially('rem');
      await expect.poll(() => palette.getByTestId('command-option').first().getAttribute('data-name')).toBe('remind');
      expect(await palette.getByTestId('command-option').first().textContent()).toMatch(/\/remind .+/);
      await box.press('Tab');
      expect(await box.inputValue()).toBe('/remind ');
      await box.fill('');
    },
    TIMEOUT,
  );
});

describe('attachments', () => {
  it(
    'says before sending what happens to an image the model cannot see and to a file; takes drops and pastes',
    async () => {
      await newChat(page);
      // Test Model (the default) cannot see; Vision Model can, so it describes the image.
      await page.getByTestId('composer-file').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: PNG });
      const notes = page.getByTestId('attachment-notes');
      expect(await notes.textContent()).toBe(
        'Test Model cannot see images: Vision Model will describe them in words first, and Test Model gets the description.',
      );
      // Picking the model that sees: nothing to say any more.
      await page.locator('.composer select[data-key="llm"]').selectOption('openai/vision-model');
      await expect.poll(() => notes.textContent()).toBe('');
      // A file dropped on the composer, another pasted into it.
      await page.getByTestId('composer').evaluate((composer) => {
        const data = new DataTransfer();
        data.items.add(new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
        composer.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        composer.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      await page.getByTestId('composer-text').evaluate((box) => {
        const data = new DataTransfer();
        data.items.add(new File(['# Plan'], 'plan.md', { type: 'text/markdown' }));
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
      await expect.poll(() => page.getByTestId('file-chip').count()).toBe(2);
      expect(await notes.textContent()).toBe('The file reader will read table.csv, plan.md for the model.');
      served.model.enqueue(textReply('I see a red square and two files.'));
      await send(page, 'What did I send?');
      await expect.poll(() => lastTurn().textContent(), SLOW).toContain('two files');
      expect(served.model.chatBodies().at(-1)).toMatchObject({ model: 'vision-model' });
      expect(modelSaw()).toContain('data:image/png;base64,');
      expect(await page.getByTestId('file-chip').count()).toBe(0);
    },
    TIMEOUT,
  );
});

describe('one language per page, usage that adds up', () => {
  it(
    'after a reload shows the last real call’s figures; switching to 中文 switches the server’s texts too',
    async () => {
      await page.reload();
      await page.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
      if ((await page.getByTestId('side-panel').count()) === 0) await page.getByTestId('panel-toggle').click();
      await page.getByTestId('tab-usage').click();
      // The last call of this session (the scripted server reports 10 prompt tokens), not the estimate.
      await page.getByTestId('usage-measured').waitFor(SLOW);
      expect(await page.getByTestId('usage-estimate').count()).toBe(0);
      expect(await page.getByTestId('usage-total').textContent()).toContain('Input 10 / context 128,000');
      expect(await page.getByTestId('usage-caption').textContent()).toMatch(/estimates/);
      await page.getByTestId('tab-settings').click();
      const think = page.locator('[data-testid="setting"][data-key="think"] .setting-label');
      await expect.poll(() => think.textContent(), SLOW).toBe('Thinking');
      await page.getByTestId('locale-header').selectOption('zh-CN');
      // The page's own texts at once, the server's after it answered locale.set.
      await expect.poll(() => think.textContent(), SLOW).toBe('深度思考');
      await page.getByTestId('tab-usage').click();
      await expect.poll(() => page.getByTestId('usage-total').textContent(), SLOW).toContain('输入 10 / 上下文');
      expect(await page.getByTestId('usage-caption').textContent()).toMatch(/估算/);
      await page.getByTestId('tab-settings').click();
      await page.getByTestId('locale-header').selectOption('en');
      await expect.poll(() => think.textContent(), SLOW).toBe('Thinking');
    },
    TIMEOUT,
  );
});

describe('in 中文 on a phone', () => {
  it(
    'names the actions 复制, 复制代码, 编辑, 重新生成 and 重试, and they work 390 px wide',
    async () => {
      const phone = await served.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        locale: 'zh-CN',
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await phone.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      const small = await phone.newPage();
      await small.goto(await served.freshLink());
      await small.getByTestId('new-chat').waitFor();
      expect(await small.getByTestId('new-chat').textContent()).toContain('有什么可以帮你？');
      served.model.enqueue(textReply('可以这样：\n\n```python\nprint("你好")\n```'));
      await send(small, '怎么打印你好？');
      const reply = lastTurn(small).getByTestId('reply');
      await expect.poll(() => reply.textContent(), SLOW).toContain('print');
      await reply.getByRole('button', { name: '复制代码' }).click();
      await expect.poll(() => small.evaluate(() => navigator.clipboard.readText()), SLOW).toBe('print("你好")\n');
      await reply.getByRole('button', { name: '复制', exact: true }).click();
      await expect.poll(() => small.evaluate(() => navigator.clipboard.readText()), SLOW).toContain('可以这样：');
      expect(await lastTurn(small).getByRole('button', { name: '重新生成' }).count()).toBe(1);
      served.model.enqueue(textReply('也可以用 sys.stdout.write。'));
      await lastTurn(small).getByTestId('input').getByRole('button', { name: '编辑' }).click();
      await small.getByTestId('edit-text').fill('怎么不换行地打印你好？');
      await small.getByRole('button', { name: '保存并发送' }).click();
      await expect.poll(() => lastTurn(small).textContent(), SLOW).toContain('sys.stdout.write');
      expect(await small.getByTestId('version-position').textContent()).toBe('2/2');
      served.model.enqueue(errorReply(500, '上游出错了'));
      await send(small, '再来一次');
      await expect.poll(() => lastTurn(small).getAttribute('data-outcome'), SLOW).toBe('error');
      served.model.enqueue(textReply('好了。'));
      await lastTurn(small).getByRole('button', { name: '重试' }).click();
      await expect.poll(() => lastTurn(small).textContent(), SLOW).toContain('好了。');
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.close();
    },
    TIMEOUT,
  );
});
