import { describe, expect, it } from 'vitest';
import { PlingError } from './errors.js';
import { HookRegistry } from './hooks.js';
import { createAgentRuntime } from './runtime.js';
import { manualClock, scriptedLlm } from './test-helpers.case.js';

describe('AgentRuntime', () => {
  it('每个已挂载的运行时只解析一次配置: later env changes do not reach it', () => {
    const env: Record<string, string> = { VITE_AGENT_MODEL: 'first' };
    const runtime = createAgentRuntime({ env, llm: scriptedLlm([]) });
    env.VITE_AGENT_MODEL = 'second';
    expect(runtime.config.model).toBe('first');
    expect(Object.isFrozen(runtime.config)).toBe(true);
    expect(runtime.session()).toBe(runtime.session('default'));
    expect(runtime.session('other')).not.toBe(runtime.session());
  });

  it('还没发请求就显示 NOT_CONFIGURED: send() reports it and sends nothing', async () => {
    const runtime = createAgentRuntime({ config: { baseUrl: 'https://api.example/v1', model: 'm' } });
    expect(runtime.readiness.ready).toBe(false);
    const session = runtime.session();
    const result = await session.send('hi');
    expect(result.outcome).toBe('error');
    expect(result.error?.code).toBe('NOT_CONFIGURED');
    expect(session.events()).toEqual([expect.objectContaining({ type: 'error', code: 'NOT_CONFIGURED' })]);
    expect(runtime.telemetry.snapshot().modelCalls).toBe(0);
  });

  it('out-of-range limits are rejected when the runtime is created', () => {
    expect(() => createAgentRuntime({ llm: scriptedLlm([]), config: { limits: { maxTurns: 0 } } })).toThrow(PlingError);
  });

  it('钩子挂在运行时: a given HookRegistry is the runtime’s, shared by every session', () => {
    const hooks = new HookRegistry();
    expect(createAgentRuntime({ hooks, llm: scriptedLlm([]) }).hooks).toBe(hooks);
  });

  it('telemetry 汇总 tokens from the estimator when the server reports no usage; trace is off by default', async () => {
    const runtime = createAgentRuntime({
      config: { model: 'm', pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 1 } },
      llm: scriptedLlm([
        { content: 'an answer of a few tokens' },
        { content: 'x', usage: { promptTokens: 7, completionTokens: 3 } },
      ]),
      clock: manualClock(),
    });
    await runtime.session().send('question');
    const estimated = runtime.telemetry.snapshot();
    expect(estimated.estimatedTokenCalls).toBe(1);
    expect(estimated.promptTokens).toBeGreaterThan(0);
    expect(estimated.completionTokens).toBeGreaterThan(0);
    await runtime.session().send('again');
    expect(runtime.telemetry.snapshot().promptTokens).toBe(estimated.promptTokens + 7);
    expect(runtime.telemetry.snapshot().estimatedCost).toBeGreaterThan(0);
    expect(runtime.trace.enabled).toBe(false);
    expect(runtime.trace.calls()).toEqual([]);
  });

  it('trace 保存最近几次真实模型请求, 包括 messages 与 tools, when enabled with maxCalls', async () => {
    const runtime = createAgentRuntime({
      config: { model: 'm', trace: { maxCalls: 1 } },
      llm: scriptedLlm([{ content: 'a' }, { content: 'b' }]),
      tools: [{ name: 't', description: 'd', parameters: {}, execute: () => null }],
      clock: manualClock(),
    });
    await runtime.session().send('one');
    await runtime.session().send('two');
    const [call] = runtime.trace.calls();
    expect(runtime.trace.calls()).toHaveLength(1);
    expect(call!.messages.at(-1)!.content).toBe('two');
    expect(call!.tools).toEqual([{ name: 't', description: 'd', parameters: {} }]);
  });

  it('dispose() cancels runs and refuses new sessions with DISPOSED', () => {
    const runtime = createAgentRuntime({ llm: scriptedLlm([]) });
    runtime.dispose();
    expect(() => runtime.session()).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });
});
