// The DOM dock against a scripted controller, in real Chromium: the DOM contract for every part of DockState,
// in-place updates (node identity, one text node per streamed delta), the textarea's value and focus across
// renders, the keyboard and buttons, text never parsed as HTML, the shared stylesheet once per document and its
// placements, and unmount.
import { type Browser, launchChromium, type OpenedFixture, openFixture, type Page } from '@plingjs/browser-testing';
import {
  DOCK_CSS,
  type DockConfirmation,
  type DockError,
  type DockMessage,
  type DockOperation,
  type HandoffRequest,
} from '@plingjs/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness, StatePatch } from './fixtures/dock-view-harness.case.js';

const user = (key: string, text: string): DockMessage => ({ key, role: 'user', text, streaming: false });
const assistant = (key: string, text: string, streaming = false): DockMessage => ({
  key,
  role: 'assistant',
  text,
  streaming,
});
const operation = (key: string, status: DockOperation['status'], text: string): DockOperation => ({
  key,
  status,
  text,
  at: 0,
});
const confirmation = (id: string, danger: boolean): DockConfirmation => ({
  id,
  actionId: 'delete_todo',
  description: 'Deletes a todo',
  danger,
  arguments: { id: 1, email: '[redacted:email]' },
  shownArguments: { id: 1, email: '[redacted:email]' },
  createdAt: 0,
});
const failure = (code: string, message: string): DockError => ({ code, message, summary: `summary of ${code}` });
const handoff = (id: string): HandoffRequest => ({ id, reason: 'needs a manager', createdAt: 0 });

