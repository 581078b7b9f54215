import { type Message, validateProviderSequence } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import type { AgentConfig } from './config.js';
import { PlingError } from './errors.js';
import { HookRegistry, type ToolUseContext } from './hooks.js';
import type { ModelRequest, ModelResponse } from './llm-client.js';
import { createAgentRuntime } from './runtime.js';
import type { RuntimeEvent } from './session-events.js';
import { manualClock, type ScriptedReply, scriptedLlm, toolCall } from './test-helpers.case.js';
import { TEXTS } from './texts.js';
import type { AgentTool } from './tool.js';

function setup({
  replies = [],
  config = {},
  tools = [],
  hooks,
  buildSystemPrompt,
}: {
  replies?: ScriptedReply[];
  config?: AgentConfig;
  tools?: AgentTool[];
  hooks?: HookRegistry;
  buildSystemPrompt?: () => string;
} = {}) {
  const llm = scriptedLlm(replies);
  const clock = manualClock();
  const emitted: RuntimeEvent[] = [];
  const runtime = createAgentRuntime({
    config: { model: 'test-model', ...config },
    llm,
    tools,
    clock,
    onEvent: (event) => emitted.push(event),
    ...(hooks && { hooks }),
    ...(buildSystemPrompt && { buildSystemPrompt }),
  });
  return { runtime, session: runtime.session(), llm, clock, emitted };
}

