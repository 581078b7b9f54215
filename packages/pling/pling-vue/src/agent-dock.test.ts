import { DOCK_TEXTS } from '@plingjs/core';
import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import { AgentDock } from './agent-dock.js';
import { createPling, type Pling } from './create-pling.js';
import { scriptedLlm, toolCall, until, untilAborted } from './scripted-llm.case.js';
import { find, findAll, mount, type TestNode, textOf, trigger } from './test-renderer.case.js';

const en = DOCK_TEXTS.en;
const ready = { model: 'test-model', locale: 'en' as const };

function withTodos(pling: Pling) {
  const todos = ['milk', 'bread'];
  pling.register({
    id: 'delete_todo',
    description: 'Deletes a todo',
    parameters: { type: 'object', properties: { index: { type: 'number' } } },
    danger: true,
    handler: ({ index }) => todos.splice(Number(index), 1),
  });
  return todos;
}

async function type(root: TestNode, text: string, key = 'Enter', shiftKey = false) {
  const input = find(root, 'input')!;
  await trigger(input, 'input', { target: { value: text } });
  await trigger(input, 'keydown', { key, shiftKey, isComposing: false });
}

/** Waits until the rendered tree satisfies `check` (the model answers asynchronously). */
async function rendered(check: () => boolean, what: string) {
  await until(check, what);
  await nextTick();
}