describe('the DOM dock (createDockView / mountDock)', { timeout: 60_000 }, () => {
  let browser: Browser;
  let fixture: OpenedFixture;
  let page: Page;
  let errorsBefore = 0;

  /** Calls a harness method inside the page. */
  const harness = <Method extends keyof Harness>(method: Method, ...args: Parameters<Harness[Method]>) =>
    page.evaluate(
      ({ method, args }) =>
        (globalThis as unknown as { harness: Record<string, (...values: unknown[]) => unknown> }).harness[method]!(
          ...args,
        ),
      { method, args: args as unknown[] },
    ) as Promise<ReturnType<Harness[Method]>>;
  const set = (patch: StatePatch) => harness('set', 0, patch);
  const dock = () => page.locator('[data-pling="dock"]').first();
  const newErrors = () => fixture.errors.slice(errorsBefore);

  beforeAll(async () => {
    browser = await launchChromium();
    fixture = await openFixture({ entry: new URL('./fixtures/dock-view-harness.case.ts', import.meta.url), browser });
    page = fixture.page;
  }, 60_000);
  beforeEach(async () => {
    await page.goto(fixture.url);
    errorsBefore = fixture.errors.length;
  });
  afterAll(async () => {
    await fixture?.close();
    await browser?.close();
  });

  it('renders every part of the state with the contract attributes, and removes the parts that go away', async () => {
    await harness('mount');
    const root = dock();
    expect(await root.getAttribute('aria-label')).toBe('Harness');
    expect(
      await root.evaluate((element) => [
        element.parentElement?.tagName,
        element.dataset.placement,
        getComputedStyle(element).position,
      ]),
    ).toEqual(['BODY', 'fixed', 'fixed']);
    expect(await root.locator('[data-pling="messages"]').getAttribute('aria-live')).toBe('polite');
    expect(await root.locator('[data-pling="messages"]').textContent()).toBe('How can I help?');
    expect(await root.locator('[data-pling="operations"]').textContent()).toBe('Recent operationsNo operations yet');
    expect(await root.locator('[data-pling="input"]').getAttribute('placeholder')).toBe(
      'Type a message, Enter to send',
    );
    expect(await root.locator('[data-pling="send"]').isDisabled()).toBe(true);
    for (const part of ['not-configured', 'notice', 'error', 'confirmation', 'handoff', 'stop', 'message']) {
      expect(await root.locator(`[data-pling="${part}"]`).count(), part).toBe(0);
    }

    await set({
      title: 'Orders',
      busy: true,
      notConfigured: 'missing baseUrl',
      messages: [user('m1', 'hi'), assistant('streaming', 'hel', true)],
      notice: 'Stopped.',
      error: failure('NETWORK_ERROR', 'offline'),
      confirmations: [confirmation('confirmation-1', true)],
      handoffs: [handoff('handoff-1')],
      operations: [
        operation('c1', 'ok', 'delete_todo done'),
        operation('c2', 'failed', 'add_todo failed (TOOL_FAILED)'),
      ],
    });

    expect(await root.getAttribute('aria-label')).toBe('Orders');
    expect(await root.locator('header').textContent()).toBe('OrdersClearClose');
    expect(await root.locator('[data-pling="not-configured"]').textContent()).toBe(
      'The assistant is not configured yetIt can’t answer yet. Please contact the site’s administrator.Technical details (for developers)NOT_CONFIGUREDmissing baseUrl',
    );
    const messages = root.locator('[data-pling="message"]');
    expect(
      await messages.evaluateAll((items) =>
        items.map((item) => [item.dataset.role, item.dataset.streaming, item.textContent]),
      ),
    ).toEqual([
      ['user', undefined, 'Youhi'],
      ['assistant', 'true', 'Assistanthel'],
    ]);
    expect(await root.locator('[data-pling="notice"]').textContent()).toBe('Stopped.');
    expect(await root.locator('[data-pling="error"]').textContent()).toBe(
      'summary of NETWORK_ERRORTechnical details (for developers)NETWORK_ERRORoffline',
    );
    const card = root.locator('[data-pling="confirmation"]');
    expect(await card.locator('p').allTextContents()).toEqual([
      'Needs your confirmation: delete_todo (danger)',
      'Deletes a todo',
    ]);
    expect(await card.locator('pre').textContent()).toBe('id: 1\nemail: [redacted:email]');
    expect(await card.locator('[data-pling="approve"]').textContent()).toBe('Approve');
    expect(await card.locator('[data-pling="reject"]').textContent()).toBe('Reject');
    expect(await root.locator('[data-pling="handoff"]').textContent()).toBe('A person is needed: needs a managerDone');
    expect(
      await root
        .locator('[data-pling="operation"]')
        .evaluateAll((items) => items.map((item) => [item.dataset.status, item.textContent])),
    ).toEqual([
      ['ok', 'delete_todo done'],
      ['failed', 'add_todo failed (TOOL_FAILED)'],
    ]);
    expect(await root.locator('[data-pling="stop"]').textContent()).toBe('Stop');

    await set({
      busy: false,
      notConfigured: undefined,
      notice: undefined,
      error: undefined,
      confirmations: [],
      handoffs: [],
      messages: [],
      operations: [],
    });
    for (const part of [
      'not-configured',
      'notice',
      'error',
      'confirmation',
      'handoff',
      'stop',
      'message',
      'operation',
    ]) {
      expect(await root.locator(`[data-pling="${part}"]`).count(), part).toBe(0);
    }
    expect(await root.locator('[data-pling="messages"]').textContent()).toBe('How can I help?');
    expect(newErrors()).toEqual([]);
  });

  it('a streamed delta rewrites one text node; the other messages and list items keep their nodes', async () => {
    await harness('mount');
    await set({
      messages: [user('m1', 'hi'), assistant('streaming', 'Hel', true)],
      operations: [operation('c1', 'running', 'Running add_todo')],
    });
    await page.evaluate(() => {
      const root = document.querySelector('[data-pling="dock"]')!;
      const kept = {
        user: root.querySelector('[data-role="user"]'),
        streamingText: root.querySelector('[data-streaming] .pling-text')!.firstChild,
        operation: root.querySelector('[data-pling="operation"]'),
        records: [] as MutationRecord[],
      };
      new MutationObserver((records) => kept.records.push(...records)).observe(root, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
      (globalThis as unknown as { kept: typeof kept }).kept = kept;
    });

    await set({ messages: [user('m1', 'hi'), assistant('streaming', 'Hello', true)] });

    const afterDelta = await page.evaluate(async () => {
      await Promise.resolve(); // mutation records are delivered as a microtask
      const { kept } = globalThis as unknown as { kept: { records: MutationRecord[]; streamingText: Node } };
      const records = kept.records.map((record) => record.type);
      kept.records.length = 0;
      return { records, text: kept.streamingText.textContent, attached: kept.streamingText.isConnected };
    });
    expect(afterDelta).toEqual({ records: ['characterData'], text: 'Hello', attached: true });

    await set({
      messages: [user('m1', 'hi'), assistant('m2', 'Hello!')],
      operations: [operation('c1', 'ok', 'add_todo done'), operation('c2', 'running', 'Running delete_todo')],
    });
    expect(
      await page.evaluate(() => {
        const { kept } = globalThis as unknown as { kept: { user: Element; operation: Element } };
        const root = document.querySelector('[data-pling="dock"]')!;
        return {
          sameUser: root.querySelector('[data-role="user"]') === kept.user,
          sameOperation: root.querySelector('[data-pling="operation"]') === kept.operation,
          operation: [kept.operation.getAttribute('data-status'), kept.operation.textContent],
          streaming: root.querySelectorAll('[data-streaming]').length,
        };
      }),
    ).toEqual({ sameUser: true, sameOperation: true, operation: ['ok', 'add_todo done'], streaming: 0 });
    expect(newErrors()).toEqual([]);
  });

  it('the textarea keeps its value, caret and focus while the rest of the dock changes around it', async () => {
    await harness('mount');
    const input = dock().locator('[data-pling="input"]');
    await input.click();
    await page.keyboard.type('a draft');
    await page.keyboard.press('ArrowLeft');
    const patches: StatePatch[] = [
      { busy: true, messages: [user('m1', 'hi'), assistant('streaming', 'x', true)] },
      { notice: 'n', error: failure('E', 'e'), notConfigured: 'nc' },
      { confirmations: [confirmation('confirmation-1', false)], handoffs: [handoff('handoff-1')] },
      { notice: undefined, error: undefined, notConfigured: undefined, confirmations: [], handoffs: [] },
      { busy: false, messages: [user('m1', 'hi'), assistant('m2', 'xy')], operations: [operation('c', 'ok', 'ok')] },
    ];
    for (const patch of patches) {
      await set(patch);
      expect(
        await input.evaluate((element: HTMLTextAreaElement) => [
          document.activeElement === element,
          element.value,
          element.selectionStart,
        ]),
      ).toEqual([true, 'a draft', 6]);
    }
    expect(await dock().locator('[data-pling="send"]').isDisabled()).toBe(false);
    expect(newErrors()).toEqual([]);
  });

  it('Enter sends, Shift+Enter adds a line, a blank input sends nothing; every button reaches the controller', async () => {
    await harness('mount');
    const root = dock();
    const input = root.locator('[data-pling="input"]');
    await input.fill('   ');
    expect(await root.locator('[data-pling="send"]').isDisabled()).toBe(true);
    await input.press('Enter');
    await input.fill('line one');
    expect(await root.locator('[data-pling="send"]').isDisabled()).toBe(false);
    await input.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await harness('calls', 0)).toEqual([]);
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');
    expect(await root.locator('[data-pling="send"]').isDisabled()).toBe(true);
    await input.fill('by button');
    await root.locator('[data-pling="send"]').click();

    await set({
      busy: true,
      confirmations: [confirmation('confirmation-1', true), confirmation('confirmation-2', false)],
      handoffs: [handoff('handoff-1')],
    });
    await root.locator('[data-pling="stop"]').click();
    await root.locator('[data-pling="confirmation"]').nth(0).locator('[data-pling="approve"]').click();
    await root.locator('[data-pling="confirmation"]').nth(1).locator('[data-pling="reject"]').click();
    await root.locator('[data-pling="resolve-handoff"]').click();
    await root.locator('[data-pling="clear"]').click();

    expect(await harness('calls', 0)).toEqual([
      ['send', 'line one\nline two'],
      ['send', 'by button'],
      ['cancel'],
      ['approve', 'confirmation-1'],
      ['reject', 'confirmation-2'],
      ['resolveHandoff', 'handoff-1'],
      ['clear'],
    ]);
    // A second click on a settled request cannot reach the queue: its buttons are disabled at once.
    expect(await root.locator('[data-pling="confirmation"] button:disabled').count()).toBe(4);
    expect(newErrors()).toEqual([]);
  });

  it('text from the model, the page and the user is shown as text, never parsed as HTML', async () => {
    await harness('mount');
    const markup = '<img src="x" onerror="globalThis.injected = true">';
    await set({
      title: markup,
      messages: [assistant('m1', markup)],
      error: failure('E', markup),
      confirmations: [
        {
          ...confirmation('confirmation-1', false),
          description: markup,
          arguments: { html: markup },
          shownArguments: { html: markup },
        },
      ],
    });
    expect(await page.locator('[data-pling="dock"] img').count()).toBe(0);
    expect(await dock().locator('[data-pling="message"]').textContent()).toBe(`Assistant${markup}`);
    expect(await page.evaluate(() => (globalThis as { injected?: boolean }).injected)).toBeUndefined();
    expect(newErrors()).toEqual([]);
  });

  it('placement: the fixed panel stays inside a small viewport with header and input in view; inline fills its host', async () => {
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 360, height: 420 });
    try {
      await harness('mount');
      await set({
        messages: Array.from({ length: 12 }, (_, index) => assistant(`m${index}`, `reply ${index}\n`.repeat(3))),
        confirmations: [confirmation('confirmation-1', true), confirmation('confirmation-2', false)],
        handoffs: [handoff('handoff-1')],
        operations: Array.from({ length: 8 }, (_, index) => operation(`c${index}`, 'ok', `done ${index}`)),
      });
      const layout = await dock().evaluate((root) => {
        const box = (element: Element | null) => {
          const { top, right, bottom, left } = element!.getBoundingClientRect();
          return { top, right, bottom, left };
        };
        const messages = root.querySelector('[data-pling="messages"]')!;
        const visible = (element: Element | null) => {
          const { left, top, width, height } = element!.getBoundingClientRect();
          return element!.contains(document.elementFromPoint(left + width / 2, top + height / 2));
        };
        return {
          position: getComputedStyle(root).position,
          root: box(root),
          viewport: { width: innerWidth, height: innerHeight },
          panelScrolls: root.scrollHeight > root.clientHeight,
          chatScrolls: messages.scrollHeight > messages.clientHeight,
          headerVisible: visible(root.querySelector('.pling-header')),
          inputVisible: visible(root.querySelector('[data-pling="input"]')),
        };
      });
      expect(layout).toMatchObject({
        position: 'fixed',
        panelScrolls: true,
        chatScrolls: true,
        headerVisible: true,
        inputVisible: true,
      });
      expect(layout.root.top).toBeGreaterThanOrEqual(0);
      expect(layout.root.left).toBeGreaterThanOrEqual(0);
      expect(layout.root.bottom).toBeLessThanOrEqual(layout.viewport.height);
      expect(layout.root.right).toBeLessThanOrEqual(layout.viewport.width);
    } finally {
      await page.setViewportSize(viewport);
    }

    await harness('mount', { inHost: true });
    await harness('mount', { inHost: true, placement: 'fixed' });
    const inline = await page.evaluate(() => {
      const host = document.querySelector<HTMLElement>('#host-1')!;
      host.style.cssText = 'width: 420px; height: 300px';
      const root = host.querySelector<HTMLElement>('[data-pling="dock"]')!;
      const [hostBox, rootBox] = [host.getBoundingClientRect(), root.getBoundingClientRect()];
      return {
        placement: root.dataset.placement,
        position: getComputedStyle(root).position,
        size: [rootBox.width, rootBox.height],
        hostSize: [hostBox.width, hostBox.height],
      };
    });
    expect(inline).toEqual({ placement: 'inline', position: 'static', size: [420, 300], hostSize: [420, 300] });
    const fixedInHost = page.locator('#host-2 > [data-pling="dock"]');
    expect(await fixedInHost.getAttribute('data-placement')).toBe('fixed');
    expect(await fixedInHost.evaluate((root) => getComputedStyle(root).position)).toBe('fixed');
    expect(await page.locator('style[data-pling-style]').count()).toBe(1);
    expect(newErrors()).toEqual([]);
  });

  it('injects one stylesheet per document, renders into a host element, and unmount removes and unsubscribes', async () => {
    expect(await harness('mount')).toBe(0);
    expect(await harness('mount', { inHost: true, locale: 'zh-CN' })).toBe(1);
    const styles = page.locator('style[data-pling-style]');
    expect(await styles.count()).toBe(1);
    expect(await styles.textContent()).toBe(DOCK_CSS);
    const hosted = page.locator('#host-1 > [data-pling="dock"]');
    expect(await hosted.getAttribute('data-placement')).toBe('inline');
    expect(await hosted.locator('[data-pling="clear"]').textContent()).toBe('清空');
    expect(await harness('listeners', 0)).toBe(1);

    await harness('unmount', 0);
    await harness('unmount', 0);
    await set({ messages: [user('m1', 'after unmount')] });

    expect(await harness('listeners', 0)).toBe(0);
    expect(await page.locator('[data-pling="dock"]').count()).toBe(1);
    expect(await page.getByText('after unmount').count()).toBe(0);
    expect(newErrors()).toEqual([]);
  });
});