function recordingTool(name: string, result: unknown = { ok: true }) {
  const calls: Record<string, unknown>[] = [];
  const tool: AgentTool = {
    name,
    description: `${name} on the page`,
    parameters: { type: 'object', properties: {} },
    execute: (args) => {
      calls.push(args);
      return result;
    },
  };
  return { tool, calls };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A reply that waits until the request is aborted, then rejects like fetch does. */
function untilAborted(started?: () => void): ScriptedReply {
  return (request: ModelRequest) =>
    new Promise<ModelResponse>((_, reject) => {
      started?.();
      request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
}

const toolMessages = (messages: readonly Message[]) => messages.filter((message) => message.role === 'tool');

function hooksWith(add: (hooks: HookRegistry) => void): HookRegistry {
  const hooks = new HookRegistry();
  add(hooks);
  return hooks;
}

describe('对象与计数口径: 轮次', () => {
  it('模型执行五轮工具、再给出最终回答, 就是六轮', async () => {
    const { tool } = recordingTool('next');
    const replies = [
      ...Array.from({ length: 5 }, (_, n) => ({ toolCalls: [toolCall(`c${n}`, 'next')] })),
      { content: 'final' },
    ];
    const { session, runtime } = setup({ replies, tools: [tool], config: { limits: { maxTurns: 6 } } });
    const result = await session.send('go');
    expect(result).toMatchObject({ outcome: 'completed', text: 'final', turns: 6 });
    expect(runtime.telemetry.snapshot()).toMatchObject({ modelCalls: 6, toolCalls: 5 });
  });

  it('常见失败: 已达到 maxTurns; 此类终止发出提示而非结构化错误', async () => {
    const { tool } = recordingTool('next');
    const replies = Array.from({ length: 5 }, (_, n) => ({ toolCalls: [toolCall(`c${n}`, 'next')] }));
    const { session, llm } = setup({ replies, tools: [tool], config: { limits: { maxTurns: 3 } } });
    const result = await session.send('go');
    expect(result).toMatchObject({ outcome: 'max-turns', turns: 3 });
    expect(llm.requests).toHaveLength(3);
    const events = session.events();
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'notice', code: 'max-turns' });
    expect(validateProviderSequence(session.history().messages)).toEqual([]);
  });

  it('网络失败后自动重试一次, 轮次不变, 但模型调用次数会增加', async () => {
    const failure = new PlingError({ code: 'NETWORK_ERROR', message: 'offline', retryable: true });
    const { session, runtime, clock, llm } = setup({ replies: [failure, { content: 'hi' }] });
    const result = await session.send('hello');
    expect(result).toMatchObject({ outcome: 'completed', turns: 1 });
    expect(llm.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([500]);
    expect(runtime.telemetry.snapshot()).toMatchObject({ modelCalls: 2, failedModelCalls: 1, retries: 1 });
    expect(session.events().find((event) => event.type === 'retry')).toMatchObject({ retry: 1, delayMs: 500 });
  });

  it('a failure that is not retryable ends the run with an error event', async () => {
    const failure = new PlingError({ code: 'MODEL_REQUEST_FAILED', message: 'bad key', status: 401 });
    const { session, llm } = setup({ replies: [failure] });
    const result = await session.send('hello');
    expect(result.outcome).toBe('error');
    expect(result.error?.code).toBe('MODEL_REQUEST_FAILED');
    expect(llm.requests).toHaveLength(1);
    expect(session.events().at(-1)).toMatchObject({ type: 'error', code: 'MODEL_REQUEST_FAILED' });
    expect(session.status()).toBe('idle');
  });
});

describe('会话生命周期', () => {
  it('send(input) 加入用户消息并运行循环; 工具结果回到模型', async () => {
    const { tool, calls } = recordingTool('add_todo', { id: 1 });
    const { session, llm } = setup({
      replies: [{ toolCalls: [toolCall('c1', 'add_todo', { title: 'milk' })] }, { content: 'added' }],
      tools: [tool],
    });
    await session.send('add milk');
    expect(calls).toEqual([{ title: 'milk' }]);
    const second = llm.requests[1]!;
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.parse(second.messages[3]!.content)).toEqual({ result: { id: 1 } });
    expect(second.tools).toEqual([
      { name: 'add_todo', description: 'add_todo on the page', parameters: tool.parameters },
    ]);
  });

  it('send() 串行执行, 后一次发送等待前一次结束', async () => {
    const gate = deferred<ModelResponse>();
    const firstStarted = deferred<void>();
    const { session, llm } = setup({
      replies: [
        () => {
          firstStarted.resolve();
          return gate.promise;
        },
        { content: 'second answer' },
      ],
    });
    const first = session.send('first');
    const second = session.send('second');
    await firstStarted.promise;
    for (let tick = 0; tick < 20; tick++) await Promise.resolve();
    expect(llm.requests).toHaveLength(1);
    expect(session.status()).toBe('running');
    gate.resolve({ content: 'first answer', toolCalls: [] });
    expect(await first).toMatchObject({ text: 'first answer' });
    expect(await second).toMatchObject({ text: 'second answer' });
    const contents = llm.requests[1]!.messages.slice(1).map((message) => message.content);
    expect(contents).toEqual(['first', 'first answer', 'second']);
    expect(session.status()).toBe('idle');
  });

  it('status() is running from the send() call on, not a task later, and back to idle when the run ends', async () => {
    const { session } = setup({ replies: [{ content: 'one' }, { content: 'two' }] });
    const statuses: string[] = [];
    session.subscribe(() => statuses.push(session.getSnapshot().status));
    const first = session.send('first');
    expect(session.status()).toBe('running');
    expect(session.getSnapshot().status).toBe('running');
    const second = session.send('second');
    await first;
    expect(session.status()).toBe('running'); // the second send is still to run
    await second;
    expect(session.status()).toBe('idle');
    expect(statuses.at(-1)).toBe('idle');
    expect(statuses.filter((status, index) => status !== statuses[index - 1])).toEqual(['running', 'idle']);
  });

  it('status(): a send queued and cancelled before it started is cancelled; one that cannot run ends idle', async () => {
    const { session } = setup();
    const queued = session.send('never runs');
    session.cancel();
    expect(session.status()).toBe('cancelled');
    expect(await queued).toMatchObject({ outcome: 'cancelled', turns: 0 });
    expect(session.status()).toBe('cancelled');
    const notConfigured = createAgentRuntime({ config: {} }).session();
    const refused = notConfigured.send('hello');
    expect(notConfigured.status()).toBe('running');
    expect(await refused).toMatchObject({ outcome: 'error', error: { code: 'NOT_CONFIGURED' } });
    expect(notConfigured.status()).toBe('idle');
    expect(notConfigured.getSnapshot().status).toBe('idle');
  });

  it('cancel() 中止正在进行的模型请求, 在下一个安全点退出; status() 返回 cancelled', async () => {
    const started = deferred<void>();
    const { session, llm, runtime } = setup({ replies: [untilAborted(() => started.resolve()), { content: 'later' }] });
    const running = session.send('long task');
    const queued = session.send('queued before cancel');
    await started.promise;
    session.cancel();
    expect(await running).toMatchObject({ outcome: 'cancelled' });
    expect(await queued).toMatchObject({ outcome: 'cancelled', turns: 0 });
    expect(session.status()).toBe('cancelled');
    expect(session.events().at(-1)).toMatchObject({ type: 'notice', code: 'cancelled' });
    expect(llm.requests).toHaveLength(1);
    expect(runtime.telemetry.snapshot()).toMatchObject({ modelCalls: 1, failedModelCalls: 0 });
    expect(await session.send('again')).toMatchObject({ outcome: 'completed', text: 'later' });
    expect(session.status()).toBe('idle');
  });

  it('cancel() during a batch of tool calls still answers every call, so the history stays valid', async () => {
    let session!: ReturnType<typeof setup>['session'];
    const stopper: AgentTool = {
      name: 'stop',
      description: 'cancels the session',
      parameters: {},
      execute: () => {
        session.cancel();
        return 'stopped';
      },
    };
    const { tool: other, calls } = recordingTool('other');
    const setupResult = setup({
      replies: [{ toolCalls: [toolCall('a', 'stop'), toolCall('b', 'other')] }],
      tools: [stopper, other],
    });
    session = setupResult.session;
    expect(await session.send('go')).toMatchObject({ outcome: 'cancelled' });
    expect(calls).toEqual([]);
    const results = toolMessages(session.history().messages).map((message) => JSON.parse(message.content));
    expect(results).toEqual([{ result: 'stopped' }, { error: expect.objectContaining({ code: 'CANCELLED' }) }]);
    expect(validateProviderSequence(session.history().messages)).toEqual([]);
  });

  it('cancel() ends a run held by host code that never settles (an action, a PreToolUse hook, checkBudget, the page prompt); the next send() runs', async () => {
    const never = () => new Promise<never>(() => {});
    const hanging: AgentTool = { name: 'hang', description: 'never returns', parameters: {}, execute: never };
    const cases: Array<{
      name: string;
      options: Partial<Parameters<typeof createAgentRuntime>[0]>;
      toolCall: boolean;
    }> = [
      { name: 'action', options: { tools: [hanging] }, toolCall: true },
      {
        name: 'PreToolUse',
        options: { tools: [recordingTool('hang').tool], hooks: hooksWith((hooks) => hooks.addPreToolUse(never)) },
        toolCall: true,
      },
      { name: 'checkBudget', options: { checkBudget: never }, toolCall: false },
      { name: 'page prompt', options: { buildSystemPrompt: never }, toolCall: false },
    ];
    for (const { name, options, toolCall: callsTool } of cases) {
      const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'hang')] }, { content: 'next answer' }]);
      const runtime = createAgentRuntime({ config: { model: 'test-model' }, llm, clock: manualClock(), ...options });
      const session = runtime.session();
      const held = session.send('go');
      for (let tick = 0; tick < 20; tick++) await Promise.resolve();
      session.cancel();
      const outcome = await Promise.race([held, new Promise((resolve) => setTimeout(() => resolve('held'), 500))]);
      expect(outcome, name).toMatchObject({ outcome: 'cancelled' });
      if (callsTool) {
        const [result] = toolMessages(session.history().messages).map((message) => JSON.parse(message.content));
        expect(result, name).toEqual({ error: expect.objectContaining({ code: 'CANCELLED' }) });
      }
      if (name === 'action' || name === 'PreToolUse') {
        expect(await session.send('and now?'), name).toMatchObject({ outcome: 'completed', text: 'next answer' });
      }
    }
  });

  it('reset() 清空消息、摘要、连续性状态与当前运行计数', async () => {
    const { session, llm } = setup({ replies: [{ content: 'one' }, { content: 'two' }] });
    await session.send('remember 42');
    expect(session.events()).toHaveLength(2); // the snapshot is cached now
    let notified = 0;
    session.subscribe(() => notified++);
    session.reset();
    expect(notified).toBe(1);
    expect(session.history()).toEqual({ messages: [], summary: '' });
    expect(session.events()).toEqual([]);
    expect(session.status()).toBe('idle');
    await session.send('what number?');
    expect(llm.requests[1]!.messages.slice(1).map((message) => message.content)).toEqual(['what number?']);
    expect(session.events()[0]).toMatchObject({ seq: 1, type: 'message', role: 'user' });
  });

  it('reset() during a run cancels it and discards its late events', async () => {
    const started = deferred<void>();
    const { session } = setup({ replies: [untilAborted(() => started.resolve())] });
    const running = session.send('task');
    await started.promise;
    session.reset();
    expect(await running).toMatchObject({ outcome: 'cancelled' });
    expect(session.events()).toEqual([]);
    expect(session.history().messages).toEqual([]);
    expect(session.status()).toBe('idle');
  });

  it('a tool call is announced (tool-call) when it starts, and its result (tool-result) when it ends', async () => {
    const release = deferred<void>();
    const running = deferred<void>();
    const slow: AgentTool = {
      name: 'slow',
      description: 'waits',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        running.resolve();
        await release.promise;
        return 'finished';
      },
    };
    const { session } = setup({ replies: [{ toolCalls: [toolCall('c1', 'slow')] }, { content: 'ok' }], tools: [slow] });
    const sent = session.send('go');
    await running.promise;
    expect(session.events().map((event) => event.type)).toEqual(['message', 'tool-call']);
    release.resolve();
    await sent;
    expect(session.events().map((event) => event.type)).toEqual(['message', 'tool-call', 'tool-result', 'message']);
  });

  it('events() 返回聊天与最近操作视图使用的事件流 (no raw arguments or results), not capped', async () => {
    const { tool } = recordingTool('fill', { secret: 'x' });
    const { session, emitted } = setup({
      replies: [
        { content: 'working', toolCalls: [toolCall('c1', 'fill', { email: 'a@b.c' })] },
        (request) => {
          request.onTextDelta?.('do');
          request.onTextDelta?.('ne');
          return { content: 'done', toolCalls: [] };
        },
      ],
      tools: [tool],
    });
    await session.send('fill it');
    expect(session.events().map((event) => event.type)).toEqual([
      'message',
      'message',
      'tool-call',
      'tool-result',
      'message',
    ]);
    expect(session.events()[3]).toMatchObject({ id: 'fill', toolName: 'fill', callId: 'c1', turn: 1, ok: true });
    expect(JSON.stringify(session.events())).not.toContain('a@b.c');
    expect(JSON.stringify(session.events())).not.toContain('secret');
    expect(
      emitted.filter((event) => event.type === 'text-delta').map((event) => 'text' in event && event.text),
    ).toEqual(['do', 'ne']);
    for (let n = 0; n < 30; n++) await session.send(`message ${n}`);
    expect(session.events().length).toBeGreaterThan(60);
  });

  it('continuity 报告跨文档检查点是否启用', () => {
    expect(setup().session.continuity).toBe(false);
    // Node has no sessionStorage: without a storage the checkpoints are not enabled (and the session says why).
    expect(setup({ config: { continuity: true } }).session.continuity).toBe(false);
    const storage = { getItem: () => null, setItem() {}, removeItem() {} };
    const llm = scriptedLlm([]);
    const runtime = createAgentRuntime({ config: { model: 'm', continuity: true }, llm, checkpoint: { storage } });
    expect(runtime.session().continuity).toBe(true);
  });

  it('subscribe() returns an unsubscribe; getSnapshot() changes identity only on change', async () => {
    const { session } = setup({ replies: [{ content: 'a' }] });
    const statuses: string[] = [];
    const unsubscribe = session.subscribe(() => statuses.push(session.getSnapshot().status));
    const before = session.getSnapshot();
    expect(session.getSnapshot()).toBe(before);
    await session.send('x');
    expect(statuses).toContain('running');
    expect(session.getSnapshot()).not.toBe(before);
    expect(session.getSnapshot()).toMatchObject({ status: 'idle', messageCount: 2 });
    unsubscribe();
    const count = statuses.length;
    await session.send('y');
    expect(statuses).toHaveLength(count);
  });

  it('unknown tools and failing tools become error results the model sees', async () => {
    const failing: AgentTool = {
      name: 'boom',
      description: '',
      parameters: {},
      execute: () => {
        throw new Error('button missing');
      },
    };
    const { session, runtime } = setup({
      replies: [
        {
          toolCalls: [
            toolCall('a', 'nope'),
            toolCall('b', 'boom'),
            { ...toolCall('c', 'boom'), function: { name: 'boom', arguments: '[' } },
          ],
        },
      ],
      tools: [failing],
    });
    await session.send('go');
    const codes = toolMessages(session.history().messages).map((message) => JSON.parse(message.content).error.code);
    expect(codes).toEqual(['TOOL_NOT_FOUND', 'TOOL_FAILED', 'INVALID_ARGUMENTS']);
    expect(runtime.telemetry.snapshot()).toMatchObject({ toolCalls: 1, failedToolCalls: 1 });
  });

  it('minActionIntervalMs 同一批动作之间的最小间隔', async () => {
    const { tool } = recordingTool('step');
    const { session, clock } = setup({
      replies: [{ toolCalls: [toolCall('a', 'step'), toolCall('b', 'step'), toolCall('c', 'step')] }],
      tools: [tool],
      config: { minActionIntervalMs: 250 },
    });
    await session.send('go');
    expect(clock.sleeps).toEqual([250, 250]);
  });
});