describe('AgentDock', () => {
  it('renders the shared DOM contract with the locale’s texts, empty', () => {
    const pling = createPling({ agent: { config: ready, llm: scriptedLlm([]) } });
    const { root } = mount(AgentDock, { pling, title: 'Orders' });
    const dock = find(root, 'dock')!;
    expect(dock.attributes['aria-label']).toBe('Orders');
    expect(dock.attributes['data-placement']).toBe('fixed');
    expect(textOf(find(root, 'clear')!)).toBe(en.clear);
    expect(find(root, 'messages')!.attributes['aria-live']).toBe('polite');
    expect(textOf(find(root, 'messages')!)).toBe(en.empty);
    expect(textOf(find(root, 'operations')!)).toBe(en.recentOperations + en.noOperations);
    expect(find(root, 'input')!.attributes.placeholder).toBe(en.placeholder);
    expect(find(root, 'send')!.properties.disabled).toBe(true);
    for (const absent of ['not-configured', 'notice', 'error', 'confirmation', 'handoff', 'trace', 'stop']) {
      expect(find(root, absent), absent).toBeUndefined();
    }
  });

  it('placement: the fixed panel by default, inline when asked', () => {
    const pling = createPling({ agent: { config: ready, llm: scriptedLlm([]) } });
    const { root } = mount(AgentDock, { pling, placement: 'inline' });
    expect(find(root, 'dock')!.attributes['data-placement']).toBe('inline');
  });

  it('Enter sends (Shift+Enter does not); the reply streams in, then is stored; session-event is emitted', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const llm = scriptedLlm([
      async (request) => {
        request.onTextDelta?.('Hel');
        await gate;
        request.onTextDelta?.('lo');
        return { content: 'Hello' };
      },
    ]);
    const pling = createPling({ agent: { config: ready, llm } });
    const events: string[] = [];
    const { root } = mount(AgentDock, { pling, onSessionEvent: (event: { type: string }) => events.push(event.type) });
    await type(root, 'line one', 'Enter', true);
    expect(llm.requests).toHaveLength(0);
    expect(find(root, 'send')!.properties.disabled).toBe(false);
    await type(root, 'hi');
    expect(find(root, 'input')!.properties.value).toBe('');
    await rendered(() => find(root, 'stop') !== undefined || llm.requests.length > 0, 'the request');
    await rendered(() => findAll(root, 'message').some((m) => m.attributes['data-streaming'] === 'true'), 'streaming');
    const streaming = findAll(root, 'message').at(-1)!;
    expect([streaming.attributes['data-role'], textOf(streaming)]).toEqual(['assistant', `${en.assistant}Hel`]);
    expect(find(root, 'stop')).toBeDefined();
    release();
    await rendered(() => find(root, 'stop') === undefined, 'the end of the run');
    const messages = findAll(root, 'message').map((m) => [m.attributes['data-role'], m.attributes['data-streaming']]);
    expect(messages).toEqual([
      ['user', undefined],
      ['assistant', undefined],
    ]);
    expect(textOf(findAll(root, 'message')[1]!)).toBe(`${en.assistant}Hello`);
    expect(events).toEqual(['message', 'text-delta', 'text-delta', 'message']);
  });

  it('a danger action asks first: approve runs the handler, the operation turns ok', async () => {
    const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'delete_todo', { index: 0 })] }, { content: 'Deleted.' }]);
    const pling = createPling({ agent: { config: ready, llm } });
    const todos = withTodos(pling);
    const { root } = mount(AgentDock, { pling });
    await type(root, 'delete milk');
    await rendered(() => pling.page.confirmations.getSnapshot().length === 1, 'the confirmation');
    const card = find(root, 'confirmation')!;
    expect(textOf(card)).toContain(en.confirm('delete_todo') + en.dangerMark);
    expect(textOf(card)).toContain('Deletes a todo');
    expect(textOf(card)).toContain('index: 0');
    expect(todos).toEqual(['milk', 'bread']);
    await trigger(find(card, 'approve')!, 'click');
    await rendered(() => llm.requests.length === 2 && find(root, 'stop') === undefined, 'the final reply');
    expect(todos).toEqual(['bread']);
    expect(find(root, 'confirmation')).toBeUndefined();
    expect(findAll(root, 'operation').map((op) => [op.attributes['data-status'], textOf(op)])).toEqual([
      ['ok', en.toolDone('delete_todo')],
    ]);
    expect(textOf(findAll(root, 'message').at(-1)!)).toBe(`${en.assistant}Deleted.`);
  });

  it('reject: the model gets CONFIRMATION_REJECTED, nothing changes, the operation shows failed', async () => {
    const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'delete_todo', { index: 0 })] }, { content: 'Kept it.' }]);
    const pling = createPling({ agent: { config: ready, llm } });
    const todos = withTodos(pling);
    const { root } = mount(AgentDock, { pling });
    await type(root, 'delete milk');
    await rendered(() => pling.page.confirmations.getSnapshot().length === 1, 'the confirmation');
    await trigger(find(root, 'reject')!, 'click');
    await rendered(() => llm.requests.length === 2 && find(root, 'stop') === undefined, 'the final reply');
    expect(todos).toEqual(['milk', 'bread']);
    const toolMessage = llm.requests[1]!.messages.find((message) => message.role === 'tool')!;
    expect(toolMessage.content).toContain('CONFIRMATION_REJECTED');
    expect(findAll(root, 'operation').map((op) => op.attributes['data-status'])).toEqual(['failed']);
  });

  it('a handoff shows with its reason until resolved', async () => {
    const pling = createPling({ agent: { config: ready, llm: scriptedLlm([]) } });
    const { root } = mount(AgentDock, { pling });
    pling.page.handoffs.request({ reason: 'call the customer' });
    await nextTick();
    expect(textOf(find(root, 'handoff')!)).toContain(en.handoff('call the customer'));
    await trigger(find(root, 'resolve-handoff')!, 'click');
    expect(find(root, 'handoff')).toBeUndefined();
  });

  it('not configured: the readiness message shows, and a send only shows NOT_CONFIGURED', async () => {
    const pling = createPling({ agent: { config: { locale: 'en' } } });
    const { root } = mount(AgentDock, { pling });
    const notice = find(root, 'not-configured')!;
    expect(textOf(notice)).toContain(en.notConfigured);
    expect(textOf(notice)).toMatch(/baseUrl/);
    await type(root, 'hello');
    await rendered(() => find(root, 'error') !== undefined, 'the error');
    expect(textOf(find(root, 'error')!)).toContain('NOT_CONFIGURED');
    expect(textOf(find(root, 'error')!)).toMatch(new RegExp(`^${en.errorSummary('NOT_CONFIGURED')}`));
    expect(findAll(root, 'message')).toEqual([]);
  });

  it('config prop: merged over createPling’s config when the runtime starts (maxTurns 1 wins, the rest stays)', async () => {
    const llm = scriptedLlm([
      { toolCalls: [toolCall('c1', 'delete_todo', { index: 5 })] },
      { toolCalls: [toolCall('c2', 'delete_todo', { index: 5 })] },
    ]);
    const pling = createPling({ agent: { config: { ...ready, limits: { maxTurns: 5, keepRecent: 8 } }, llm } });
    pling.register({
      id: 'delete_todo',
      description: 'Deletes',
      parameters: { type: 'object' },
      handler: () => 0,
      confirm: 'never',
    });
    const { root } = mount(AgentDock, { pling, config: { limits: { maxTurns: 1 } } });
    expect(pling.runtime().config.limits).toMatchObject({ maxTurns: 1, keepRecent: 8 });
    await type(root, 'go');
    await rendered(() => find(root, 'notice') !== undefined, 'the max-turns notice');
    expect(llm.requests).toHaveLength(1);
    expect(textOf(find(root, 'notice')!)).toMatch(/1/);
  });

  it('debug: the bounded trace lists the requests sent, numbered, each expandable to roles and text', async () => {
    const llm = scriptedLlm([{ content: 'one' }, { content: 'two' }, { content: 'three' }]);
    const pling = createPling({ agent: { config: ready, llm } });
    const { root } = mount(AgentDock, { pling, debug: { maxCalls: 2 } });
    expect(pling.runtime().config.trace).toEqual({ maxCalls: 2 });
    for (const text of ['a', 'b', 'c']) {
      await type(root, text);
      await rendered(() => find(root, 'stop') === undefined && findAll(root, 'message').length % 2 === 0, text);
    }
    await rendered(() => llm.requests.length === 3 && findAll(root, 'message').length === 6, 'three replies');
    const trace = find(root, 'trace')!;
    expect(find(root, 'operations')!.children).toContain(trace);
    const calls = findAll(trace, 'trace-call');
    expect(calls.map((call) => textOf(call.children[0]!.children[0]!))).toEqual([
      en.traceCall(2, 'test-model', 4, 1),
      en.traceCall(3, 'test-model', 6, 1),
    ]);
    const lastMessages = calls[1]!.children[0]!.children[1]!.children;
    expect(lastMessages.map((item) => item.attributes['data-role'])).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(textOf(lastMessages.at(-1)!)).toBe('user c');
  });

  it('stop cancels the pending reply; clear empties chat, operations and trace', async () => {
    const llm = scriptedLlm([{ content: 'first' }, untilAborted]);
    const pling = createPling({ agent: { config: ready, llm } });
    const { root } = mount(AgentDock, { pling, debug: { maxCalls: 4 } });
    await type(root, 'one');
    await rendered(() => findAll(root, 'message').length === 2 && find(root, 'stop') === undefined, 'the first reply');
    await type(root, 'two');
    await rendered(() => find(root, 'stop') !== undefined && llm.requests.length === 2, 'the pending request');
    await trigger(find(root, 'stop')!, 'click');
    await rendered(() => find(root, 'notice') !== undefined, 'the cancelled notice');
    expect(find(root, 'stop')).toBeUndefined();
    expect(pling.session().status()).toBe('cancelled');
    await trigger(find(root, 'clear')!, 'click');
    expect(findAll(root, 'message')).toEqual([]);
    expect(textOf(find(root, 'messages')!)).toBe(en.empty);
    expect(find(root, 'notice')).toBeUndefined();
    expect(findAll(root, 'trace-call')).toEqual([]);
    expect(pling.session().events()).toEqual([]);
  });

  it('without any Pling instance it fails with PLING_NOT_PROVIDED; unmounting gives back every subscription it took', async () => {
    const errors: unknown[] = [];
    const Host = defineComponent({ render: () => h(AgentDock) });
    mount(Host, {}, (app) => {
      app.config.errorHandler = (error) => void errors.push(error);
    });
    expect(String(errors[0])).toMatch(/PLING_NOT_PROVIDED/);

    const pling = createPling({ agent: { config: ready, llm: scriptedLlm([{ content: 'late' }]) } });
    // Every subscription the dock takes must be given back when it unmounts.
    const removers: Array<ReturnType<typeof vi.fn>> = [];
    const track = <Target extends object>(target: Target, method: keyof Target) => {
      const original = (target[method] as (...args: unknown[]) => () => void).bind(target);
      Object.assign(target, {
        [method]: (...args: unknown[]) => {
          const remover = vi.fn(original(...args));
          removers.push(remover);
          return remover;
        },
      });
    };
    track(pling, 'onSessionEvent');
    track(pling, 'onEvent');
    track(pling.session(), 'subscribe');
    track(pling.page.confirmations, 'subscribe');
    track(pling.page.handoffs, 'subscribe');
    const mounted = mount(AgentDock, { pling });
    expect(removers.length).toBeGreaterThanOrEqual(5);
    expect(removers.filter((remover) => remover.mock.calls.length > 0)).toEqual([]);
    mounted.unmount();
    expect(removers.filter((remover) => remover.mock.calls.length === 0)).toEqual([]);
  });
});
