// The React AgentDock in real Chromium, driven as a user would, against the scripted OpenAI-compatible server
// behind the page's relative /v1. The fixture is the spec's mounting example in StrictMode (fixtures/todo-app).
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { TEXTS } from '@plingjs/agent';
import {
  type Browser,
  type BrowserContext,
  fixtureBuilds,
  launchChromium,
  type OpenedFixture,
  openFixture,
  type Page,
} from '@plingjs/browser-testing';
import { DOCK_CSS, DOCK_TEXTS } from '@plingjs/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const entry = new URL('./fixtures/todo-app.case.tsx', import.meta.url);
const texts = DOCK_TEXTS['zh-CN'];

const dock = (page: Page) => page.locator('[data-pling="dock"]');
const messages = (page: Page) => page.locator('[data-pling="message"]');
const todoIds = (page: Page) =>
  page.locator('#todos li').evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-todo-id'))));
const eventTypes = (page: Page, list: 'dockEvents' | 'hostEvents') =>
  page.evaluate((name) => window.plingTest[name].map((event) => event.type), list);

async function send(page: Page, text: string): Promise<void> {
  await page.locator('[data-pling="input"]').fill(text);
  await page.locator('[data-pling="send"]').click();
}

/** Chat messages as [role, text, streaming] once they match `expected` (waits for it). */
async function expectMessages(page: Page, expected: Array<[string, string, boolean?]>): Promise<void> {
  await expect
    .poll(
      () =>
        messages(page).evaluateAll((items) =>
          items.map((item) => {
            const row: [string, string, boolean?] = [
              item.getAttribute('data-role') ?? '',
              item.querySelector('[data-pling="text"]')?.textContent ?? '',
            ];
            if (item.getAttribute('data-streaming') === 'true') row.push(true);
            return row;
          }),
        ),
      { timeout: 15_000 },
    )
    .toEqual(expected);
}

/** A streamed reply that stops after `first` for `pauseMs` before the rest. */
function slowReply(first: string, rest: string, pauseMs: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: first },
      { flush: true },
      { delayMs: pauseMs },
      { text: rest },
      { finish: 'stop' },
      { done: true },
    ],
  };
}

/** A streamed reply that holds after `first` until the test calls `release()`, then sends the rest. */
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

