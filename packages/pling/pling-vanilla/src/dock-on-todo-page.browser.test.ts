// The native dock driven as a user would, in real Chromium, on the todo fixture page, against the scripted model
// server behind the page's same-origin /v1.
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { type Browser, launchChromium, type OpenedFixture, openFixture } from '@plingjs/browser-testing';
import { DOCK_TEXTS } from '@plingjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pling } from './index.js';

const entry = new URL('./fixtures/todo-page.case.ts', import.meta.url);
const texts = DOCK_TEXTS['zh-CN'];

type WireMessage = { role: string; content: string };
const messagesOf = (body: Record<string, unknown> | undefined) => (body?.messages ?? []) as WireMessage[];
const lastMessage = (body: Record<string, unknown> | undefined) => messagesOf(body).at(-1);

/** A streamed reply that pauses after `first`, so the page shows it while the rest is still coming. */
function slowReply(first: string, rest: string, delayMs: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: first },
      { flush: true },
      { delayMs },
      { text: rest },
      { finish: 'stop' },
      { done: true },
    ],
  };
}

/**
 * A streamed reply that holds after `first` until the test calls `release()`: the test checks the streaming message
 * for as long as it needs (a fixed pause ran out before the checks on a loaded machine, the Stop button gone).
 */
function gatedReply(first: string, rest: string): { reply: ScriptedReply; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reply: {
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: first },
        { until: released },
        { text: rest },
        { finish: 'stop' },
        { done: true },
      ],
    },
    release,
  };
}

