import { HookRegistry, type RuntimeEvent } from '@plingjs/agent';
import { PageError } from '@plingjs/core';
import { describe, expect, it, vi } from 'vitest';
import { createApp, defineComponent, getCurrentInstance, h } from 'vue';
import { createPling } from './create-pling.js';
import { PLING_KEY } from './pling-key.js';
import { scriptedLlm, toolCall } from './scripted-llm.case.js';
import { mount } from './test-renderer.case.js';
import { usePling } from './use-pling.js';

describe('createPling', () => {
  it('the spec’s mounting example: limits and retry merge item by item over the defaults; onEvent sees errors', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // Verbatim from the spec (接入运行时), apart from the import path.
      const pling = createPling({
        agent: {
          config: {
            limits: { maxTurns: 100, contextTokens: 16_384, keepRecent: 8 },
            retry: { maxRetries: 2 },
          },
          onEvent(event) {
            if (event.type === 'error') console.warn(event.code, event.message);
          },
        },
      });
      const { config } = pling.runtime();
      expect(config.limits).toEqual({
        maxTurns: 100,
        contextTokens: 16_384,
        keepRecent: 8,
        reserveForOutput: 1024,
        compactRatio: 0.8,
      });
      expect(config.retry).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 4000 });
      // No baseUrl or model anywhere: the send is refused with NOT_CONFIGURED, which reaches onEvent.
      await pling.session().send('你好');
      expect(warn).toHaveBeenCalledWith('NOT_CONFIGURED', expect.stringContaining('baseUrl'));
    } finally {
      warn.mockRestore();
    }
  });

  it('the spec’s hooks example: PreToolUse blocks delete*, PostToolUse masks the email the model reads', async () => {
    // Verbatim from the spec (工具生命周期钩子), apart from the import path and the test's model client.
    const hooks = new HookRegistry();

    const removePre = hooks.addPreToolUse(({ id }) => {
      if (id.startsWith('delete')) {
        return { blocked: true, reason: '删除需要单独的审批策略' };
      }
    });

    const removePost = hooks.addPostToolUse(({ result }) => {
      if ('error' in result) return;
      return { result: { ...(result.result as Record<string, unknown>), email: '[redacted]' } };
    });

    const llm = scriptedLlm([
      { toolCalls: [toolCall('c1', 'delete_todo', { id: 1 }), toolCall('c2', 'get_customer')] },
      { content: '完成' },
    ]);
    const pling = createPling({
      agent: { config: { limits: { maxTurns: 100 }, model: 'test-model' }, hooks, llm },
    });
    const deleteTodo = vi.fn();
    pling.register({
      id: 'delete_todo',
      description: 'Deletes a todo',
      parameters: { type: 'object' },
      handler: deleteTodo,
    });
    pling.register({
      id: 'get_customer',
      description: 'Reads the customer',
      parameters: { type: 'object' },
      handler: () => ({ name: 'Ann', email: 'ann@example.com' }),
    });
    const events: RuntimeEvent[] = [];
    pling.onSessionEvent((event) => events.push(event));
    await pling.session().send('删掉第一条，再查一下客户');
    expect(deleteTodo).not.toHaveBeenCalled();
    expect(events).toContainEqual(expect.objectContaining({ type: 'blocked', reason: '删除需要单独的审批策略' }));
    const toolMessages = llm.requests[1]!.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => JSON.parse(message.content))).toEqual([
      { error: { code: 'HOOK_BLOCKED', message: '删除需要单独的审批策略' } },
      { result: { name: 'Ann', email: '[redacted]' } },
    ]);

    // 所属插件或策略模块卸载时调用。
    removePre();
    removePost();
    await expect(
      hooks.runPreToolUse({ id: 'delete_todo', toolName: 'delete_todo', arguments: {}, turn: 1 }),
    ).resolves.toBe(undefined);
  });

  it('is a Vue plugin: app.use(pling) provides it to usePling() and as this.$pling', () => {
    const pling = createPling();
    let injected: unknown;
    let global: unknown;
    const Probe = defineComponent({
      setup() {
        injected = usePling();
        global = getCurrentInstance()?.proxy?.$pling;
        return () => h('p');
      },
    });
    const mounted = mount(Probe, {}, (app) => app.use(pling));
    expect(injected).toBe(pling);
    expect(global).toBe(pling);
    mounted.unmount();
    const app = createApp({}).use(pling);
    expect(app.runWithContext(() => usePling())).toBe(pling);
    expect(app._context.provides[PLING_KEY as symbol]).toBe(pling);
  });

  it('usePling() without an installed or explicit instance is PLING_NOT_PROVIDED, saying how to fix it', () => {
    const attempt = () => usePling();
    expect(attempt).toThrow(PageError);
    expect(attempt).toThrow(/PLING_NOT_PROVIDED: .*app\.use\(pling\)/);
    const explicit = createPling();
    expect(usePling(explicit)).toBe(explicit);
  });

  it('register, unregister and state act on the page; onSessionEvent until removed; clear() resets the session', async () => {
    const llm = scriptedLlm([{ content: 'one' }, { content: 'two' }]);
    const pling = createPling({ agent: { config: { model: 'm', locale: 'en' }, llm }, page: { title: 'Todos' } });
    expect(pling.locale).toBe('en');
    const remove = pling.register({
      id: 'add_todo',
      description: 'Adds',
      parameters: { type: 'object' },
      handler: () => 1,
    });
    const removeState = pling.state('todos', () => ['milk']);
    expect(pling.page.actions.getSnapshot().map((action) => action.id)).toEqual(['add_todo']);
    expect(pling.page.snapshot()).toContain('["milk"]');
    remove();
    expect(pling.unregister('add_todo')).toBe(false);
    removeState();
    expect(pling.page.snapshot()).not.toContain('milk');

    const seen: string[] = [];
    const stop = pling.onSessionEvent((event) => seen.push(event.type));
    expect(pling.started).toBe(false);
    await pling.session().send('hi');
    expect(pling.started).toBe(true);
    expect(seen).toEqual(['message', 'message']);
    stop();
    await pling.session().send('again');
    expect(seen).toHaveLength(2);
    expect(pling.session().events()).toHaveLength(4);
    pling.clear();
    expect(pling.session().events()).toEqual([]);
    expect(pling.runtime().telemetry.snapshot().modelCalls).toBe(0);
    pling.dispose();
  });
});
