// A Vue 2.7 page with the shared native dock, in real Chromium against the scripted model server: the plugin's
// `this.$pling`, actions declared from setup() and from the Options API, the confirmation flow re-rendering the
// component, and the component's actions and state leaving with it.
import { textReply, toolCallReply } from '@aalis/testing';
import { type Browser, launchChromium, type OpenedFixture, openFixture } from '@plingjs/browser-testing';
import { DOCK_TEXTS } from '@plingjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VuePling } from './index.js';

const texts = DOCK_TEXTS['zh-CN'];

describe('@plingjs/vue2 on a Vue 2.7 todo app', { timeout: 60_000 }, () => {
  let browser: Browser;
  let fixture: OpenedFixture;
  let errorsBefore = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    fixture = await openFixture({ entry: new URL('./fixtures/todo-app.case.ts', import.meta.url), browser });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    await browser?.close();
  });

  const open = async () => {
    const { page, modelServer, url } = fixture;
    modelServer.reset();
    await page.goto(url);
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

  it('runs Vue 2.7.16 with the plugin installed: every component sees the same pling as this.$pling', async () => {
    const { page, dock, errors } = await open();
    expect(await page.evaluate(() => (globalThis as unknown as { vueVersion: string }).vueVersion)).toBe('2.7.16');
    expect(await page.locator('#todos').getAttribute('data-same-pling')).toBe('true');
    expect(await dock.getAttribute('aria-label')).toBe('订单助手');
    expect(await dock.locator('[data-pling="messages"]').textContent()).toBe(texts.empty);
    // The shared native dock: @plingjs/core's stylesheet once, a fixed panel since no target was given.
    expect(await page.locator('style[data-pling-style]').count()).toBe(1);
    expect(await dock.getAttribute('data-placement')).toBe('fixed');
    expect(await dock.evaluate((root) => getComputedStyle(root).position)).toBe('fixed');
    expect(errors()).toEqual([]);
  });

  it('approving a dangerous action runs the handler and the Vue component re-renders', async () => {
    const { dock, modelServer, errors, say, todos } = await open();
    modelServer.enqueue(
      toolCallReply([{ name: 'delete_todo', arguments: { id: 1 } }]),
      textReply('已删除「买牛奶」。'),
    );

    await say('删掉买牛奶');
    const confirmation = dock.locator('[data-pling="confirmation"]');
    await confirmation.waitFor();
    expect(await confirmation.textContent()).toContain(texts.confirm('delete_todo') + texts.dangerMark);
    expect(await todos()).toEqual(['买牛奶', '写周报']);
    await confirmation.locator('[data-pling="approve"]').click();

    await expect.poll(todos).toEqual(['写周报']);
    await dock.getByText('已删除「买牛奶」。').waitFor();
    expect(await dock.locator('[data-pling="operation"]').getAttribute('data-status')).toBe('ok');
    // The model saw the reactive todos as page state in its first request.
    const system = (modelServer.chatBodies()[0]?.messages as Array<{ content: string }> | undefined)?.[0]?.content;
    expect(system).toContain('买牛奶');
    expect(errors()).toEqual([]);
  });

  it('an action registered through this.$pling runs without confirmation and updates the reactive list', async () => {
    const { dock, modelServer, errors, say, todos } = await open();
    modelServer.enqueue(toolCallReply([{ name: 'add_todo', arguments: { text: '交房租' } }]), textReply('已添加。'));

    await say('加一条：交房租');

    await dock.getByText('已添加。').waitFor();
    expect(await todos()).toEqual(['买牛奶', '写周报', '交房租']);
    expect(await dock.locator('[data-pling="confirmation"]').count()).toBe(0);
    expect(errors()).toEqual([]);
  });

  it('destroying the component removes its actions and page state; the dock stays', async () => {
    const { page, dock, errors } = await open();
    const outcome = await page.evaluate(() => {
      const { pling, app } = globalThis as unknown as { pling: VuePling; app: { $destroy(): void } };
      const before = pling.page.actions.list().map((action) => action.id);
      const stateBefore = pling.page.snapshot().includes('买牛奶');
      app.$destroy();
      return {
        before,
        stateBefore,
        after: pling.page.actions.list().map((action) => action.id),
        stateLeft: pling.page.snapshot().includes('买牛奶'),
      };
    });
    expect(outcome).toEqual({ before: ['add_todo', 'delete_todo'], stateBefore: true, after: [], stateLeft: false });
    expect(await dock.count()).toBe(1);
    expect(errors()).toEqual([]);
  });
});