describe('AgentDock (React) in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let fixture: OpenedFixture | undefined;
  // Every test opens the same page afresh (its own model server, its own server and so its own origin, a page of its
  // own in the file's browser context): built once for all of them.
  const builds = fixtureBuilds();

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
  }, 60_000);

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await builds.cleanup();
  });

  const open = async (): Promise<OpenedFixture> => {
    // React's development build: StrictMode only double-renders and re-runs effects there, and it reports misuse
    // (keys, effects, hooks) as console errors, which the tests assert away.
    fixture = await openFixture({
      entry,
      context,
      builds,
      title: 'React todo',
      define: { 'process.env.NODE_ENV': '"development"' },
    });
    await dock(fixture.page).waitFor();
    return fixture;
  };

  it('sends a message (Enter; Shift+Enter is a new line) and shows the reply while it streams, then stored', async () => {
    const { page, modelServer, errors } = await open();
    expect(await dock(page).count()).toBe(1);
    expect(await dock(page).getAttribute('aria-label')).toBe('待办助手');
    expect(await page.locator('[data-pling="messages"] [data-pling="empty"]').textContent()).toBe(texts.empty);
    expect(await page.locator('[data-pling="send"]').isDisabled()).toBe(true);
    // Mounting the dock created the runtime; Diagnostics (rendered before the dock) followed it without creating it.
    expect(await page.locator('#session').textContent()).toBe('idle 0');
    const hello = gatedReply('你好，', '有什么要做的？');
    modelServer.enqueue(hello.reply);

    const input = page.locator('[data-pling="input"]');
    await input.fill('你好');
    await input.press('Shift+Enter');
    await input.pressSequentially('在吗');
    expect(await input.inputValue()).toBe('你好\n在吗');
    expect(modelServer.requests).toHaveLength(0);
    await input.press('Enter');

    await expectMessages(page, [
      ['user', '你好\n在吗'],
      ['assistant', '你好，', true],
    ]);
    expect(await input.inputValue()).toBe('');
    expect(await page.locator('[data-pling="stop"]').isVisible()).toBe(true);
    hello.release();
    await expectMessages(page, [
      ['user', '你好\n在吗'],
      ['assistant', '你好，有什么要做的？'],
    ]);
    await page.locator('[data-pling="stop"]').waitFor({ state: 'detached' });
    expect(await page.locator('#session').textContent()).toBe('idle 2');
    expect(await page.locator('#model-calls').textContent()).toBe('1');

    // createPling's config, the "environment", and the dock's `config` property all reached the request.
    const [body] = modelServer.chatBodies();
    expect(body).toMatchObject({ model: 'test-model', stream: true, temperature: 0.1, max_tokens: 1024 });
    // onSessionEvent: this session's events, each once (StrictMode's second mount left one live subscription).
    const dockTypes = await eventTypes(page, 'dockEvents');
    expect(dockTypes.filter((type) => type === 'message')).toHaveLength(2);
    expect(dockTypes.filter((type) => type === 'text-delta').length).toBeGreaterThanOrEqual(2);
    expect(await eventTypes(page, 'hostEvents')).toEqual(dockTypes);
    expect(errors).toEqual([]);
  });

  it('a danger action asks first; approving runs the page handler with current state, then the reply', async () => {
    const { page, modelServer, errors } = await open();
    modelServer.enqueue(
      toolCallReply([{ id: 'call_add', name: 'add_todo', arguments: { text: '写周报' } }]),
      toolCallReply([{ id: 'call_delete', name: 'delete_todo', arguments: { id: 4 } }]),
      textReply('已删除「写周报」。'),
    );
    await send(page, '加一条写周报，然后删掉它');

    const confirmation = page.locator('[data-pling="confirmation"]');
    await confirmation.waitFor();
    // add_todo needs no confirmation: it ran, and the page re-rendered.
    expect(await todoIds(page)).toEqual([1, 2, 3, 4]);
    expect(await confirmation.locator('.pling-confirmation-title').textContent()).toBe(
      `${texts.confirm('delete_todo')}${texts.dangerMark}`,
    );
    expect(await confirmation.textContent()).toContain('删除一条待办');
    expect(await confirmation.locator('pre').textContent()).toBe('id: 4');
    // The runtime announces a call when it starts: delete_todo shows as waiting for the person.
    const operations = page.locator('[data-pling="operation"]');
    expect(await operations.evaluateAll((items) => items.map((item) => item.getAttribute('data-status')))).toEqual([
      'ok',
      'waiting',
    ]);
    // The page snapshot of the second request already held the new todo (usePageState reads current state).
    expect(JSON.stringify(modelServer.chatBodies()[1])).toContain('写周报');

    await confirmation.locator('[data-pling="approve"]').click();

    await expectMessages(page, [
      ['user', '加一条写周报，然后删掉它'],
      ['assistant', '已删除「写周报」。'],
    ]);
    expect(await todoIds(page)).toEqual([1, 2, 3]);
    expect(await confirmation.count()).toBe(0);
    expect(
      await operations.evaluateAll((items) =>
        items.map((item) => [item.getAttribute('data-status'), item.textContent]),
      ),
    ).toEqual([
      ['ok', texts.toolDone('add_todo')],
      ['ok', texts.toolDone('delete_todo')],
    ]);
    const toolMessages = JSON.stringify(modelServer.chatBodies()[2]);
    expect(toolMessages).toContain('\\"deleted\\":\\"写周报\\"');
    expect(errors).toEqual([]);
  });

  it('rejecting gives the model an error and leaves the page as it was', async () => {
    const { page, modelServer, errors } = await open();
    modelServer.enqueue(
      toolCallReply([{ id: 'call_delete', name: 'delete_todo', arguments: { id: 1 } }]),
      textReply('好的，保留了。'),
    );
    await send(page, '删掉买牛奶');
    const confirmation = page.locator('[data-pling="confirmation"]');
    await confirmation.locator('[data-pling="reject"]').click();

    await expectMessages(page, [
      ['user', '删掉买牛奶'],
      ['assistant', '好的，保留了。'],
    ]);
    expect(await confirmation.count()).toBe(0);
    expect(await todoIds(page)).toEqual([1, 2, 3]);
    const operation = page.locator('[data-pling="operation"]');
    expect(await operation.getAttribute('data-status')).toBe('failed');
    expect(await operation.textContent()).toBe(texts.toolDeclined('delete_todo'));
    expect(JSON.stringify(modelServer.chatBodies()[1])).toContain('CONFIRMATION_REJECTED');
    expect(errors).toEqual([]);
  });

  it('NOT_CONFIGURED: without baseUrl and model the dock says so and sends nothing', async () => {
    const { page, modelServer, errors, url } = await open();
    await page.goto(`${url}?unconfigured`);
    const notConfigured = page.locator('[data-pling="not-configured"]');
    await notConfigured.waitFor();
    expect(await notConfigured.textContent()).toContain(texts.notConfigured);
    expect(await notConfigured.textContent()).toContain('VITE_AGENT_BASE_URL');

    await send(page, '你好');

    const error = page.locator('[data-pling="error"]');
    await error.waitFor();
    expect(await error.locator('[data-pling="error-code"]').textContent()).toBe('NOT_CONFIGURED');
    expect(await messages(page).count()).toBe(0);
    expect(modelServer.requests).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it('a fixed panel at the bottom right by default; inside the host element given as `container`', async () => {
    const { page, modelServer, errors, url } = await open();
    const placement = () =>
      dock(page).evaluate((element) => {
        const box = element.getBoundingClientRect();
        return {
          parent: element.parentElement?.id || element.parentElement?.tagName,
          placement: element.getAttribute('data-placement'),
          classes: element.className,
          position: getComputedStyle(element).position,
          inViewport: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
          width: box.width,
          parentWidth: element.parentElement!.getBoundingClientRect().width,
        };
      });
    // The shared stylesheet of @plingjs/core, once, however often StrictMode ran the effects.
    const styles = page.locator('style[data-pling-style]');
    expect(await styles.count()).toBe(1);
    expect(await styles.textContent()).toBe(DOCK_CSS);
    expect(await placement()).toMatchObject({
      placement: 'fixed',
      classes: 'todo-dock',
      position: 'fixed',
      inViewport: true,
    });

    await page.goto(`${url}?inline`);
    await page.locator('#dock-host [data-pling="dock"]').waitFor();
    const inline = await placement();
    expect(inline).toMatchObject({
      parent: 'dock-host',
      placement: 'inline',
      classes: 'todo-dock',
      position: 'static',
    });
    expect(inline.width).toBe(inline.parentWidth);
    expect(await styles.count()).toBe(1);

    await page.goto(`${url}?inline&placement=fixed`);
    await page.locator('#dock-host [data-pling="dock"]').waitFor();
    expect(await placement()).toMatchObject({ parent: 'dock-host', placement: 'fixed', position: 'fixed' });

    await page.goto(`${url}?inline`);
    await page.locator('#dock-host [data-pling="dock"]').waitFor();
    modelServer.enqueue(textReply('就在这里'));
    await send(page, '你在哪？');
    await expectMessages(page, [
      ['user', '你在哪？'],
      ['assistant', '就在这里'],
    ]);
    expect(errors).toEqual([]);
  });

  it('handoffs are marked done one by one; clear empties chat, operations, the rest and telemetry, and starts anew', async () => {
    const { page, modelServer, errors } = await open();
    modelServer.enqueue(
      toolCallReply([
        { name: 'handoff', arguments: { reason: '需要财务审批' } },
        { name: 'handoff', arguments: { reason: '需要主管签字' } },
      ]),
      textReply('已请同事处理。'),
      textReply('新的开始'),
    );
    await send(page, '帮我报销');
    await expectMessages(page, [
      ['user', '帮我报销'],
      ['assistant', '已请同事处理。'],
    ]);
    const handoffs = page.locator('[data-pling="handoff"]');
    expect(await handoffs.locator('p').allTextContents()).toEqual([
      texts.handoff('需要财务审批'),
      texts.handoff('需要主管签字'),
    ]);
    await handoffs.first().locator('[data-pling="resolve-handoff"]').click();
    await expect.poll(() => handoffs.locator('p').allTextContents()).toEqual([texts.handoff('需要主管签字')]);
    expect(await page.locator('[data-pling="operation"]').count()).toBe(2);
    expect(await page.locator('#model-calls').textContent()).toBe('2');

    await page.locator('[data-pling="clear"]').click();

    await expectMessages(page, []);
    expect(await page.locator('[data-pling="empty"]').textContent()).toBe(texts.empty);
    expect(await page.locator('[data-pling="handoff"]').count()).toBe(0);
    expect(await page.locator('[data-pling="operation"]').count()).toBe(0);
    expect(await page.locator('#model-calls').textContent()).toBe('0');
    expect(await page.locator('#session').textContent()).toBe('idle 0');

    await send(page, '重新开始');
    await expectMessages(page, [
      ['user', '重新开始'],
      ['assistant', '新的开始'],
    ]);
    const last = JSON.stringify(modelServer.chatBodies()[2]);
    expect(last).toContain('重新开始');
    expect(last).not.toContain('帮我报销');
    expect(errors).toEqual([]);
  });

  it('stop cancels a pending reply: the request is aborted and the dock says it was cancelled', async () => {
    const { page, modelServer, errors } = await open();
    modelServer.enqueue(slowReply('让我想想', '……想好了', 30_000));
    await send(page, '慢慢想');
    await expectMessages(page, [
      ['user', '慢慢想'],
      ['assistant', '让我想想', true],
    ]);
    expect(await page.locator('#session').textContent()).toBe('running 1');

    await page.locator('[data-pling="stop"]').click();

    const notice = page.locator('[data-pling="notice"]');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(TEXTS['zh-CN'].cancelledNotice);
    await page.locator('[data-pling="stop"]').waitFor({ state: 'detached' });
    await expectMessages(page, [['user', '慢慢想']]);
    const [request] = modelServer.requests;
    await request?.closed;
    expect(request?.abortedByClient).toBe(true);
    expect(errors).toEqual([]);
  });

  it('StrictMode leaves one live dock model; unmounting disposes it, remounting shows the same conversation', async () => {
    const { page, modelServer, errors } = await open();
    const liveModels = () => page.evaluate(() => window.plingTest.liveModels());
    expect(await liveModels()).toBe(1);
    modelServer.enqueue(textReply('在'));
    await send(page, '在吗');
    await expectMessages(page, [
      ['user', '在吗'],
      ['assistant', '在'],
    ]);

    await page.locator('#toggle-dock').click();
    await dock(page).waitFor({ state: 'detached' });
    expect(await liveModels()).toBe(0);
    await page.locator('#toggle-dock').click();
    await dock(page).waitFor();
    expect(await liveModels()).toBe(1);
    await expectMessages(page, [
      ['user', '在吗'],
      ['assistant', '在'],
    ]);
    expect(errors).toEqual([]);
  });

  it('useAction declares while mounted (StrictMode included) and withdraws on unmount', async () => {
    const { page, modelServer, errors } = await open();
    const actionIds = () => page.evaluate(() => window.plingTest.pling.page.actions.list().map((action) => action.id));
    expect(await actionIds()).toEqual(['add_todo', 'delete_todo', 'export_todos']);

    await page.locator('#toggle-export').click();
    await page.locator('#export-tools').waitFor({ state: 'detached' });
    expect(await actionIds()).toEqual(['add_todo', 'delete_todo']);
    modelServer.enqueue(textReply('好'));
    await send(page, '你能做什么？');
    await expectMessages(page, [
      ['user', '你能做什么？'],
      ['assistant', '好'],
    ]);
    const offered = modelServer.chatBodies()[0]?.tools as Array<{ function: { name: string } }> | undefined;
    const tools = (offered ?? []).map((tool) => tool.function.name);
    expect(tools.sort()).toEqual(['add_todo', 'delete_todo', 'handoff']);

    await page.locator('#toggle-export').click();
    await page.locator('#export-tools').waitFor();
    expect(await actionIds()).toEqual(['add_todo', 'delete_todo', 'export_todos']);
    expect(errors).toEqual([]);
  });
});
