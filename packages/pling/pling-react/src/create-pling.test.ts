import type { LlmClient, ModelRequest, RuntimeEvent } from '@plingjs/agent';
import { defineAction, sensitive } from '@plingjs/core';
import { describe, expect, it } from 'vitest';
import { createPling } from './create-pling.js';

function echoLlm(): LlmClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      request.onTextDelta?.('re');
      request.onTextDelta?.('ply');
      return { content: 'reply', toolCalls: [] };
    },
  };
}

describe('createPling', () => {
  it("takes the spec's mounting example and resolves the runtime lazily, once", () => {
    const pling = createPling({
      agent: { config: { limits: { maxTurns: 100, contextTokens: 16_384, keepRecent: 8 } } },
    });
    let started = 0;
    pling.onStart(() => started++);
    expect(pling.started).toBe(false);
    expect(pling.locale).toBe('zh-CN');
    const runtime = pling.runtime({ model: 'from-the-dock' });
    expect(pling.started).toBe(true);
    expect(runtime.config.limits).toMatchObject({
      maxTurns: 100,
      contextTokens: 16_384,
      keepRecent: 8,
      compactRatio: 0.8,
    });
    expect(runtime.config.model).toBe('from-the-dock');
    expect(pling.session()).toBe(runtime.session('default'));
    expect(() => pling.runtime({ model: 'another' })).toThrow(
      expect.objectContaining({ code: 'RUNTIME_ALREADY_STARTED' }),
    );
    expect(started).toBe(1);
  });

  it('tells start listeners when session() or clear() creates the runtime, and lets them go', () => {
    const bySession = createPling();
    const calls: string[] = [];
    const remove = bySession.onStart(() => calls.push('session'));
    bySession.session('s1');
    bySession.session('s2');
    remove();
    const byClear = createPling();
    byClear.onStart(() => calls.push('clear'));
    byClear.clear();
    expect(calls).toEqual(['session', 'clear']);
  });

  it('register, unregister and state are the page’s; onSessionEvent gets every runtime event', async () => {
    const llm = echoLlm();
    const seen: RuntimeEvent[] = [];
    const pling = createPling({ agent: { config: { model: 'm', locale: 'en' }, llm, onEvent: (e) => seen.push(e) } });
    const remove = pling.register(
      defineAction({ id: 'add_todo', description: 'Adds a todo', parameters: { type: 'object' }, handler: () => 1 }),
    );
    pling.state('customer', () => ({ email: sensitive('a@b.c', 'email') }));
    expect(pling.page.actions.list().map((action) => action.id)).toEqual(['add_todo']);
    const types: string[] = [];
    const stop = pling.onSessionEvent((event) => types.push(event.type));
    await pling.session().send('hello');
    stop();
    await pling.session().send('again');
    expect(types).toEqual(['message', 'text-delta', 'text-delta', 'message']);
    expect(seen.filter((event) => event.type === 'message')).toHaveLength(4);
    const system = String(llm.requests[0]?.messages[0]?.content);
    expect(system).toContain('[redacted:email]');
    expect(system).not.toContain('a@b.c');
    remove();
    expect(pling.unregister('add_todo')).toBe(false);
    expect(llm.requests[0]?.tools.map((tool) => tool.name)).toContain('add_todo');
  });

  it('clear() is the clear button: session reset, queues cleared, telemetry reset', async () => {
    const pling = createPling({ agent: { config: { model: 'm' }, llm: echoLlm() } });
    await pling.session().send('hello');
    pling.page.handoffs.request({ reason: 'call me' });
    expect(pling.runtime().telemetry.snapshot().modelCalls).toBe(1);
    pling.clear();
    expect(pling.session().events()).toEqual([]);
    expect(pling.page.handoffs.getSnapshot()).toEqual([]);
    expect(pling.runtime().telemetry.snapshot().modelCalls).toBe(0);
  });

  it('fails at createPling for a bad config', () => {
    expect(() => createPling({ agent: { config: { limits: { maxTurns: 0 } } } })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });
});