describe('工具生命周期钩子 (in the loop)', () => {
  it('被拦截时返回 HOOK_BLOCKED, 发出 blocked 事件, 业务处理函数不会执行', async () => {
    const { tool, calls } = recordingTool('delete_order');
    const hooks = new HookRegistry();
    hooks.addPreToolUse(({ id }) =>
      id.startsWith('delete') ? { blocked: true, reason: '删除需要单独的审批策略' } : undefined,
    );
    const { session } = setup({
      replies: [{ toolCalls: [toolCall('c1', 'delete_order', { id: 3 })] }, { content: 'cannot' }],
      tools: [tool],
      hooks,
    });
    await session.send('delete order 3');
    expect(calls).toEqual([]);
    const [result] = toolMessages(session.history().messages);
    expect(JSON.parse(result!.content)).toEqual({ error: { code: 'HOOK_BLOCKED', message: '删除需要单独的审批策略' } });
    expect(session.events().find((event) => event.type === 'blocked')).toMatchObject({
      code: 'HOOK_BLOCKED',
      reason: '删除需要单独的审批策略',
      id: 'delete_order',
    });
  });

  it('后钩子的替换结果是最终工具消息看到的结果; hooks receive id, tool name, arguments and turn', async () => {
    const { tool } = recordingTool('read_user', { name: 'Ann', email: 'ann@example.com' });
    tool.id = 'user.read';
    const hooks = new HookRegistry();
    const seen: ToolUseContext[] = [];
    hooks.addPreToolUse((context) => {
      seen.push(context);
    });
    hooks.addPostToolUse(({ result }) => {
      if ('error' in result) return;
      return { result: { ...(result.result as Record<string, unknown>), email: '[redacted]' } };
    });
    const { session } = setup({
      replies: [
        { content: 'first', toolCalls: [] },
        { toolCalls: [toolCall('c1', 'read_user', { n: 1 })] },
        { content: 'ok' },
      ],
      tools: [tool],
      hooks,
    });
    await session.send('warm up');
    await session.send('who?');
    expect(seen).toEqual([{ id: 'user.read', toolName: 'read_user', arguments: { n: 1 }, turn: 1 }]);
    const [result] = toolMessages(session.history().messages);
    expect(JSON.parse(result!.content)).toEqual({ result: { name: 'Ann', email: '[redacted]' } });
  });
});

