import { PageError, sensitive } from '@plingjs/core';
import { describe, expect, it } from 'vitest';
import { defineComponent, effectScope, h, nextTick, reactive, ref } from 'vue';
import { createPling } from './create-pling.js';
import { scriptedLlm, toolCall } from './scripted-llm.case.js';
import { mount, textOf } from './test-renderer.case.js';
import { useAction } from './use-action.js';
import { useAgentSession } from './use-agent-session.js';
import { useObservable } from './use-observable.js';
import { usePageState } from './use-page-state.js';

const ready = { model: 'test-model', locale: 'en' as const };

describe('useAction and usePageState', () => {
  it('declare for the life of the component; a handler changing reactive state re-renders it', async () => {
    const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'add_todo', { title: 'milk' })] }, { content: 'Added.' }]);
    const pling = createPling({ agent: { config: ready, llm } });
    const TodoList = defineComponent({
      setup() {
        const todos = ref<string[]>([]);
        useAction({
          id: 'add_todo',
          description: 'Adds a todo',
          parameters: { type: 'object', properties: { title: { type: 'string' } } },
          handler: ({ title }) => {
            todos.value.push(String(title));
            return { count: todos.value.length };
          },
        });
        usePageState('todos', () => todos.value);
        return () =>
          h(
            'ul',
            todos.value.map((todo) => h('li', todo)),
          );
      },
    });
    const mounted = mount(TodoList, {}, (app) => app.use(pling));
    expect(pling.page.actions.getSnapshot().map((action) => action.id)).toEqual(['add_todo']);
    await pling.session().send('add milk');
    await nextTick();
    expect(textOf(mounted.root)).toBe('milk');
    // The state getter is read at each turn: the second request's prompt shows the todo the first call added.
    expect(String(llm.requests[1]!.messages[0]!.content)).toContain('["milk"]');
    mounted.unmount();
    expect(pling.page.actions.getSnapshot()).toEqual([]);
    expect(pling.page.snapshot()).not.toContain('todos');
  });

  it('page state straight from reactive data keeps sensitive() values revealable for the handler', async () => {
    const llm = scriptedLlm([
      { toolCalls: [toolCall('c1', 'send_mail', { to: '[redacted:email]' })] },
      { content: 'Sent.' },
    ]);
    const pling = createPling({ agent: { config: ready, llm } });
    const sentTo: unknown[] = [];
    const scope = effectScope();
    scope.run(() => {
      const customer = reactive({ name: 'Ann', email: sensitive('ann@example.com', 'email') });
      usePageState('customer', () => customer, pling);
      useAction(
        {
          id: 'send_mail',
          description: 'Sends a mail',
          parameters: { type: 'object', properties: { to: { type: 'string' } } },
          handler: ({ to }) => {
            sentTo.push(to);
            return { sent: true };
          },
        },
        pling,
      );
    });
    await pling.session().send('mail Ann');
    expect(sentTo).toEqual(['ann@example.com']);
    expect(String(llm.requests[0]!.messages[0]!.content)).not.toContain('ann@example.com');
    scope.stop();
    expect(pling.page.actions.getSnapshot()).toEqual([]);
  });

  it('outside setup() or an effect scope they refuse with NO_ACTIVE_SCOPE instead of leaking a registration', () => {
    const pling = createPling();
    const action = { id: 'noop', description: 'Nothing', parameters: { type: 'object' }, handler: () => null };
    expect(() => useAction(action, pling)).toThrow(PageError);
    expect(() => useAction(action, pling)).toThrow(/NO_ACTIVE_SCOPE: .*pling\.register/);
    expect(() => usePageState('x', () => 1, pling)).toThrow(/NO_ACTIVE_SCOPE/);
    expect(pling.page.actions.getSnapshot()).toEqual([]);
  });
});

describe('useAgentSession and useObservable', () => {
  it('follow the snapshot while the scope lives and stop when it ends', async () => {
    const pling = createPling({ agent: { config: ready, llm: scriptedLlm([{ content: 'one' }, { content: 'two' }]) } });
    const scope = effectScope();
    const session = scope.run(() => useAgentSession(undefined, pling))!;
    const telemetry = scope.run(() => useObservable(pling.runtime().telemetry))!;
    expect(session.value.events).toEqual([]);
    await pling.session().send('hi');
    expect(session.value.events.map((event) => event.type)).toEqual(['message', 'message']);
    expect(session.value.status).toBe('idle');
    expect(telemetry.value.modelCalls).toBe(1);
    scope.stop();
    await pling.session().send('again');
    expect(session.value.events).toHaveLength(2);
    expect(telemetry.value.modelCalls).toBe(1);
  });
});
