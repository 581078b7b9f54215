// The context budget and its accounting (「上下文预算与记账」): plugin-agent.zh.md 「上下文裁剪算法」, 「Token 预算追踪与日志」, checked on what
// the model server actually received and on the token:usage payloads.
import type { TokenUsageEvent } from '@aalis/api-agent';
import { contributions } from '@aalis/api-contributions';
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import type { Tool } from '@aalis/api-tools';
import { estimateMessageTokens, estimateTextTokens, estimateToolDefinitionTokens } from '@aalis/context-budget';
import { definePlugin } from '@aalis/core';
import type { Message, ToolCall } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A text of about `tokens` tokens by the one estimator (ASCII words). */
function textOf(tokens: number, word = 'budget'): string {
  let text = '';
  while (estimateTextTokens(text) < tokens) text += `${word} ${text.length % 97} `;
  return text;
}

/** 25 tools with long descriptions and parameters: thousands of tokens of definitions. */
function largeTools(count = 25): Tool[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `large_tool_${index}`,
    description: textOf(60, `describes-${index}`),
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 4 }, (_, property) => [
          `field_${property}`,
          { type: 'string', description: textOf(10, `parameter-${property}`) },
        ]),
      ),
    },
    handler: () => 'ok',
  }));
}

/** What one sent request costs by the estimator: its messages, its tool definitions and its max output. */
function requestCost(body: Record<string, unknown>) {
  const messages = (body.messages as Array<Record<string, unknown>>).map(
    (wire): Message => ({
      role: wire.role as Message['role'],
      content: typeof wire.content === 'string' ? wire.content : '',
      ...(Array.isArray(wire.tool_calls) ? { toolCalls: wire.tool_calls as ToolCall[] } : {}),
      ...(typeof wire.reasoning_content === 'string' ? { reasoningContent: wire.reasoning_content } : {}),
    }),
  );
  const tools = ((body.tools as Array<{ function: Record<string, unknown> }> | undefined) ?? []).map((tool) => ({
    name: String(tool.function.name),
    description: tool.function.description as string | undefined,
    parameters: tool.function.parameters as Record<string, unknown> | undefined,
  }));
  const messageTokens = messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  const toolTokens = estimateToolDefinitionTokens(tools);
  const maxOutput = Number(body.max_tokens ?? body.max_completion_tokens);
  return { messageTokens, toolTokens, maxOutput, total: messageTokens + toolTokens + maxOutput };
}

async function seedHistory(h: Harness, exchanges: number, tokensEach: number, sessionId = 'cli:owner') {
  const service = h.booted.app.services.selected(memory)!.impl;
  const messages: Message[] = [];
  for (let index = 0; index < exchanges; index++) {
    messages.push(
      { role: 'user', content: `question ${index}: ${textOf(tokensEach)}`, timestamp: Date.now() },
      { role: 'assistant', content: `answer ${index}: ${textOf(tokensEach)}`, timestamp: Date.now() },
    );
  }
  await service.append(sessionId, messages);
}

