// plugin-agent.zh.md 「工具调用上下文」, 「新消息怎么处理」 (queue event, log lines, focus block), api-agent clearing,
// the stop marker's naming rule, agent:tool:after metadata, and thinking levels in requests.
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { definePlugin } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

describe('工具调用上下文', () => {
  it('carries participants, userId, inbound, turnId, callId and signal of the turn', async () => {
    const gate = gatedTool('slow', 'done waiting');
    harness = await startHarness({ tools: [gate.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('ok'));
    const streamed: string[] = [];
    harness.booted.app.events.on('outbound:stream', (fragment) => {
      if (fragment.toolCallProgress) streamed.push(fragment.toolCallProgress.callId);
    });
    const turn = harness.say('go', { messageId: 'm-1' });
    await gate.started;
    gate.release();
    await turn;
    const [context] = gate.contexts;
    expect(context).toMatchObject({
      sessionId: 'cli:owner',
      platform: 'cli',
      userId: 'owner',
      participants: [{ platform: 'cli', userId: 'owner' }],
      inbound: { source: undefined, messageId: 'm-1' },
      acceptsImages: false,
    });
    expect(context!.turnId).toMatch(/^turn_/);
    // The callId streamed while the model wrote the call is the one it runs with.
    expect(streamed[0]).toBe(context!.callId);
    expect(context!.signal.aborted).toBe(false);
  });
});

describe('agent:tool:after', () => {
  it('keys written to metadata are stored with the tool result, with turnId and callId', async () => {
    harness = await startHarness({
      tools: [
        { name: 'ping', description: 'pings', parameters: { type: 'object', properties: {} }, handler: () => 'pong' },
      ],
      extra: [
        definePlugin({
          name: '@test/approvals',
          uses: { hooks },
          apply({ hooks }) {
            hooks.use.middleware('agent:tool:after', async (context, next) => {
              context.metadata.approval = 'auto';
              await next();
            });
          },
        }),
      ],
    });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'ping', arguments: {} }]), textReply('ok'));
    await harness.say('ping');
    const result = (await harness.history()).find((m) => m.role === 'tool')!;
    expect(result.metadata).toMatchObject({ approval: 'auto' });
    expect(result.metadata?.[WellKnownMetadataKeys.TurnId]).toBeDefined();
    expect(result.metadata?.[WellKnownMetadataKeys.CallId]).toBeDefined();
  });
});

describe('新消息怎么处理: agent:queue and the log lines', () => {
  it('reports waiting inputs and logs → 待插入 / → 插入 with arrival numbers, and the turn-end info line, without bodies', async () => {
    const gate = gatedTool('slow', 'done waiting');
    harness = await startHarness({ tools: [gate.tool] });
    const queue = harness.booted.capture('agent:queue');
    const service = harness.booted.app.services.selected(gateway)!.impl;
    const send = (content: string) =>
      service.receive({
        sessionId: 'cli:owner',
        platform: 'cli',
        sender: { userId: 'owner', displayName: 'Owner Nick' },
        content,
      });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('ok'));
    const first = send('secret one');
    await gate.started;
    const second = send('secret two');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.at(-1)!.waiting.map((m) => m.content)).toEqual(['secret two']);
    gate.release();
    await Promise.all([first, second]);
    expect(queue.at(-1)!.waiting).toEqual([]);
    const lines = harness.booted.logs.filter((r) => r.name === '@aalis/plugin-agent').map((r) => r.message);
    expect(lines.some((line) => /^→ 开轮 #\d+ session=cli:owner turn=turn_/.test(line))).toBe(true);
    expect(lines.some((line) => /^→ 待插入 #\d+ session=cli:owner$/.test(line))).toBe(true);
    expect(lines.some((line) => /^→ 插入 #\d+ session=cli:owner turn=turn_/.test(line))).toBe(true);
    const end = lines.find((line) => line.startsWith('回合结束'))!;
    expect(end).toMatch(/^回合结束 turn=turn_\S+ session=cli:owner 结局=replied 用时=\d+ms 输入 #\d+ #\d+$/);
    expect(lines.join('\n')).not.toMatch(/secret|Owner Nick/);
  });

  it('多方房间: joined inputs that address her get a focus block before them listing those addressed so far', async () => {
    const gate = gatedTool('slow', 'done waiting');
    harness = await startHarness({ tools: [gate.tool] });
    const manager = harness.booted.app.services.selected(sessionManager)!.impl;
    await manager.ensure({ id: 'room', kind: 'room', platform: 'cli', originChat: { multiParty: true } });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('ok'));
    const first = harness.say('start', { sessionId: 'room', sender: { userId: 'alice' }, triggerType: 'direct' });
    await gate.started;
    const joined = harness.say('hey you', { sessionId: 'room', sender: { userId: 'bob' }, triggerType: 'direct' });
    gate.release();
    await Promise.all([first, joined]);
    const second = contents(harness.requests()[1]!.messages);
    const focus = second.findIndex((c) => c.startsWith('[焦点指引]'));
    expect(focus).toBeGreaterThan(0);
    expect(second[focus]).toContain('bob');
    expect(second[focus + 1]).toMatch(/hey you$/);
  });
});

describe('clearing', () => {
  it('stops and holds the session, drops what waits unarchived, runs clear after the turn settled, then lets new inputs in', async () => {
    const gate = gatedTool('slow', 'done waiting');
    harness = await startHarness({ tools: [gate.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('after clear'));
    const order: string[] = [];
    const first = harness.say('long job');
    await gate.started;
    const queued = new Promise<void>((resolve) => {
      harness!.booted.app.events.on('agent:queue', ({ waiting }) => {
        if (waiting.some((m) => m.content === 'waiting input')) resolve();
      });
    });
    const waiting = harness.say('waiting input', { source: 'scheduler' });
    await queued;
    const clearing = harness.agent.clearing(['cli:owner'], async () => {
      order.push('clear');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    const during = harness.say('arrived during the hold').then(() => order.push('held input settled'));
    gate.release();
    await Promise.all([first, waiting, clearing]);
    order.push('clearing done');
    await during;
    expect(order).toEqual(['clear', 'clearing done', 'held input settled']);
    const stored = await harness.history();
    expect(stored.some((m) => m.content.includes('waiting input'))).toBe(false);
    expect(contents(harness.requests().at(-1)!.messages).at(-1)).toMatch(/arrived during the hold$/);
  });
});

describe('保存: the stop marker names who stopped it by the sender-prefix rule', () => {
  it('names the account in a room, and nobody in the owner’s own session', async () => {
    const gate = gatedTool('slow', 'done waiting');
    harness = await startHarness({ tools: [gate.tool] });
    const manager = harness.booted.app.services.selected(sessionManager)!.impl;
    await manager.ensure({ id: 'room', kind: 'room', platform: 'cli', originChat: { multiParty: true } });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]));
    const turn = harness.say('job', { sessionId: 'room', sender: { userId: 'alice' } });
    await gate.started;
    harness.agent.abort('room', { by: { platform: 'cli', userId: 'alice' } });
    gate.release();
    await turn;
    const marker = (await harness.history('room')).find((m) => m.kind === 'turn-stopped')!;
    expect(marker.content).toContain('alice');
  });
});

describe('深度思考', () => {
  it('sends the session’s level only when the model has it', async () => {
    harness = await startHarness();
    harness.server.enqueue(textReply('a'));
    await harness.say('x');
    expect(harness.requests()[0]).not.toHaveProperty('reasoning_effort');
  });
});
