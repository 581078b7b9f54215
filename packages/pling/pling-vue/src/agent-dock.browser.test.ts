// AgentDock in real Chromium: the Vue 3 todo fixture page, driven as a user would, against the scripted model
// server behind the page's same-origin /v1. One page build for the file; every test reloads the page.
import { type OpenedFixture, openFixture } from '@plingjs/browser-testing';
import { DOCK_CSS, DOCK_TEXTS } from '@plingjs/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamedText, streamedToolCall } from './fixtures/replies.case.js';
import { TRACE_PREVIEW_CHARACTERS } from './trace-view.js';

const texts = DOCK_TEXTS['zh-CN'];
const entry = new URL('./fixtures/todo-page.case.ts', import.meta.url);

interface ChatBody {
  stream: boolean;
  messages: Array<{ role: string; content: string | null }>;
  tools?: unknown[];
}

describe('AgentDock (Vue 3) in Chromium', { timeout: 60_000 }, () => {
  let fixture: OpenedFixture;
  const bodies = () => fixture.modelServer.chatBodies() as unknown as ChatBody[];
  const dock = (selector = '') => fixture.page.locator(`[data-pling="dock"] ${selector}`.trim());
  const todos = () => fixture.page.locator('[data-testid="todos"] li').allTextContents();

  async function load(query = '') {
    await fixture.page.goto(fixture.url + query);
    await dock().waitFor();
  }

  async function send(text: string) {
    await dock('[data-pling="input"]').fill(text);
    await dock('[data-pling="input"]').press('Enter');
  }

  beforeAll(async () => {
    fixture = await openFixture({ entry, title: 'Vue todos' });
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  beforeEach(() => {
    fixture.modelServer.reset();
    fixture.errors.length = 0;
  });

  it('a message and the streamed reply: shown while it streams, then stored; Shift+Enter is a new line', async () => {
    await load();
    await expect.poll(() => dock('[data-pling="messages"]').textContent()).toBe(texts.empty);
    const input = dock('[data-pling="input"]');
    await expect(dock('[data-pling="send"]').isDisabled()).resolves.toBe(true);
    await input.fill('第一行');
    await input.press('Shift+Enter');
    await input.pressSequentially('第二行');
    expect(await input.inputValue()).toBe('第一行\n第二行');
    expect(fixture.modelServer.requests).toHaveLength(0);

    // The reply holds after its first words until the test has seen them streaming and the Stop button (a fixed
    // pause ran out before those checks on a loaded machine).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fixture.modelServer.enqueue({
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: '你好，' },
        { until: released },
        { text: '我是助手。' },
        { finish: 'stop' },
        { done: true },
      ],
    });
    await input.fill('你好');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');
    await dock('[data-pling="message"][data-role="user"]').filter({ hasText: '你好' }).waitFor();
    const streaming = dock('[data-pling="message"][data-streaming="true"]');
    await streaming.waitFor();
    expect(await streaming.textContent()).toContain('你好，');
    expect(await streaming.getAttribute('data-role')).toBe('assistant');
    await dock('[data-pling="stop"]').waitFor();
    release();

    const stored = dock('[data-pling="message"][data-role="assistant"]').filter({ hasText: '你好，我是助手。' });
    await stored.waitFor();
    expect(await stored.getAttribute('data-streaming')).toBeNull();
    await dock('[data-pling="stop"]').waitFor({ state: 'detached' });
    const [body] = bodies();
    expect(body!.stream).toBe(true);
    expect(body!.messages.at(-1)).toEqual({ role: 'user', content: '你好' });
    // usePageState: the page's reactive todos are in the prompt.
    expect(body!.messages[0]!.content).toContain('买牛奶');
    expect(fixture.errors).toEqual([]);
  });

  it('a danger action: the confirmation appears, approve runs the handler, the list re-renders, operation ok', async () => {
    await load();
    fixture.modelServer.enqueue(streamedToolCall('delete_todo', { id: 1 }), streamedText(['已删除「买牛奶」。']));
    await send('删掉买牛奶');

    const confirmation = dock('[data-pling="confirmation"]');
    await confirmation.waitFor();
    const card = await confirmation.textContent();
    expect(card).toContain(texts.confirm('delete_todo') + texts.dangerMark);
    expect(card).toContain('Deletes the todo with this id');
    expect(card).toContain('id: 1');
    expect(await todos()).toEqual(['买牛奶', '交房租', '写周报']);

    await confirmation.locator('[data-pling="approve"]').click();
    await expect.poll(todos).toEqual(['交房租', '写周报']);
    await dock('[data-pling="message"]').filter({ hasText: '已删除「买牛奶」。' }).waitFor();
    await confirmation.waitFor({ state: 'detached' });
    const operation = dock('[data-pling="operation"]');
    await expect.poll(() => operation.getAttribute('data-status')).toBe('ok');
    expect(await operation.textContent()).toBe(texts.toolDone('delete_todo'));
    const toolMessage = bodies()[1]!.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(toolMessage!.content!)).toEqual({ result: { deleted: 1 } });
    expect(fixture.errors).toEqual([]);
  });

  it('reject: nothing changes, the model is told CONFIRMATION_REJECTED, the operation shows failed', async () => {
    await load();
    fixture.modelServer.enqueue(streamedToolCall('delete_todo', { id: 2 }), streamedText(['好的，不删。']));
    await send('删掉交房租');
    await dock('[data-pling="confirmation"] [data-pling="reject"]').click();
    await dock('[data-pling="message"]').filter({ hasText: '好的，不删。' }).waitFor();
    expect(await todos()).toEqual(['买牛奶', '交房租', '写周报']);
    const toolMessage = bodies()[1]!.messages.find((message) => message.role === 'tool');
    expect(toolMessage!.content).toContain('CONFIRMATION_REJECTED');
    expect(await dock('[data-pling="operation"]').getAttribute('data-status')).toBe('failed');
    expect(await dock('[data-pling="confirmation"]').count()).toBe(0);
    expect(fixture.errors).toEqual([]);
  });

  it('debug trace: lists the requests actually sent, numbered, bounded to the last 4, each expandable', async () => {
    await load();
    for (const [index, text] of ['一', '二', '三', '四', '五'].entries()) {
      fixture.modelServer.enqueue(streamedText([`回复${text}`]));
      await send(`消息${text}`);
      await dock('[data-pling="message"]')
        .filter({ hasText: `回复${text}` })
        .waitFor();
      await expect.poll(() => dock('[data-pling="trace-call"]').count()).toBe(Math.min(index + 1, 4));
    }
    const trace = dock('[data-pling="operations"] [data-pling="trace"]');
    expect(await trace.locator('h3').textContent()).toBe(texts.trace(4));
    const sent = bodies();
    expect(sent).toHaveLength(5);
    const expected = sent
      .slice(1)
      .map((body, index) => texts.traceCall(index + 2, 'test-model', body.messages.length, body.tools?.length ?? 0));
    expect(await trace.locator('summary').allTextContents()).toEqual(expected);

    // Ten messages overflow the panel; it keeps the newest in view.
    const scroll = await dock('[data-pling="messages"]').evaluate((messages) => ({
      overflow: messages.scrollHeight > messages.clientHeight,
      bottom: messages.scrollHeight - messages.clientHeight - messages.scrollTop,
    }));
    expect(scroll).toEqual({ overflow: true, bottom: 0 });

    const last = trace.locator('[data-pling="trace-call"]').last();
    await last.locator('summary').click();
    const roles = await last.locator('li[data-role]').evaluateAll((items) => items.map((item) => item.dataset.role));
    expect(roles).toEqual(sent[4]!.messages.map((message) => message.role));
    const systemPrompt = sent[4]!.messages[0]!.content!;
    expect(Array.from(systemPrompt).length).toBeGreaterThan(TRACE_PREVIEW_CHARACTERS);
    expect(await last.locator('li[data-role="system"]').textContent()).toBe(
      `system ${Array.from(systemPrompt).slice(0, TRACE_PREVIEW_CHARACTERS).join('')}…`,
    );
    expect(await last.locator('li[data-role]').last().textContent()).toBe('user 消息五');
    expect(fixture.errors).toEqual([]);
  });

  it('the shared stylesheet once; a fixed panel inside the viewport by default, filling its parent when inline', async () => {
    await load();
    const styles = fixture.page.locator('style[data-pling-style]');
    expect(await styles.count()).toBe(1);
    expect(await styles.textContent()).toBe(DOCK_CSS);
    const layout = () =>
      dock().evaluate((root) => {
        const box = root.getBoundingClientRect();
        const parent = root.parentElement!.getBoundingClientRect();
        return {
          placement: root.getAttribute('data-placement'),
          position: getComputedStyle(root).position,
          inViewport: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
          fillsParent: box.width === parent.width && box.height === parent.height,
        };
      });
    expect(await layout()).toMatchObject({ placement: 'fixed', position: 'fixed', inViewport: true });

    await load('?inline');
    expect(await dock().evaluate((root) => root.parentElement!.id)).toBe('dock-host');
    expect(await layout()).toEqual({ placement: 'inline', position: 'static', inViewport: true, fillsParent: true });
    expect(await styles.count()).toBe(1);
    expect(fixture.errors).toEqual([]);
  });

  it('NOT_CONFIGURED: the readiness message shows and nothing reaches the server', async () => {
    await load('?unconfigured');
    const notConfigured = dock('[data-pling="not-configured"]');
    await notConfigured.waitFor();
    expect(await notConfigured.textContent()).toContain(texts.notConfigured);
    expect(await notConfigured.textContent()).toContain('baseUrl');
    await send('你好');
    await dock('[data-pling="error"]').filter({ hasText: 'NOT_CONFIGURED' }).waitFor();
    expect(await dock('[data-pling="message"]').count()).toBe(0);
    expect(fixture.modelServer.requests).toHaveLength(0);
    expect(fixture.errors).toEqual([]);
  });

  it('stop while the reply is pending cancels it; clear empties the chat and starts a new conversation', async () => {
    await load();
    fixture.modelServer.enqueue({ type: 'hang' });
    await send('写一首长诗');
    await dock('[data-pling="stop"]').click();
    await dock('[data-pling="notice"]').waitFor();
    await dock('[data-pling="stop"]').waitFor({ state: 'detached' });
    await fixture.modelServer.requests[0]!.closed;
    expect(fixture.modelServer.requests[0]!.abortedByClient).toBe(true);

    await dock('[data-pling="clear"]').click();
    await expect.poll(() => dock('[data-pling="message"]').count()).toBe(0);
    expect(await dock('[data-pling="messages"]').textContent()).toBe(texts.empty);
    expect(await dock('[data-pling="notice"]').count()).toBe(0);
    expect(await dock('[data-pling="trace-call"]').count()).toBe(0);

    // The conversation itself was reset (session.reset()), not only the view: the next request starts afresh.
    fixture.modelServer.enqueue(streamedText(['重新开始。']));
    await send('再来');
    await dock('[data-pling="message"]').filter({ hasText: '重新开始。' }).waitFor();
    expect(bodies()[1]!.messages.slice(1)).toEqual([{ role: 'user', content: '再来' }]);
    expect(fixture.errors).toEqual([]);
  });
});
