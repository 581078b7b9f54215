// The turn engine (plugin-agent.zh.md 「新消息怎么处理」, 「保存」, 「发送」, 「会话删除」, 「Token 预算追踪与日志」; api-agent.zh.md abort,
// agent:queue, 落库与外发), driven through the public surfaces: handleMessage / abort, agent:queue, hooks, the archive and
// the gateway's outbound dispatch.
import type { TurnOutcome } from '@aalis/api-agent';
import { type HooksService, hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { definePlugin } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, slowText, startHarness } from '../agent-harness.case.js';
import { computeBreakdown } from './usage-report.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const SESSION = 'cli:owner';
const HEADER = '下面几条是你上一轮进行期间到的';
const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

/** A test plugin with hook middlewares (registered after the agent). */
function hookPlugin(apply: (service: HooksService) => void) {
  return definePlugin({ name: '@test/hooks', uses: { hooks }, apply: ({ hooks }) => apply(hooks.use) });
}

/** Records each turn's outcome from agent:turn:after. */
function outcomeObserver() {
  const seen: TurnOutcome[] = [];
  const plugin = definePlugin({
    name: '@test/outcomes',
    uses: { hooks },
    apply({ hooks }) {
      hooks.use.middleware('agent:turn:after', async (context, next) => {
        seen.push(context.outcome);
        await next();
      });
    },
  });
  return { plugin, seen };
}

const agentLines = (h: Harness) =>
  h.booted.logs.filter((record) => record.name === '@aalis/plugin-agent').map((record) => record.message);

