import type { LlmClient } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { createPlingCore } from './create-pling-core.js';
import { DockModel } from './dock-model.js';
import { nextConfirmation, scriptedLlm, toolCall } from './test-helpers.case.js';

const ready = { model: 'test-model', locale: 'en' as const };

function withAction(llm: LlmClient, debug?: { maxCalls: number }) {
  const core = createPlingCore({ agent: { config: ready, llm } });
  core.page.register(
    defineAction({
      id: 'delete_order',
      description: 'Deletes an order',
      parameters: { type: 'object', properties: { id: { type: 'number' } } },
      danger: true,
      handler: () => ({ deleted: true }),
    }),
  );
  return { core, dock: new DockModel({ core, title: 'Orders', ...(debug ? { debug } : {}) }) };
}

describe('DockModel', () => {
  it('chat, a confirmation to approve, and the recent operation going from running to done', async () => {
    const { core, dock } = withAction(
      scriptedLlm([{ toolCalls: [toolCall('c1', 'delete_order', { id: 7 })] }, { content: 'Order 7 is deleted.' }]),
    );
    let notified = 0;
    dock.subscribe(() => notified++);
    expect(dock.getSnapshot()).toMatchObject({ title: 'Orders', busy: false, messages: [], operations: [] });
    const sent = dock.send('delete order 7');
    const request = await nextConfirmation(core.page);
    const pending = dock.getSnapshot();
    expect(pending.busy).toBe(true);
    expect(pending.confirmations.map((item) => item.actionId)).toEqual(['delete_order']);
    expect(pending.operations).toEqual([
      expect.objectContaining({ status: 'waiting', text: 'Waiting for your confirmation: delete_order' }),
    ]);
    expect(dock.approve(request.id)).toBe(true);
    await sent;
    const done = dock.getSnapshot();
    expect(done.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'delete order 7'],
      ['assistant', 'Order 7 is deleted.'],
    ]);
    expect(done.operations).toEqual([expect.objectContaining({ key: 'c1', status: 'ok', text: 'delete_order done' })]);
    expect(done.confirmations).toEqual([]);
    expect(notified).toBeGreaterThan(0);
    expect(Object.isFrozen(done)).toBe(true);
  });

  it('shows the reply while it streams, then the stored message', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const llm: LlmClient = {
      async complete(request) {
        request.onTextDelta?.('Hel');
        request.onTextDelta?.('lo');
        await gate;
        return { content: 'Hello', toolCalls: [] };
      },
    };
    const { dock } = withAction(llm);
    const sent = dock.send('hi');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(dock.getSnapshot().messages.at(-1)).toEqual({
      key: 's1',
      role: 'assistant',
      text: 'Hello',
      streaming: true,
    });
    release();
    await sent;
    // The stored reply keeps the streamed one's key: the docks keep its element (no re-render at the end).
    expect(dock.getSnapshot().messages.at(-1)).toEqual({
      key: 's1',
      role: 'assistant',
      text: 'Hello',
      streaming: false,
    });
  });

  it('a blank message is not sent; NOT_CONFIGURED is shown before anything is sent', async () => {
    const core = createPlingCore({ agent: { config: { locale: 'en' } } });
    const dock = new DockModel({ core });
    expect(dock.getSnapshot().notConfigured).toMatch(/not configured: missing baseUrl/);
    await dock.send('   ');
    expect(dock.getSnapshot().messages).toEqual([]);
    await dock.send('hello');
    expect(dock.getSnapshot().error?.code).toBe('NOT_CONFIGURED');
  });

  it('debug: the bounded request trace; clear() empties chat, queues, trace and telemetry', async () => {
    const { core, dock } = withAction(scriptedLlm([{ content: 'one' }, { content: 'two' }, { content: 'three' }]), {
      maxCalls: 2,
    });
    for (const text of ['a', 'b', 'c']) await dock.send(text);
    expect(dock.getSnapshot().trace).toHaveLength(2);
    core.page.handoffs.request({ reason: 'call the customer' });
    expect(dock.getSnapshot().handoffs).toHaveLength(1);
    dock.clear();
    const cleared = dock.getSnapshot();
    expect([cleared.messages, cleared.operations, cleared.handoffs, cleared.trace]).toEqual([[], [], [], []]);
    expect(dock.runtime.telemetry.snapshot().modelCalls).toBe(0);
  });

  it('dispose() stops following the session', async () => {
    const { dock } = withAction(scriptedLlm([{ content: 'x' }]));
    let notified = 0;
    dock.subscribe(() => notified++);
    dock.dispose();
    const before = dock.getSnapshot();
    await dock.session.send('after dispose');
    expect(notified).toBe(0);
    expect(dock.getSnapshot()).toBe(before);
  });
});
