// The runnable recipe examples/recipes/vue3 (the spec's 证据 for the Vue 3 bounded debug trace), built from its own
// main.ts and driven in Chromium against the scripted model server behind the page's same-origin /v1. The model
// name comes from VITE_AGENT_MODEL through `env: import.meta.env`, defined at build time as the dev server would.
import { type OpenedFixture, openFixture } from '@plingjs/browser-testing';
import { DOCK_TEXTS } from '@plingjs/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_ORDERS } from '../../../../examples/recipes/vue3/order-page.js';
import { streamedText, streamedToolCall } from './fixtures/replies.case.js';

const texts = DOCK_TEXTS['zh-CN'];
const entry = new URL('../../../../examples/recipes/vue3/main.ts', import.meta.url);
const emails = INITIAL_ORDERS.map((order) => order.email);

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string | null }>;
  tools?: unknown[];
}

describe('examples/recipes/vue3 in Chromium', { timeout: 60_000 }, () => {
  let fixture: OpenedFixture;
  const bodies = () => fixture.modelServer.chatBodies() as unknown as ChatBody[];
  const dock = (selector = '') => fixture.page.locator(`[data-pling="dock"] ${selector}`.trim());
  const order = (id: string) => fixture.page.locator(`[data-testid="orders"] li[data-order-id="${id}"]`);
  const toolMessages = (body: ChatBody) => body.messages.filter((message) => message.role === 'tool');

  async function send(text: string) {
    await dock('[data-pling="input"]').fill(text);
    await dock('[data-pling="input"]').press('Enter');
  }

  beforeAll(async () => {
    fixture = await openFixture({
      entry,
      title: 'Vue 3 recipe',
      define: { 'import.meta.env.VITE_AGENT_MODEL': '"test-model"' },
    });
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  beforeEach(async () => {
    fixture.modelServer.reset();
    fixture.errors.length = 0;
    await fixture.page.goto(fixture.url);
    await dock().waitFor();
  });

  it('renders the orders, with their emails on the page, and a configured dock', async () => {
    const ids = await fixture.page
      .locator('[data-testid="orders"] li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-order-id')));
    expect(ids).toEqual(INITIAL_ORDERS.map((each) => each.id));
    expect(await order('A-1001').textContent()).toContain('wang.fang@example.com');
    expect(await order('A-1001').getAttribute('data-status')).toBe('pending');
    expect(await dock('[data-pling="not-configured"]').count()).toBe(0);
    expect(await dock('[data-pling="operations"]').count()).toBe(1);
    expect(fixture.errors).toEqual([]);
  });

  it('mark_shipped asks for confirmation; approving it ships the order on the page', async () => {
    fixture.modelServer.enqueue(streamedToolCall('mark_shipped', { id: 'A-1001' }), streamedText(['A-1001 已发货。']));
    await send('把 A-1001 标记为已发货');
    const confirmation = dock('[data-pling="confirmation"]');
    await confirmation.waitFor();
    expect(await confirmation.textContent()).toContain(texts.confirm('mark_shipped'));
    expect(await order('A-1001').getAttribute('data-status')).toBe('pending');

    await confirmation.locator('[data-pling="approve"]').click();
    await expect.poll(() => order('A-1001').getAttribute('data-status')).toBe('shipped');
    expect(await order('A-1001').textContent()).toContain('已发货');
    await dock('[data-pling="message"]').filter({ hasText: 'A-1001 已发货。' }).waitFor();
    expect(await dock('[data-pling="operation"]').getAttribute('data-status')).toBe('ok');
    expect(bodies().map((body) => body.model)).toEqual(['test-model', 'test-model']);
    expect(JSON.parse(toolMessages(bodies()[1]!)[0]!.content!)).toEqual({
      result: { id: 'A-1001', status: 'shipped' },
    });
    expect(fixture.errors).toEqual([]);
  });

  it('the debug trace lists the last 8 requests actually sent; no request carries an email', async () => {
    const calls = Array.from({ length: 8 }, (_, index) => streamedToolCall('list_orders', {}, `call_${index}`));
    fixture.modelServer.enqueue(...calls, streamedText(['共有 3 个订单。']));
    await send('列出所有订单');
    await dock('[data-pling="message"]').filter({ hasText: '共有 3 个订单。' }).waitFor();

    const sent = bodies();
    expect(sent).toHaveLength(9);
    const trace = dock('[data-pling="operations"] [data-pling="trace"]');
    await expect.poll(() => trace.locator('[data-pling="trace-call"]').count()).toBe(8);
    expect(await trace.locator('h3').textContent()).toBe(texts.trace(8));
    const expected = sent
      .slice(1)
      .map((body, index) => texts.traceCall(index + 2, 'test-model', body.messages.length, body.tools?.length ?? 0));
    expect(await trace.locator('summary').allTextContents()).toEqual(expected);

    // The page shows the emails; the model sees only the marker, in the page state and in list_orders' results.
    const wire = JSON.stringify(sent);
    for (const email of emails) expect(wire).not.toContain(email);
    expect(sent[0]!.messages[0]!.content).toContain('[redacted:email]');
    expect(toolMessages(sent[8]!)).toHaveLength(8);
    expect(toolMessages(sent[8]!)[0]!.content).toContain('[redacted:email]');
    for (const email of emails) expect(await trace.textContent()).not.toContain(email);
    expect(fixture.errors).toEqual([]);
  });

  it('with "block deletions" ticked, the PreToolUse hook blocks delete_order and the order stays', async () => {
    await fixture.page.getByRole('checkbox').check();
    fixture.modelServer.enqueue(streamedToolCall('delete_order', { id: 'A-1002' }), streamedText(['删除被拦截了。']));
    await send('删除 A-1002');
    await dock('[data-pling="message"]').filter({ hasText: '删除被拦截了。' }).waitFor();

    expect(await dock('[data-pling="operation"]').getAttribute('data-status')).toBe('blocked');
    expect(await dock('[data-pling="confirmation"]').count()).toBe(0);
    expect(await order('A-1002').count()).toBe(1);
    const toolMessage = toolMessages(bodies()[1]!)[0]!;
    expect(toolMessage.content).toContain('HOOK_BLOCKED');
    expect(toolMessage.content).toContain('删除需要单独的审批策略');
    expect(fixture.errors).toEqual([]);
  });
});
