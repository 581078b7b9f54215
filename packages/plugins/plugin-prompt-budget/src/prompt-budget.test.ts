// prompt_budget_info through the real agent and tools service.
import { tools } from '@aalis/api-tools';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import promptBudgetPlugin, { PROMPT_BUDGET_TOOL } from './index.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function callTool(h: Harness, sessionId: string): Promise<string> {
  const result = await h.booted.app.services.selected(tools)!.impl.execute({
    name: PROMPT_BUDGET_TOOL,
    arguments: {},
    context: {
      sessionId,
      platform: 'cli',
      participants: [],
      inbound: { source: undefined, fromTurn: undefined, messageId: undefined },
      signal: new AbortController().signal,
      turnId: 'outside',
      callId: 'c',
      acceptsImages: false,
    },
  });
  return result.content;
}

describe('prompt_budget_info', () => {
  it('returns the calling session’s latest figures with its tag and advice', async () => {
    harness = await startHarness({ extra: [promptBudgetPlugin] });
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: PROMPT_BUDGET_TOOL, arguments: {} }], {
        usage: { promptTokens: 20_000, completionTokens: 5 },
      }),
      textReply('checked'),
    );
    await harness.say('how full is your context?');
    const toolMessage = harness.requests()[1]!.messages.find((message) => message.role === 'tool')!;
    const [json, advice] = String(toolMessage.content).split('\n');
    const first = usage[0]!;
    expect(JSON.parse(json!)).toEqual({
      used: 20_000,
      contextWindow: 32_000,
      usageRatio: 0.625,
      tag: 'INFO',
      tokenBudget: first.tokenBudget,
      trimmed: false,
      historyMessages: 1,
      historyLimit: 0,
      breakdown: expect.objectContaining({ history: first.breakdown.history, toolDefs: first.breakdown.toolDefs }),
    });
    expect(advice).toBe('上下文已用过半：读入大段内容时只取需要的部分。');
  });

  it('answers per session, and says so when a session has no usage yet', async () => {
    harness = await startHarness({ extra: [promptBudgetPlugin] });
    harness.server.enqueue(textReply('hi', { usage: { promptTokens: 28_000, completionTokens: 1 } }));
    await harness.say('hello');
    expect(JSON.parse((await callTool(harness, 'cli:owner')).split('\n')[0]!)).toMatchObject({
      used: 28_000,
      tag: 'CRITICAL',
    });
    expect(await callTool(harness, 'cli:someone-else')).toBe('本会话还没有用量数据：还没有哪次模型调用报告过用量。');
  });

  it('counts token:request snapshots as the latest figures, marked as such', async () => {
    harness = await startHarness({ extra: [promptBudgetPlugin] });
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(textReply('hi', { usage: { promptTokens: 28_000, completionTokens: 1 } }));
    await harness.say('hello');
    harness.booted.app.emit('token:request', { sessionId: 'cli:owner' });
    for (let waited = 0; usage.length < 2 && waited < 100; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const snapshot = usage[1]!;
    expect(snapshot.turnId).toBeUndefined();
    expect(JSON.parse((await callTool(harness, 'cli:owner')).split('\n')[0]!)).toMatchObject({
      used: snapshot.used,
      historyMessages: 2,
      snapshot: true,
    });
  });

  it('is offered only where its group is enabled when configured with a group', async () => {
    harness = await startHarness({ extra: [[promptBudgetPlugin, { group: 'diagnostics' }]] });
    const info = harness.booted.app.services
      .selected(tools)!
      .impl.list()
      .find((tool) => tool.name === PROMPT_BUDGET_TOOL);
    expect(info).toMatchObject({ group: 'diagnostics' });
  });
});