describe('turn engine', () => {
  it('a waiting-to-join input that missed the join goes behind everything queued before it (agent:queue in arrival order)', async () => {
    harness = await startHarness();
    const queue = harness.booted.capture('agent:queue');
    harness.server.enqueue(slowText('writing the answer', 200), textReply('reminder done'), textReply('late done'));
    const streamed = new Promise<void>((resolve) => {
      harness!.booted.app.events.on('outbound:stream', (fragment) => {
        if (fragment.delta) resolve();
      });
    });
    const first = harness.say('question');
    await streamed;
    // The model is still writing: the injection queues, the person's message waits to join.
    const injected = harness.say('scheduled reminder', { source: 'scheduler', triggerType: 'scheduled' });
    const late = harness.say('late remark');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.at(-1)!.waiting.map((m) => m.content)).toEqual(['scheduled reminder', 'late remark']);
    await Promise.all([first, injected, late]);
    // Every agent:queue list is in arrival order.
    for (const event of queue) {
      const order = event.waiting.map((m) => m.content);
      expect(order).toEqual(['scheduled reminder', 'late remark'].filter((text) => order.includes(text)));
    }
    const requests = harness.requests();
    expect(requests).toHaveLength(3);
    expect(contents(requests[1]!.messages).at(-1)).toContain('scheduled reminder');
    expect(contents(requests[1]!.messages).some((c) => c.includes('late remark'))).toBe(false);
    expect(contents(requests[2]!.messages).at(-1)).toMatch(/late remark$/);
  });

  it('a stop after the last model call returned but before the reply is stored wins', async () => {
    let abortResult: boolean | undefined;
    const observer = outcomeObserver();
    harness = await startHarness({
      extra: [
        observer.plugin,
        hookPlugin((h) =>
          h.middleware('agent:reply:before', async (_context, next) => {
            abortResult = harness!.agent.abort(SESSION, { by: { platform: 'cli', userId: 'owner' } });
            await next();
          }),
        ),
      ],
    });
    const seen = observer.seen;
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('the answer'));
    await harness.say('question');
    expect(abortResult).toBe(true);
    expect(seen).toEqual(['aborted']);
    expect(sent.filter((m) => m.kind === 'reply')).toEqual([]);
    const stored = await harness.history();
    expect(stored.map((m) => m.kind ?? m.role)).toEqual(['user', 'turn-stopped', 'event-marker']);
    expect(stored[1]!.content.startsWith('[已停下]')).toBe(true);
    expect(stored[2]!.metadata?.[WellKnownMetadataKeys.TurnRecord]).toMatchObject({ outcome: 'aborted' });
  });

  it('a stop after agent:llm:after of the last call wins too', async () => {
    const observer = outcomeObserver();
    harness = await startHarness({
      extra: [
        observer.plugin,
        hookPlugin((h) =>
          h.middleware('agent:llm:after', async (_context, next) => {
            await next();
            harness!.agent.abort(SESSION);
          }),
        ),
      ],
    });
    const seen = observer.seen;
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('the answer'));
    await harness.say('question');
    expect(seen).toEqual(['aborted']);
    expect(sent).toEqual([]);
    expect((await harness.history()).some((m) => m.role === 'assistant')).toBe(false);
  });

  it('once the reply is stored, abort no longer claims to have stopped it', async () => {
    const observer = outcomeObserver();
    const results: Array<{ when: string; stopped: boolean }> = [];
    harness = await startHarness({
      extra: [
        observer.plugin,
        hookPlugin((h) =>
          h.middleware('agent:turn:after', async (_context, next) => {
            results.push({ when: 'turn:after', stopped: harness!.agent.abort(SESSION) });
            await next();
          }),
        ),
      ],
    });
    const seen = observer.seen;
    harness.booted.app.events.on('memory:appended', ({ messages }) => {
      if (messages.some((m) => m.role === 'assistant' && m.content === 'the answer')) {
        results.push({ when: 'stored', stopped: harness!.agent.abort(SESSION) });
      }
    });
    harness.booted.app.events.on('outbound:message', (message) => {
      if (message.kind === 'reply') results.push({ when: 'sent', stopped: harness!.agent.abort(SESSION) });
    });
    harness.server.enqueue(textReply('the answer'));
    await harness.say('question');
    expect(results).toEqual([
      { when: 'stored', stopped: false },
      { when: 'sent', stopped: false },
      { when: 'turn:after', stopped: false },
    ]);
    expect(seen).toEqual(['replied']);
    const stored = await harness.history();
    expect(stored.map((m) => m.kind ?? m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]!.metadata?.[WellKnownMetadataKeys.TurnRecord]).toMatchObject({ outcome: 'replied' });
  });

  it('text said before tool calls is delivered when that model call returns, before the tools run', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }], { text: 'let me look that up' }),
      textReply('found it'),
    );
    const turn = harness.say('look it up');
    await slow.started;
    expect(sent.map((m) => [m.kind, m.content])).toEqual([['reply', 'let me look that up']]);
    expect(sent[0]!.turnId).toMatch(/^turn_/);
    slow.release();
    await turn;
    expect(sent.map((m) => m.content)).toEqual(['let me look that up', 'found it']);
  });

  it('nothing is delivered from a turn that was stopped', async () => {
    const slow = gatedTool();
    harness = await startHarness({
      tools: [slow.tool],
      extra: [
        hookPlugin((h) =>
          h.middleware('agent:llm:after', async (context, next) => {
            await next();
            if (context.response.toolCalls.length > 0) harness!.agent.abort(SESSION);
          }),
        ),
      ],
    });
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }], { text: 'on it' }));
    slow.release();
    await harness.say('do it');
    expect(sent).toEqual([]);
  });

  it('nothing is delivered into a session whose deletion has begun', async () => {
    harness = await startHarness();
    const manager = harness.booted.app.services.selected(sessionManager)!.impl;
    await manager.ensure({ id: SESSION, kind: 'direct', platform: 'cli' });
    const sent = harness.booted.capture('outbound:message');
    let deletion: Promise<unknown> | undefined;
    harness.booted.app.events.on('memory:appended', ({ messages }) => {
      if (messages.some((m) => m.role === 'assistant')) deletion = manager.deleteSession(SESSION);
    });
    harness.server.enqueue(textReply('the answer'));
    await harness.say('question');
    await deletion;
    expect(deletion).toBeDefined();
    expect(sent).toEqual([]);
    expect(await harness.history()).toEqual([]);
  });

  it('a failed delivery of a stored reply is not a failed turn', async () => {
    const observer = outcomeObserver();
    harness = await startHarness({
      extra: [
        observer.plugin,
        hookPlugin((h) =>
          h.middleware('outbound:dispatch', async (context, next) => {
            if (context.message.kind === 'reply') throw new Error('platform unreachable');
            await next();
          }),
        ),
      ],
    });
    const seen = observer.seen;
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('the answer'));
    await harness.say('question');
    expect(seen).toEqual(['replied']);
    expect(sent).toEqual([]);
    const stored = await harness.history();
    // The failure is stored with the turn id (a delivery-failure message, not a second turn record).
    expect(stored.map((m) => m.kind ?? m.role)).toEqual(['user', 'assistant', 'delivery-failure']);
    expect(stored[2]!.metadata?.[WellKnownMetadataKeys.TurnId]).toBe(
      stored[1]!.metadata?.[WellKnownMetadataKeys.TurnId],
    );
    expect(stored[2]!.content.startsWith('[投递失败]')).toBe(true);
    const records = stored.filter((m) => m.metadata?.[WellKnownMetadataKeys.TurnRecord] !== undefined);
    expect(records).toHaveLength(1);
    expect(records[0]!.metadata?.[WellKnownMetadataKeys.TurnRecord]).toMatchObject({ outcome: 'replied' });
    const turnId = stored[1]!.metadata?.[WellKnownMetadataKeys.TurnId];
    const failure = harness.booted.logs.find(
      (record) => record.name === '@aalis/plugin-agent' && record.message.includes('deliver'),
    );
    expect(failure).toBeDefined();
    expect(failure!.fields).toMatchObject({ turnId, sessionId: SESSION, kind: 'reply' });
    expect(JSON.stringify(failure)).not.toContain('the answer');
    expect(agentLines(harness).find((line) => line.startsWith('回合结束'))).toContain('结局=replied');
    // The next model call learns that the reply did not arrive.
    harness.server.enqueue(textReply('again'));
    await harness.say('did you answer?');
    expect(contents(harness.requests()[1]!.messages).some((c) => c.startsWith('[投递失败]'))).toBe(true);
  });

  it('an injection opened from the queue runs alone without the batch header', async () => {
    const slow = gatedTool();
    let injectionTurnBegan!: () => void;
    const injectionTurn = new Promise<void>((resolve) => {
      injectionTurnBegan = resolve;
    });
    harness = await startHarness({
      tools: [slow.tool],
      extra: [
        hookPlugin((h) =>
          h.middleware('agent:turn:before', async (context, next) => {
            if (context.inputs[0]?.message.source === 'scheduler') injectionTurnBegan();
            await next();
          }),
        ),
      ],
    });
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]),
      textReply('first done'),
      textReply('reminder done'),
      textReply('late done'),
    );
    const first = harness.say('start');
    await slow.started;
    const injected = harness.say('scheduled reminder', { source: 'scheduler', triggerType: 'scheduled' });
    slow.release();
    await injectionTurn;
    // Nothing joins an injection's turn: this queues and opens the next turn from the queue.
    const late = harness.say('late remark');
    await Promise.all([first, injected, late]);
    const requests = harness.requests();
    expect(requests).toHaveLength(4);
    const injection = contents(requests[2]!.messages);
    expect(injection.at(-1)).toContain('scheduled reminder');
    expect(injection.some((c) => c.includes(HEADER))).toBe(false);
    // A batch of real people's messages from the queue keeps it.
    const people = contents(requests[3]!.messages);
    expect(people.at(-1)).toMatch(/late remark$/);
    expect(people.some((c) => c.includes(HEADER))).toBe(true);
  });

  it('原因= only on stopped turns; the same spacing with or without arrival numbers', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(textReply('plain'), toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]));
    // Straight to handleMessage: no arrival number.
    await harness.say('no number');
    const stopped = harness.say('will be stopped');
    await slow.started;
    harness.agent.abort(SESSION, { reason: 'test stop' });
    slow.release();
    await stopped;
    const lines = agentLines(harness);
    for (const line of lines.filter((l) => l.startsWith('→') || l.startsWith('回合结束'))) {
      expect(line).not.toMatch(/ {2}|\s$/);
    }
    expect(lines.some((line) => /^→ 开轮 session=cli:owner turn=turn_\S+$/.test(line))).toBe(true);
    const ends = lines.filter((line) => line.startsWith('回合结束'));
    expect(ends).toHaveLength(2);
    expect(ends[0]).toMatch(/^回合结束 turn=turn_\S+ session=cli:owner 结局=replied 用时=\d+ms 输入$/);
    expect(ends[1]).toMatch(/^回合结束 turn=turn_\S+ session=cli:owner 结局=aborted 原因=test stop 用时=\d+ms 输入$/);
  });

  it('every block the agent injects is keyed by its global key in breakdown.injectors and parts', async () => {
    harness = await startHarness({ agentConfig: { systemPrompt: 'Be brief.' } });
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(textReply('ok'));
    await harness.say('hello');
    const event = usage.at(-1)!;
    const instanceId = '@aalis/plugin-agent';
    const keys = Object.keys(event.breakdown.injectors);
    expect(keys).toContain(`${instanceId}/system-prompt`);
    expect(keys).toContain(`${instanceId}/volatile-context`);
    for (const key of keys) expect(key.startsWith(`${instanceId}/`)).toBe(true);
    const other = event.parts.at(-1)!;
    expect(Object.keys(other.injectors ?? {}).sort()).toEqual([...keys].sort());
  });

  it('the continuation prompt and every other own block go by their global key; contributions keep theirs', () => {
    const instanceId = 'agent-2';
    const block = (content: string, injector: string) => ({
      role: 'system' as const,
      content,
      metadata: { [WellKnownMetadataKeys.Injector]: injector },
    });
    const breakdown = computeBreakdown({
      messages: [
        { role: 'system', content: 'main prompt' },
        block('a contributed block', '@acme/plugin-notes/notes'),
        { role: 'user', content: 'question' },
        block('continue please', 'continuation-prompt'),
        block('no more tools', 'tool-iteration-limit'),
        block('fix the format', 'format-check'),
      ],
      tools: [],
      personaPrompt: undefined,
      categories: new Map([['@acme/plugin-notes/notes', 'other' as const]]),
      instanceId,
      maxTokens: 100,
    });
    expect(Object.keys(breakdown.injectors).sort()).toEqual([
      '@acme/plugin-notes/notes',
      'agent-2/continuation-prompt',
      'agent-2/format-check',
      'agent-2/system-prompt',
      'agent-2/tool-iteration-limit',
    ]);
  });

  it('per-session state (the usage-log throttle) is released when a session is deleted', async () => {
    harness = await startHarness();
    const manager = harness.booted.app.services.selected(sessionManager)!.impl;
    const usageLines = () => agentLines(harness!).filter((line) => line.startsWith('[token-usage:'));
    await manager.ensure({ id: SESSION, kind: 'direct', platform: 'cli' });
    harness.server.enqueue(textReply('one'), textReply('two'), textReply('three'));
    await harness.say('first');
    await harness.say('second');
    // First turn of the session prints; the second, in the same band, does not.
    expect(usageLines()).toHaveLength(1);
    await manager.deleteSession(SESSION);
    await manager.ensure({ id: SESSION, kind: 'direct', platform: 'cli' });
    await harness.say('after deletion');
    // A session of that id is new again: its first turn prints.
    expect(usageLines()).toHaveLength(2);
  });
});
