import type { RuntimeEvent } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { createPlingCore } from './create-pling-core.js';
import { nextConfirmation, scriptedLlm, toolCall } from './test-helpers.case.js';

const ready = { model: 'test-model' };

describe('createPlingCore', () => {
  it('wires the page to the runtime: its actions are the tools, its snapshot the prompt, one locale for both', async () => {
    const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'add_todo', { title: 'milk' })] }, { content: 'added' }]);
    const core = createPlingCore({ agent: { config: { ...ready, locale: 'en' }, llm }, page: { title: 'Todos' } });
    const todos: string[] = [];
    core.page.state('todos', () => todos);
    core.page.register(
      defineAction({
        id: 'add_todo',
        description: 'Adds a todo',
        parameters: { type: 'object', properties: { title: { type: 'string' } } },
        handler: ({ title }) => {
          todos.push(String(title));
          return { count: todos.length };
        },
      }),
    );
    expect(core.page.locale).toBe('en');
    expect(core.started).toBe(false);
    const result = await core.session().send('add milk');
    expect(result.outcome).toBe('completed');
    expect(todos).toEqual(['milk']);
    expect(core.started).toBe(true);
    const [first] = llm.requests;
    expect(first!.tools.map((tool) => tool.name).sort()).toEqual(['add_todo', 'handoff']);
    expect(String(first!.messages[0]!.content)).toContain('# Current page: Todos');
  });

  it('fans every runtime event out to createPling’s onEvent and to each listener until it is removed', async () => {
    const seen: string[] = [];
    const core = createPlingCore({
      agent: {
        config: ready,
        llm: scriptedLlm([{ content: 'one' }, { content: 'two' }]),
        onEvent: (e) => seen.push(`option:${e.type}`),
      },
    });
    const events: RuntimeEvent[] = [];
    const remove = core.onEvent((event) => events.push(event));
    await core.session().send('hi');
    expect(events.map((event) => event.type)).toContain('message');
    expect(seen).toContain('option:message');
    remove();
    const before = events.length;
    await core.session().send('again');
    expect(events).toHaveLength(before);
  });

  it('runtime(overrides): a dock’s config merges item by item once; a different one later is RUNTIME_ALREADY_STARTED, a locale change INVALID_CONFIG', () => {
    const core = createPlingCore({ agent: { config: { ...ready, limits: { maxTurns: 100 } }, llm: scriptedLlm([]) } });
    expect(() => core.runtime({ locale: 'en' })).toThrow(/locale/);
    const runtime = core.runtime({ limits: { keepRecent: 8 } });
    expect(runtime.config.limits).toMatchObject({ maxTurns: 100, keepRecent: 8, contextTokens: 8192 });
    expect(core.runtime()).toBe(runtime);
    expect(core.runtime({ limits: { keepRecent: 8 } })).toBe(runtime);
    expect(() => core.runtime({ limits: { keepRecent: 3 } })).toThrow(
      expect.objectContaining({
        code: 'RUNTIME_ALREADY_STARTED',
        message: expect.stringContaining('limits.keepRecent'),
      }),
    );
  });

  it('a bad config fails at creation with INVALID_CONFIG, before any page or runtime exists', () => {
    expect(() => createPlingCore({ agent: { config: { limits: { maxTurns: 0 } } } })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });

  it('clear() is the built-in clear button: session reset, queues cleared, telemetry reset', async () => {
    const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'wipe')] }]);
    const core = createPlingCore({ agent: { config: ready, llm } });
    core.page.register(
      defineAction({
        id: 'wipe',
        description: 'Wipes',
        parameters: { type: 'object' },
        danger: true,
        handler: () => 'ok',
      }),
    );
    const run = core.session().send('wipe it');
    await nextConfirmation(core.page);
    expect(core.page.confirmations.getSnapshot()).toHaveLength(1);
    core.clear();
    await run;
    expect(core.page.confirmations.getSnapshot()).toHaveLength(0);
    expect(core.session().history().messages).toHaveLength(0);
    expect(core.runtime().telemetry.snapshot().modelCalls).toBe(0);
  });

  it('onStart tells once when the runtime is created; register/state/onSessionEvent are the page and event shortcuts', async () => {
    const core = createPlingCore({ agent: { config: ready, llm: scriptedLlm([{ content: 'hi' }]) } });
    let started = 0;
    const removeStart = core.onStart(() => started++);
    const removeAction = core.register(
      defineAction({ id: 'ping', description: 'Pings', parameters: { type: 'object' }, handler: () => 'pong' }),
    );
    const removeState = core.state('count', () => 3);
    expect(core.page.actions.get('ping')).toBeDefined();
    expect(core.page.snapshot()).toContain('count');
    const types: string[] = [];
    core.onSessionEvent((event) => types.push(event.type));
    expect(started).toBe(0);
    await core.session().send('hello');
    core.runtime();
    expect(started).toBe(1);
    expect(types).toContain('message');
    removeStart();
    removeAction();
    removeState();
    expect(core.unregister('ping')).toBe(false);
    expect(core.page.snapshot()).not.toContain('count');
  });
});