const snapshot = async (h: Harness, request: { sessionId: string; platform?: string }) => {
  const usage = h.booted.capture('token:usage');
  h.booted.app.emit('token:request', request);
  for (let waited = 0; usage.length === 0 && waited < 2000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(usage).toHaveLength(1);
  return usage[0]!;
};

/** The figures of a usage event add up: the messages' buckets plus the tool definitions. */
const estimated = (event: TokenUsageEvent) =>
  event.breakdown.system + event.breakdown.history + event.breakdown.toolResults + event.breakdown.toolDefs;

describe('#11.7 tool definitions count in the trim budget', () => {
  const window = { contextWindow: 8_000, maxOutputTokens: 1_024 };

  it('#11.7 tool definitions count in the trim budget: messages + tool definitions + max output ≤ context window, with 25 large tools as with none', async () => {
    for (const count of [25, 0]) {
      harness = await startHarness({ ...window, tools: count > 0 ? largeTools(count) : undefined });
      await seedHistory(harness, 30, 120);
      harness.server.enqueue(textReply('fine', { usage: { promptTokens: 0, completionTokens: 1 } }));
      const usage = harness.booted.capture('token:usage');
      await harness.say(`a question after a long talk: ${textOf(200)}`);
      const [body] = harness.server.chatBodies();
      const cost = requestCost(body!);
      if (count > 0) expect(cost.toolTokens).toBeGreaterThan(2_000);
      else expect(cost.toolTokens).toBe(0);
      expect(cost.maxOutput).toBe(1_024);
      expect(cost.total).toBeLessThanOrEqual(window.contextWindow);
      // The budget formula holds with the tools inside it: messages + tools ≤ window − max output − 512.
      expect(cost.messageTokens + cost.toolTokens).toBeLessThanOrEqual(usage[0]!.tokenBudget);
      // used falls back (promptTokens 0) to the estimate of the messages and the tool definitions sent.
      expect(usage[0]!.used).toBe(cost.messageTokens + cost.toolTokens);
      expect(usage[0]!.breakdown.toolDefs).toBe(cost.toolTokens);
      expect(usage[0]!.trimmed).toBe(true);
      await harness.close();
      harness = undefined;
    }
  });

  it('#11.7 tool definitions count in token:request snapshots (used and the trim)', async () => {
    harness = await startHarness({ ...window, tools: largeTools() });
    await seedHistory(harness, 30, 120);
    const event = await snapshot(harness, { sessionId: 'cli:owner' });
    expect(event.breakdown.toolDefs).toBeGreaterThan(2_000);
    expect(event.used).toBe(estimated(event));
    expect(event.used).toBeLessThanOrEqual(event.tokenBudget);
    expect(event.trimmed).toBe(true);
  });

  it('#11.7 a small window whose budget is at its 1024 floor: the max output sent is lowered so the request fits', async () => {
    // Window 2048 with a max output of 2048: the budget is its floor (1024), so the full reserve cannot fit.
    harness = await startHarness({ contextWindow: 2_048, maxOutputTokens: 2_048 });
    await seedHistory(harness, 10, 120);
    harness.server.enqueue(textReply('fine'));
    await harness.say('hello');
    const cost = requestCost(harness.server.chatBodies()[0]!);
    expect(cost.maxOutput).toBeLessThan(2_048);
    expect(cost.maxOutput).toBeGreaterThan(0);
    expect(cost.total).toBeLessThanOrEqual(2_048);
  });

  it('#11.7 a request that cannot fit even trimmed is not sent: the turn ends in a coded error saying how to fix it', async () => {
    harness = await startHarness({ contextWindow: 4_000, maxOutputTokens: 512 });
    const replies = harness.booted.capture('outbound:message');
    await harness.say(textOf(6_000));
    expect(harness.server.chatBodies()).toHaveLength(0);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.kind).toBe('error');
    expect(replies[0]!.content).toContain('上下文窗口');
    expect(replies[0]!.content).toContain('enabledToolGroups');
  });
});

describe('#11.8 protection by identity', () => {
  /** An agent:llm:before middleware that maps the list to copies, as media normalisation does. */
  const copying = definePlugin({
    name: '@test/copying-middleware',
    uses: { hooks },
    apply({ hooks }) {
      hooks.use.middleware('agent:llm:before', async (context, next) => {
        context.messages = context.messages.map((message) => ({ ...message }));
        await next();
      });
    },
  });

  it('#11.8 this turn’s input stays whole when an agent:llm:before middleware replaces the messages with copies', async () => {
    harness = await startHarness({ contextWindow: 4_000, maxOutputTokens: 256, extra: [copying] });
    // Over the budget (3232) but within the window: only protection keeps the input whole.
    const input = `INPUT-START ${textOf(3_300)} INPUT-END`;
    harness.server.enqueue(textReply('read it all'));
    await harness.say(input);
    const [body] = harness.server.chatBodies();
    const sent = (body!.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user');
    expect(sent.at(-1)!.content).toContain(input);
  });

  it('#11.8 a host notice’s instruction block stays whole when the messages are copies', async () => {
    harness = await startHarness({ contextWindow: 4_000, maxOutputTokens: 256, extra: [copying] });
    const body = `NOTICE-START ${textOf(3_300)} NOTICE-END`;
    harness.server.enqueue(textReply('noted'));
    await harness.say(body, { source: 'host', hostNotice: { kind: 'task', id: 't1' } });
    const messages = harness.server.chatBodies()[0]!.messages as Array<{ role: string; content: string }>;
    expect(messages.some((message) => message.role === 'system' && message.content.includes(body))).toBe(true);
  });
});

describe('#11.9 the idle turn’s instruction block', () => {
  it('#11.9 the idle turn’s instruction block is protected from step 4 like the other instruction blocks', async () => {
    const prompt = `IDLE-START ${textOf(300)} IDLE-END`;
    harness = await startHarness({
      contextWindow: 3_000,
      maxOutputTokens: 256,
      agentConfig: { memoryTokenBudget: 50 },
      tools: [
        {
          name: 'look',
          description: 'looks around',
          parameters: { type: 'object', properties: {} },
          handler: () => 'nothing new',
        },
      ],
      extra: [
        definePlugin({
          name: '@test/big-head',
          uses: { contributions },
          apply({ contributions }) {
            contributions.use.contribute('agent:prompt', {
              id: 'archive',
              anchor: 'head',
              build: () => `[档案] ${textOf(2_100)}`,
            });
          },
        }),
      ],
    });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'look', arguments: {} }]), textReply('shall we?'));
    await harness.say(prompt, { source: 'idle', triggerType: 'idle' });
    const bodies = harness.server.chatBodies();
    expect(bodies).toHaveLength(2);
    // In the second call the block is no longer the last message: only its protection keeps step 4 off it.
    const second = (bodies[1]!.messages as Array<{ role: string; content: string | null }>).map((message) => ({
      role: message.role,
      content: message.content ?? '',
    }));
    expect(second.at(-1)!.role).toBe('tool');
    expect(second.some((message) => message.role === 'system' && message.content.includes(prompt))).toBe(true);
    // Step 4 did run: the head block was shortened.
    expect(second.some((message) => message.content.length > 2_000 && message.content.startsWith('[档案]'))).toBe(
      false,
    );
  });
});