describe('压缩与系统提示 (in the loop)', () => {
  it('系统提示每轮都会按当前页面重建, 并在压缩判断之后加入', async () => {
    let page = 1;
    const { tool } = recordingTool('navigate');
    tool.execute = () => {
      page++;
      return 'navigated';
    };
    const { session, llm } = setup({
      replies: [{ toolCalls: [toolCall('c1', 'navigate')] }, { content: 'on page 2' }],
      tools: [tool],
      config: { systemPrompt: 'You manage orders.' },
      buildSystemPrompt: () => `Current page: ${page}`,
    });
    await session.send('go on');
    const systems = llm.requests.map((request) => request.messages[0]!);
    expect(systems.map((message) => message.role)).toEqual(['system', 'system']);
    expect(systems[0]!.content).toContain('Current page: 1');
    expect(systems[1]!.content).toContain('Current page: 2');
    expect(systems[1]!.content).toContain('You manage orders.');
  });

  it('估算历史超过水位后摘要较早的消息 through the model client, and the summary goes into the system prompt', async () => {
    const long = (label: string) => `${label} `.repeat(200);
    const answers = [long('a1'), long('a2'), 'a3'];
    const isSummaryRequest = (request: ModelRequest) => request.messages[0]!.content === TEXTS['zh-CN'].summaryPrompt;
    const reply = (request: ModelRequest): ModelResponse => ({
      content: isSummaryRequest(request) ? 'SUMMARY: goal is X' : answers.shift()!,
      toolCalls: [],
    });
    const { session, llm, runtime, emitted } = setup({
      replies: [reply, reply, reply, reply, reply, reply],
      config: { limits: { contextTokens: 1000, reserveForOutput: 200, keepRecent: 2 } },
    });
    await session.send(long('u1'));
    await session.send(long('u2'));
    await session.send('u3');
    const summaryIndex = llm.requests.findIndex(isSummaryRequest);
    expect(summaryIndex).toBeGreaterThan(0);
    expect(llm.requests[summaryIndex]!.tools).toEqual([]);
    const next = llm.requests[summaryIndex + 1]!;
    expect(next.messages[0]!.content).toContain('SUMMARY: goal is X');
    expect(next.messages.length - 1).toBeGreaterThanOrEqual(2);
    expect(session.history().summary).toBe('SUMMARY: goal is X');
    expect(session.history().messages.at(-1)!.content).toBe('a3');
    expect(emitted.some((event) => event.type === 'compacted')).toBe(true);
    expect(runtime.telemetry.snapshot().modelCalls).toBe(llm.requests.length);
    expect(llm.requests.length).toBeGreaterThan(3);
  });
});

