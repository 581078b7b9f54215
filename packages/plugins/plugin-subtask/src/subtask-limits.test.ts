// Bad input and limits: a model that does not exist, the depth and concurrency settings, the tree budget — each a
// clear error to the model, nothing left running.
import type { ToolCallContext } from '@aalis/api-tools';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SPAWN_SUBTASK_TOOL, SUBTASK_FIELD, WAIT_SUBTASKS_TOOL } from './index.js';
import { isDelegationOf, type SubtaskHarness, startSubtaskHarness, until } from './subtask-fixture.case.js';

let harness: SubtaskHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function parentToolResults(h: SubtaskHarness): string[] {
  return h
    .requests()
    .filter((body) => !body.messages.some((message) => String(message.content).startsWith('[跨会话委派]')))
    .flatMap((body) => body.messages.filter((message) => message.role === 'tool'))
    .map((message) => String(message.content));
}

const global = (key: string, value: number) => ({
  layer: 'global' as const,
  target: '*',
  key,
  value,
  caller: { via: 'host' as const },
});

describe('subtask limits', () => {
  it('a model that does not exist is a clear error naming the models there are, and no child session is made', async () => {
    harness = await startSubtaskHarness();
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'x', model: 'nowhere/gpt-9' } }]),
      textReply('sorry'),
    );
    await harness.say('try a model');
    const [result] = parentToolResults(harness);
    expect(result).toContain('没有模型 nowhere/gpt-9。可用的模型：test/test-model');
    expect(await harness.sessions.children('cli:owner')).toEqual([]);
    expect(await harness.background.list('cli:owner')).toEqual([]);
  });

  it('refuses a subtask past the depth limit and past the concurrency limit', async () => {
    harness = await startSubtaskHarness();
    await harness.fields.set(global(SUBTASK_FIELD.maxDepth, 1));
    await harness.fields.set(global(SUBTASK_FIELD.maxConcurrent, 1));
    // The child tries to start a subtask of its own: level 1 is the limit.
    harness.child(
      'nested',
      toolCallReply([{ id: 'n1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'deeper' } }]),
      textReply('did it myself'),
    );
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'nested' } },
        { id: 'c2', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'second' } },
      ]),
      toolCallReply([{ id: 'c3', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('done'),
    );
    await harness.say('nest');
    const results = parentToolResults(harness);
    expect(results[1]).toContain('本会话已有 1 个子任务在跑，达到会话设置「同时运行的子任务数」（1）');
    const childCalls = harness
      .requests()
      .filter((body) => body.messages.some((message) => String(message.content).startsWith('[跨会话委派]')));
    const nestedResult = childCalls
      .flatMap((body) => body.messages)
      .find((message) => message.role === 'tool' && message.tool_call_id === 'n1');
    expect(String(nestedResult?.content)).toContain(
      '子任务不能再开子任务了：这里已是第 1 层，会话设置「子任务最大深度」是 1',
    );
    expect(JSON.parse(results.at(-1)!)[0]).toMatchObject({ status: 'done', result: 'did it myself' });
  });

  it('a limit its validation refuses reads 应为 <what the setting expects>, once', async () => {
    harness = await startSubtaskHarness();
    expect(await harness.command('/session.set subtaskMaxDepth 0')).toEqual([
      '会话设置项「subtaskMaxDepth」应为 不小于 1 的整数，实际为 0。没有做任何改动。（AALIS_SETTINGS_INVALID_VALUE）',
    ]);
    expect((await harness.command('/session.set subtaskCostBudget -1'))[0]).toContain('应为 不小于 0 的数，实际为 -1');
  });

  it('the depth limit set on the session the tree starts in holds inside its child sessions', async () => {
    harness = await startSubtaskHarness();
    // Only the parent session has the limit (as /session.set subtaskMaxDepth 1 writes it); the global layer keeps 2.
    await harness.fields.set({
      layer: 'session',
      target: 'cli:owner',
      key: SUBTASK_FIELD.maxDepth,
      value: 1,
      caller: { via: 'host' },
    });
    harness.child(
      'nested',
      toolCallReply([{ id: 'n1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'deeper' } }]),
      textReply('did it myself'),
    );
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'nested' } }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('done'),
    );
    await harness.say('nest');
    const nestedResult = harness
      .requests()
      .flatMap((body) => body.messages)
      .find((message) => message.role === 'tool' && message.tool_call_id === 'n1');
    expect(String(nestedResult?.content)).toContain(
      '子任务不能再开子任务了：这里已是第 1 层，会话设置「子任务最大深度」是 1',
    );
    expect(harness.requests().some((body) => String(body.messages.at(-1)?.content).includes('deeper'))).toBe(false);
  });

  it('the concurrency limit set on the session the tree starts in holds inside its child sessions', async () => {
    harness = await startSubtaskHarness();
    // Only the parent session has the limit (as /session.set subtaskMaxConcurrent 1 writes it); the global layer
    // keeps 4, which a child session would read from its own scope.
    await harness.fields.set({
      layer: 'session',
      target: 'cli:owner',
      key: SUBTASK_FIELD.maxConcurrent,
      value: 1,
      caller: { via: 'host' },
    });
    harness.child(
      'fan out',
      toolCallReply([
        { id: 'n1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'leaf one' } },
        { id: 'n2', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'leaf two' } },
      ]),
      toolCallReply([{ id: 'n3', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('fanned out'),
    );
    harness.child('leaf one', textReply('leaf one done'));
    harness.child('leaf two', textReply('leaf two done'));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'fan out' } }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('done'),
    );
    await harness.say('fan out');
    const secondLeaf = harness
      .requests()
      .flatMap((body) => body.messages)
      .find((message) => message.role === 'tool' && message.tool_call_id === 'n2');
    expect(String(secondLeaf?.content)).toContain('本会话已有 1 个子任务在跑，达到会话设置「同时运行的子任务数」（1）');
    expect(harness.requests().some((body) => isDelegationOf(body, 'leaf two'))).toBe(false);
  });

  it('a tree over its token budget stops every subtask in it and tells the model why', async () => {
    const waiting: AbortSignal[] = [];
    harness = await startSubtaskHarness({
      tools: [
        {
          name: 'dig',
          description: 'a slow tool that honours its signal',
          parameters: { type: 'object', properties: {} },
          handler: (_args, context: ToolCallContext) =>
            new Promise((resolve) => {
              waiting.push(context.signal);
              context.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
            }),
        },
      ],
    });
    await harness.fields.set(global(SUBTASK_FIELD.tokenBudget, 1_000));
    harness.child(
      'expensive',
      toolCallReply([{ id: 'd1', name: 'dig', arguments: {} }], {
        usage: { promptTokens: 1_500, completionTokens: 10 },
      }),
      textReply('never sent'),
    );
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'expensive' } }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('over budget, I will finish myself'),
    );
    await harness.say('spend a lot');
    const waited = JSON.parse(parentToolResults(harness).at(-1)!) as Array<{ status: string; error: string }>;
    expect(waited[0]!.status).toBe('failed');
    expect(waited[0]!.error).toContain(
      '子任务树超出预算：已用 1510 token，上限 1000 token（会话设置「subtaskTokenBudget」）',
    );
    await until(() => waiting.every((signal) => signal.aborted), 'the child tool to be aborted');
    const [task] = await harness.background.list('cli:owner');
    expect(task).toMatchObject({ status: 'failed', stoppable: false, tokens: 1_510 });
    // Nothing left running: the child made no further model call.
    expect(harness.server.pending()).toBe(1);
  });
});
