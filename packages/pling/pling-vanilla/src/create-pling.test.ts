// createPling without a DOM (the dock itself is tested in Chromium): the spec's example, the page helpers reaching
// the model, onSessionEvent, the runtime's configuration and clear/dispose.
import type { LlmClient, ModelRequest } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { createPling } from './create-pling.js';

/** Answers from a list (then 'ok'), streaming each answer as two deltas, and records every request. */
function recordingLlm(answers: string[] = []) {
  const requests: ModelRequest[] = [];
  const llm: LlmClient = {
    async complete(request) {
      requests.push(request);
      const content = answers.shift() ?? 'ok';
      request.onTextDelta?.(content.slice(0, 2));
      request.onTextDelta?.(content.slice(2));
      return { content, toolCalls: [] };
    },
  };
  return { llm, requests };
}

const ready = { model: 'test-model', locale: 'en' as const };

describe('createPling (vanilla)', () => {
  it('runs the spec example: config, onEvent, and NOT_CONFIGURED until baseUrl and model are given', async () => {
    const warnings: string[] = [];
    const pling = createPling({
      agent: {
        config: { limits: { maxTurns: 100, contextTokens: 16_384, keepRecent: 8 } },
        onEvent(event) {
          if (event.type === 'error') warnings.push(event.code);
        },
      },
    });
    expect(pling.locale).toBe('zh-CN');
    const runtime = pling.runtime();
    expect(runtime.config.limits).toMatchObject({
      maxTurns: 100,
      contextTokens: 16_384,
      keepRecent: 8,
      compactRatio: 0.8,
    });
    expect(runtime.readiness.ready).toBe(false);
    await pling.session().send('hello');
    expect(warnings).toEqual(['NOT_CONFIGURED']);
  });

  it('resolves defaults < environment < explicit config < the dock config, limits and retry item by item', () => {
    const pling = createPling({
      agent: {
        env: { VITE_AGENT_BASE_URL: '/env/v1', VITE_AGENT_MODEL: 'env-model' },
        config: { model: 'explicit-model', limits: { maxTurns: 100 } },
      },
    });
    const { config, readiness } = pling.runtime({ limits: { keepRecent: 8 }, retry: { maxRetries: 2 } });
    expect(config).toMatchObject({
      baseUrl: '/env/v1',
      model: 'explicit-model',
      temperature: 0.3,
      limits: { maxTurns: 100, keepRecent: 8, contextTokens: 8192 },
      retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 4000 },
    });
    expect(readiness.ready).toBe(true);
  });

  it('register, state and unregister change what the model is offered and shown, from the next turn', async () => {
    const { llm, requests } = recordingLlm();
    const pling = createPling({ agent: { config: ready, llm } });
    const todos = ['milk'];
    const removeState = pling.state('todos', () => todos);
    const removeAdd = pling.register({
      id: 'add_todo',
      description: 'Adds a todo',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      handler: () => undefined,
    });
    pling.register({
      id: 'delete_todo',
      description: 'Deletes a todo',
      parameters: { type: 'object' },
      danger: true,
      handler: () => undefined,
    });
    await pling.session().send('one');
    removeAdd();
    removeState();
    expect(pling.unregister('delete_todo')).toBe(true);
    expect(pling.unregister('delete_todo')).toBe(false);
    await pling.session().send('two');

    const offered = (request: ModelRequest) =>
      request.tools.map((tool) => tool.name).filter((name) => name !== 'handoff');
    const prompt = (request: ModelRequest) => String(request.messages[0]?.content);
    expect(offered(requests[0]!)).toEqual(['add_todo', 'delete_todo']);
    expect(prompt(requests[0]!)).toContain('["milk"]');
    expect(offered(requests[1]!)).toEqual([]);
    expect(prompt(requests[1]!)).not.toContain('milk');
    expect(pling.page.actions.list()).toEqual([]);
  });

  it('onSessionEvent gets every session event and text delta of every session until removed', async () => {
    const { llm } = recordingLlm(['Hello', 'Again']);
    const fromOptions: string[] = [];
    const pling = createPling({ agent: { config: ready, llm, onEvent: (event) => fromOptions.push(event.type) } });
    const seen: string[] = [];
    const remove = pling.onSessionEvent((event) =>
      seen.push(
        event.type === 'text-delta' ? `${event.sessionId}:delta:${event.text}` : `${event.sessionId}:${event.type}`,
      ),
    );
    await pling.session().send('hi');
    await pling.session('other').send('hi');
    remove();
    await pling.session().send('ignored');
    expect(seen).toEqual([
      'default:message',
      'default:delta:He',
      'default:delta:llo',
      'default:message',
      'other:message',
      'other:delta:Ag',
      'other:delta:ain',
      'other:message',
    ]);
    expect(fromOptions.length).toBeGreaterThan(seen.length);
  });

  it('runtime(overrides) is created once with the overrides merged', () => {
    const { llm } = recordingLlm();
    const pling = createPling({ agent: { config: { ...ready, retry: { maxRetries: 1 } }, llm } });
    const runtime = pling.runtime({ maxTokens: 64, retry: { baseDelayMs: 100 } });
    expect(runtime.config).toMatchObject({ maxTokens: 64, retry: { maxRetries: 1, baseDelayMs: 100 } });
    expect(pling.runtime()).toBe(runtime);
    expect(() => pling.runtime({ maxTokens: 65 })).toThrow(
      expect.objectContaining({ code: 'RUNTIME_ALREADY_STARTED' }),
    );
    expect(pling.session()).toBe(runtime.session());
  });

  it('clear resets the session and settles a pending confirmation; dispose ends the runtime', async () => {
    let calls = 0;
    const llm: LlmClient = {
      async complete() {
        calls++;
        const call = { id: 'c1', type: 'function' as const, function: { name: 'delete_todo', arguments: '{}' } };
        return calls === 1 ? { content: '', toolCalls: [call] } : { content: 'ok', toolCalls: [] };
      },
    };
    const pling = createPling({ agent: { config: ready, llm } });
    pling.register({
      id: 'delete_todo',
      description: 'Deletes a todo',
      parameters: { type: 'object' },
      danger: true,
      handler: () => {
        throw new Error('must not run');
      },
    });
    const sent = pling.session().send('delete it');
    await new Promise<void>((resolve) => {
      const stop = pling.page.confirmations.subscribe(() => {
        if (pling.page.confirmations.getSnapshot().length > 0) resolve(stop());
      });
    });

    pling.clear();

    expect(pling.page.confirmations.getSnapshot()).toEqual([]);
    await sent;
    expect(pling.session().events()).toEqual([]);
    expect(pling.runtime().telemetry.snapshot().modelCalls).toBe(0);
    pling.dispose();
    expect(() => pling.session()).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });
});
