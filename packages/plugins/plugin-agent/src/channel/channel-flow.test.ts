// plugin-agent.zh.md 「新消息怎么处理」, 「指令」 /stop, 「会话删除」 — the session channel driven end to end.
import { sessionManager } from '@aalis/api-session-manager';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, slowText, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

describe('新消息怎么处理', () => {
  it('叠加: a message arriving during a tool call joins before the next model call, after that tool group', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('both answered'));
    const first = harness.say('first question');
    await slow.started;
    const second = harness.say('second thought', { sender: { userId: 'owner' } });
    slow.release();
    await Promise.all([first, second]);
    const requests = harness.requests();
    expect(requests).toHaveLength(2);
    const next = requests[1]!.messages;
    const toolIndex = next.findIndex((m) => m.role === 'tool');
    const joinedIndex = contents(next).findIndex((c) => c.endsWith('second thought'));
    expect(joinedIndex).toBeGreaterThan(toolIndex);
    const stored = await harness.history();
    const joined = stored.find((m) => m.content.endsWith('second thought'))!;
    expect(joined.metadata?.[WellKnownMetadataKeys.TurnEntry]).toBe('joined');
  });

  it('排队: a message arriving while the final reply is written opens the next turn with the 「下面几条是你上一轮进行期间到的」 header', async () => {
    harness = await startHarness();
    harness.server.enqueue(slowText('writing the answer', 150), textReply('second answer'));
    const streamed = new Promise<void>((resolve) => {
      harness!.booted.app.events.on('outbound:stream', (fragment) => {
        if (fragment.delta) resolve();
      });
    });
    const first = harness.say('question');
    await streamed;
    const late = harness.say('late remark');
    await Promise.all([first, late]);
    const requests = harness.requests();
    expect(requests).toHaveLength(2);
    expect(contents(requests[0]!.messages).some((c) => c.includes('late remark'))).toBe(false);
    const second = contents(requests[1]!.messages);
    const header = second.findIndex((c) => c.includes('下面几条是你上一轮进行期间到的'));
    expect(header).toBeGreaterThan(0);
    expect(second.findIndex((c) => c.endsWith('late remark'))).toBeGreaterThan(header);
  });

  it('排队: an injection never joins a running turn; it runs as a turn of its own', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]),
      textReply('first done'),
      textReply('cron done'),
    );
    const first = harness.say('start');
    await slow.started;
    const injected = harness.say('scheduled reminder', { source: 'scheduler', triggerType: 'scheduled' });
    slow.release();
    await Promise.all([first, injected]);
    const requests = harness.requests();
    expect(requests).toHaveLength(3);
    expect(contents(requests[1]!.messages).some((c) => c.includes('scheduled reminder'))).toBe(false);
    expect(contents(requests[2]!.messages).at(-1)).toContain('scheduled reminder');
  });
});

describe('指令 /stop', () => {
  it('refuses someone who is not taking part, and reports when no turn runs', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    const replies = harness.booted.capture('outbound:message');
    const gateway = (await import('@aalis/api-gateway')).gateway;
    const service = harness.booted.app.services.selected(gateway)!.impl;
    const send = (userId: string, content: string) =>
      service.receive({ sessionId: 'room', platform: 'cli', sender: { userId }, content });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('after'));
    const running = send('alice', 'work please');
    await slow.started;
    await send('mallory', '/stop');
    expect(replies.map((r) => r.content)).toContain('只有参与这一轮的人和 owner 能停');
    slow.release();
    await running;
    await send('alice', '/stop');
    expect(replies.map((r) => r.content)).toContain('没有在跑的一轮');
  });

  it('abort during a slow tool keeps the completed group, writes the stop marker, and the next turn sees it', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('next turn reply'));
    const first = harness.say('long job');
    await slow.started;
    expect(harness.agent.abort('cli:owner', { by: { platform: 'cli', userId: 'owner' } })).toBe(true);
    slow.release();
    await first;
    const stored = await harness.history();
    expect(stored.map((m) => m.kind ?? m.role)).toEqual(['user', 'assistant', 'tool', 'turn-stopped', 'event-marker']);
    const marker = stored.find((m) => m.kind === 'turn-stopped')!;
    expect(marker.content.startsWith('[已停下]')).toBe(true);
    expect(stored.at(-1)!.metadata?.[WellKnownMetadataKeys.TurnRecord]).toMatchObject({ outcome: 'aborted' });
    await harness.say('what happened?');
    const next = contents(harness.requests().at(-1)!.messages);
    expect(next.some((c) => c.startsWith('[已停下]'))).toBe(true);
  });
});

describe('会话删除', () => {
  it('deleting a session during a turn stops it and writes nothing afterwards', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('never'));
    const manager = harness.booted.app.services.selected(sessionManager)!.impl;
    await manager.ensure({ id: 'cli:owner', kind: 'direct', platform: 'cli' });
    const turn = harness.say('long job');
    await slow.started;
    const deletion = manager.deleteSession('cli:owner');
    slow.release();
    await Promise.all([turn, deletion]);
    expect(await harness.history()).toEqual([]);
    expect(harness.requests()).toHaveLength(1);
  });
});

describe('room messages that did not address her (triggerType ambient)', () => {
  it('opens no turn while the room is idle: archived without a turn id and read by the next turn as context', async () => {
    harness = await startHarness();
    await harness.say('lunch anyone?', { triggerType: 'ambient', sender: { userId: 'u7', displayName: 'Bob' } });
    expect(harness.requests()).toHaveLength(0);
    const kept = await harness.history();
    expect(kept).toHaveLength(1);
    expect(kept[0]?.role).toBe('user');
    expect(kept[0]?.metadata?.[WellKnownMetadataKeys.TurnId]).toBeUndefined();
    harness.server.enqueue(textReply('Noted.'));
    await harness.say('what did Bob ask?');
    expect(harness.requests()).toHaveLength(1);
    expect(contents(harness.requests()[0]!.messages).join('\n')).toContain('lunch anyone?');
  });

  it('joins a running turn like any person’s message', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('done'));
    const first = harness.say('first question');
    await slow.started;
    const chatter = harness.say('by the way', { triggerType: 'ambient', sender: { userId: 'u7' } });
    slow.release();
    await Promise.all([first, chatter]);
    expect(harness.requests()).toHaveLength(2);
    expect(contents(harness.requests()[1]!.messages).join('\n')).toContain('by the way');
  });
});

describe('agent:queue says which inputs wait to join and which are queued', () => {
  it('a person’s message during a person’s turn waits to join; an injection is queued', async () => {
    const slow = gatedTool();
    harness = await startHarness({ tools: [slow.tool] });
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]),
      textReply('done'),
      textReply('notice handled'),
    );
    const events: { contents: string[]; dispositions: string[] }[] = [];
    harness.booted.app.events.on('agent:queue', (event) => {
      events.push({ contents: event.waiting.map((message) => message.content), dispositions: [...event.dispositions] });
    });
    const first = harness.say('first question');
    await slow.started;
    const injected = harness.say('reminder: stand-up', { source: 'scheduler' });
    const joined = harness.say('one more thing');
    for (let tries = 0; tries < 200 && (events.at(-1)?.contents.length ?? 0) < 2; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(events.at(-1)).toEqual({
      contents: ['reminder: stand-up', 'one more thing'],
      dispositions: ['queue', 'join'],
    });
    slow.release();
    await Promise.all([first, injected, joined]);
  });
});