describe('#11.10 token:request snapshots read the settings a real turn reads', () => {
  it('#11.10 token:request snapshots use the same settings as a real turn, the venue layer included', async () => {
    harness = await startHarness();
    const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
    await sessions.ensure({ id: 'room-1', kind: 'room', platform: 'qq', venue: 'group-1' });
    const settings = harness.booted.app.services.selected(sessionFields)!.impl;
    await settings.set({
      layer: 'venue',
      target: 'qq/group-1',
      key: 'historyLimit',
      value: 7,
      caller: { via: 'host' },
    });
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(textReply('hi room'));
    await harness.say('hello room', { sessionId: 'room-1', platform: 'qq', venue: 'group-1' });
    expect(usage[0]!.historyLimit).toBe(7);
    // The session server asks for a room without a platform, for other sessions with the connection's platform.
    expect((await snapshot(harness, { sessionId: 'room-1' })).historyLimit).toBe(7);
    expect((await snapshot(harness, { sessionId: 'room-1', platform: 'qq' })).historyLimit).toBe(7);
    // Venue ids are per platform: a snapshot for another platform has no venue layer.
    expect((await snapshot(harness, { sessionId: 'room-1', platform: 'webui' })).historyLimit).toBe(0);
  });
});

describe('#11.11 the global layer of 「模型」 is the plugin’s llm preference', () => {
  const AGENT = '@aalis/plugin-agent';

  it('#11.11 the global layer of 「模型」 and the plugin’s llm preference are one value: setting either is seen by both', async () => {
    harness = await startHarness();
    const { app } = harness.booted;
    const settings = app.services.selected(sessionFields)!.impl;
    const changes = harness.booted.capture('settings:changed');
    // Set as the plugin preference (plugin details 「服务偏好」): /session shows it as the global layer's value.
    app.services.setPluginPreference(AGENT, 'llm', 'test/test-model');
    const shown = (await harness.command('/session')).join('\n');
    expect(shown).toContain('模型（llm）：test/test-model〔全局〕');
    expect(await settings.get({ sessionId: 'cli:owner' }, 'llm')).toEqual({
      value: { provider: 'test', model: 'test-model' },
      layer: 'global',
    });
    expect(changes).toContainEqual({
      layer: 'global',
      target: '',
      key: 'llm',
      value: { provider: 'test', model: 'test-model' },
    });
    // Set on the global layer (「会话默认」): it is the plugin preference.
    await settings.set({
      layer: 'global',
      target: '',
      key: 'llm',
      value: { provider: 'test', model: 'Qwen/Qwen3-8B' },
      caller: { via: 'host' },
    });
    expect(app.services.preferences().plugins[AGENT]?.llm).toBe('test/Qwen/Qwen3-8B');
    expect(app.services.preference('llm', AGENT)).toEqual({ value: 'test/Qwen/Qwen3-8B', scope: 'plugin' });
    // A preference naming a missing model: the turn uses the model the service falls back to, as a preference.
    harness.server.enqueue(textReply('still here'));
    await harness.say('hello');
    expect(harness.server.chatBodies()[0]!.model).toBe('test-model');
    // Reset on the global layer clears the preference; the field follows the service preference again.
    await settings.reset({ layer: 'global', target: '', key: 'llm', caller: { via: 'host' } });
    expect(app.services.preferences().plugins[AGENT]?.llm).toBeUndefined();
    expect((await settings.get({ sessionId: 'cli:owner' }, 'llm')).layer).toBe('unset');
    expect((await harness.command('/session')).join('\n')).toContain('跟随服务偏好');
  });
});