describe('tools as a function, read at the start of every turn', () => {
  it('a tool added after the session exists is offered on the next turn and runs; a removed one is not offered', async () => {
    const first = recordingTool('first');
    const later = recordingTool('later', { added: true });
    const current: AgentTool[] = [first.tool];
    const llm = scriptedLlm([
      { content: 'one' },
      (request) => {
        expect(request.tools.map((tool) => tool.name)).toEqual(['first', 'later']);
        return { content: '', toolCalls: [toolCall('c1', 'later', { n: 1 })] };
      },
      { content: 'two' },
      { toolCalls: [toolCall('c2', 'later')] },
      { content: 'three' },
    ]);
    const runtime = createAgentRuntime({ config: { model: 'm' }, llm, tools: () => current, clock: manualClock() });
    const session = runtime.session();
    await session.send('one');
    expect(llm.requests[0]!.tools.map((tool) => tool.name)).toEqual(['first']);

    current.push(later.tool);
    expect(await session.send('two')).toMatchObject({ outcome: 'completed', text: 'two' });
    expect(later.calls).toEqual([{ n: 1 }]);
    expect(JSON.parse(toolMessages(session.history().messages)[0]!.content)).toEqual({ result: { added: true } });

    current.splice(1, 1);
    await session.send('three');
    expect(llm.requests[3]!.tools.map((tool) => tool.name)).toEqual(['first']);
    expect(later.calls).toHaveLength(1);
    expect(JSON.parse(toolMessages(session.history().messages)[1]!.content)).toMatchObject({
      error: { code: 'TOOL_NOT_FOUND' },
    });
  });

  it('the array form still works and duplicate names keep the first tool', async () => {
    const a = recordingTool('same', 'a');
    const b = recordingTool('same', 'b');
    const { session, llm } = setup({
      tools: [a.tool, b.tool],
      replies: [{ toolCalls: [toolCall('c1', 'same')] }, { content: 'ok' }],
    });
    await session.send('go');
    expect(llm.requests[0]!.tools.map((tool) => tool.name)).toEqual(['same']);
    expect([a.calls.length, b.calls.length]).toEqual([1, 0]);
  });
});