describe('the native dock on a plain-DOM todo page', { timeout: 60_000 }, () => {
  let browser: Browser;
  let fixture: OpenedFixture;
  let errorsBefore = 0;

  // One build and one model server for the file; every test starts on a freshly loaded page.
  beforeAll(async () => {
    browser = await launchChromium();
    fixture = await openFixture({ entry, browser, title: 'Todos' });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    await browser?.close();
  });

  const open = async (query = '') => {
    const { page, modelServer, url } = fixture;
    modelServer.reset();
    await page.goto(url + query);
    errorsBefore = fixture.errors.length;
    const dock = page.locator('[data-pling="dock"]');
    return {
      page,
      modelServer,
      dock,
      errors: () => fixture.errors.slice(errorsBefore),
      todos: () => page.locator('#todos li').allTextContents(),
      async say(text: string) {
        await dock.locator('[data-pling="input"]').fill(text);
        await dock.locator('[data-pling="input"]').press('Enter');
      },
    };
  };

  it('shows the user message and the assistant reply while it streams, then the stored reply', async () => {
    const { page, dock, modelServer, errors, say } = await open();
    await expect.poll(() => dock.getAttribute('aria-label')).toBe('订单助手');
    expect(await dock.locator('[data-pling="messages"]').textContent()).toBe(texts.empty);
    const held = gatedReply('你好，', '我能帮你管理待办。');
    modelServer.enqueue(held.reply);

    await say('你好');

    const streaming = dock.locator('[data-pling="message"][data-streaming="true"]');
    await streaming.waitFor();
    expect(await streaming.getAttribute('data-role')).toBe('assistant');
    expect(await streaming.textContent()).toContain('你好，');
    expect(await dock.locator('[data-pling="stop"]').isVisible()).toBe(true);
    held.release();
    const done = dock.locator('[data-pling="message"][data-role="assistant"]:not([data-streaming])');
    await done.waitFor();
    expect(await done.textContent()).toContain('你好，我能帮你管理待办。');
    expect(await streaming.count()).toBe(0);
    const user = dock.locator('[data-pling="message"][data-role="user"]');
    expect(await user.textContent()).toContain('你好');
    await dock.locator('[data-pling="stop"]').waitFor({ state: 'detached' });
    expect(await dock.locator('[data-pling="input"]').inputValue()).toBe('');
    expect(modelServer.chatBodies()).toEqual([expect.objectContaining({ model: 'test-model', stream: true })]);
    expect(await page.locator('style[data-pling-style]').count()).toBe(1);
    expect(errors()).toEqual([]);
  });

  it('a dangerous action waits for approval, then runs the page handler and the page re-renders', async () => {
    const { dock, modelServer, errors, say, todos } = await open();
    modelServer.enqueue(
      toolCallReply([{ name: 'delete_todo', arguments: { id: 1 } }]),
      textReply('已删除「买牛奶」。'),
    );

    await say('删掉买牛奶');

    const confirmation = dock.locator('[data-pling="confirmation"]');
    await confirmation.waitFor();
    const card = await confirmation.textContent();
    expect(card).toContain(texts.confirm('delete_todo') + texts.dangerMark);
    expect(card).toContain('Deletes a todo');
    expect(card).toContain('id: 1');
    expect(await todos()).toEqual(['买牛奶', '写周报']);

    await confirmation.locator('[data-pling="approve"]').click();

    await expect.poll(todos).toEqual(['写周报']);
    await dock.getByText('已删除「买牛奶」。').waitFor();
    expect(await confirmation.count()).toBe(0);
    const operation = dock.locator('[data-pling="operation"]');
    expect(await operation.getAttribute('data-status')).toBe('ok');
    expect(await operation.textContent()).toBe(texts.toolDone('delete_todo'));
    const toolMessage = lastMessage(modelServer.chatBodies()[1]);
    expect(toolMessage).toMatchObject({ role: 'tool' });
    expect(JSON.parse(toolMessage!.content)).toEqual({ result: { deleted: 1 } });
    expect(errors()).toEqual([]);
  });

  it('a rejected action gives the model an error and leaves the page unchanged', async () => {
    const { dock, modelServer, errors, say, todos } = await open();
    modelServer.enqueue(toolCallReply([{ name: 'delete_todo', arguments: { id: 2 } }]), textReply('好的，不删除。'));

    await say('删掉写周报');
    await dock.locator('[data-pling="confirmation"] [data-pling="reject"]').click();

    await dock.getByText('好的，不删除。').waitFor();
    expect(await todos()).toEqual(['买牛奶', '写周报']);
    const operation = dock.locator('[data-pling="operation"]');
    expect(await operation.getAttribute('data-status')).toBe('failed');
    const toolMessage = lastMessage(modelServer.chatBodies()[1]);
    expect(toolMessage?.role).toBe('tool');
    expect(JSON.parse(toolMessage!.content)).toMatchObject({
      error: { code: 'CONFIRMATION_REJECTED', message: expect.stringContaining('delete_todo') },
    });
    expect(errors()).toEqual([]);
  });

  it('a safe action runs without a confirmation', async () => {
    const { dock, modelServer, errors, say, todos } = await open();
    modelServer.enqueue(toolCallReply([{ name: 'add_todo', arguments: { text: '交房租' } }]), textReply('已添加。'));

    await say('加一条：交房租');

    await dock.getByText('已添加。').waitFor();
    expect(await todos()).toEqual(['买牛奶', '写周报', '交房租']);
    expect(await dock.locator('[data-pling="operation"]').getAttribute('data-status')).toBe('ok');
    expect(modelServer.chatBodies()).toHaveLength(2);
    expect(errors()).toEqual([]);
  });

  it('without baseUrl and model it shows NOT_CONFIGURED and sends nothing', async () => {
    const { dock, modelServer, errors, say } = await open('?config=none');

    const notConfigured = dock.locator('[data-pling="not-configured"]');
    await notConfigured.waitFor();
    expect(await notConfigured.textContent()).toContain(texts.notConfigured);
    expect(await notConfigured.textContent()).toContain('baseUrl');

    await say('你好');

    const error = dock.locator('[data-pling="error"]');
    await error.waitFor();
    expect(await error.textContent()).toContain('NOT_CONFIGURED');
    expect(await dock.locator('[data-pling="message"]').count()).toBe(0);
    expect(modelServer.requests).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('clear empties the chat and starts a new conversation', async () => {
    const { dock, modelServer, errors, say } = await open();
    modelServer.enqueue(textReply('第一条回复'), textReply('第二条回复'));
    await say('第一条');
    await dock.getByText('第一条回复').waitFor();

    await dock.locator('[data-pling="clear"]').click();

    expect(await dock.locator('[data-pling="message"]').count()).toBe(0);
    expect(await dock.locator('[data-pling="messages"]').textContent()).toBe(texts.empty);
    await say('第二条');
    await dock.getByText('第二条回复').waitFor();
    const history = messagesOf(modelServer.chatBodies()[1]);
    expect(history.filter((message) => message.role !== 'system')).toEqual([{ role: 'user', content: '第二条' }]);
    expect(errors()).toEqual([]);
  });

  it('stop cancels the pending reply', async () => {
    const { dock, modelServer, errors, say } = await open();
    modelServer.enqueue(slowReply('让我想想', '……这段不会到达', 20_000));
    await say('慢慢想');
    await dock.locator('[data-pling="message"][data-streaming="true"]').waitFor();

    await dock.locator('[data-pling="stop"]').click();

    await dock.locator('[data-pling="stop"]').waitFor({ state: 'detached' });
    await dock.locator('[data-pling="notice"]').waitFor();
    await modelServer.requests[0]!.closed;
    expect(modelServer.requests[0]!.abortedByClient).toBe(true);
    expect(await dock.textContent()).not.toContain('这段不会到达');
    expect(await dock.locator('[data-pling="message"][data-streaming="true"]').count()).toBe(0);
    expect(errors()).toEqual([]);
  });

  it('more docks share the runtime; a conflicting config is refused; dispose() removes every dock', async () => {
    const { page, errors } = await open();
    const outcome = await page.evaluate(() => {
      const { pling } = globalThis as unknown as { pling: Pling };
      const host = document.createElement('div');
      host.id = 'host';
      document.body.append(host);
      const second = pling.dock({ target: host, sessionId: 'second', config: { baseUrl: '/v1', model: 'test-model' } });
      let refused = '';
      try {
        pling.dock({ config: { maxTokens: 5 } });
      } catch (error) {
        refused = (error as { code?: string }).code ?? String(error);
      }
      const counted = document.querySelectorAll('[data-pling="dock"]').length;
      const inHost = second.element.parentElement === host;
      pling.dispose();
      return { refused, counted, inHost, left: document.querySelectorAll('[data-pling="dock"]').length };
    });
    expect(outcome).toEqual({ refused: 'RUNTIME_ALREADY_STARTED', counted: 2, inHost: true, left: 0 });
    expect(errors()).toEqual([]);
  });
});
