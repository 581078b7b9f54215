// Background subtasks: the host notice that opens a continuation turn (fromTurn, the original participants,
// inbound.messageId quoting the starting message), 「全部停止」 releasing queued inputs, deleting the parent.
import type { TurnBeforeContext } from '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import type { ToolCallContext } from '@aalis/api-tools';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SPAWN_SUBTASK_TOOL, WAIT_SUBTASKS_TOOL } from './index.js';
import { isDelegationOf, type SubtaskHarness, slowReply, startSubtaskHarness, until } from './subtask-fixture.case.js';

let harness: SubtaskHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('background subtasks', () => {
  it('ends with a host notice that opens a continuation turn quoting the message that started it', async () => {
    const contexts: ToolCallContext[] = [];
    harness = await startSubtaskHarness({
      tools: [
        {
          name: 'probe',
          description: 'records its context',
          parameters: { type: 'object', properties: {} },
          handler: (_args, context) => {
            contexts.push(context);
            return 'seen';
          },
        },
      ],
    });
    const turns: TurnBeforeContext[] = [];
    harness.booted.app.services.selected(hooks)!.impl.middleware('agent:turn:before', async (data, next) => {
      if (data.sessionId === 'cli:owner') turns.push(data);
      await next();
    });
    const outbound = harness.booted.capture('outbound:message');
    harness.child('find the answer', textReply('the answer is 42'));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'find the answer', background: true } }]),
      textReply('working on it'),
      // The continuation turn: it checks its tool context, then replies.
      toolCallReply([{ id: 'c2', name: 'probe', arguments: {} }]),
      textReply('it is 42'),
    );
    await harness.say('what is the answer?', { messageId: 'm-42' });
    await until(() => outbound.some((message) => message.content === 'it is 42'), 'the continuation reply');

    const [first, continuation] = turns;
    const notice = continuation!.inputs[0]!.message;
    expect(notice.hostNotice).toMatchObject({ kind: 'subtask' });
    expect(notice.hostNotice!.untrusted).toContain('the answer is 42');
    expect(notice.fromTurn).toEqual({
      turnId: first!.turnId,
      sessionId: 'cli:owner',
      platform: 'cli',
      participants: [{ platform: 'cli', userId: 'owner' }],
      userId: 'owner',
    });
    expect(contexts[0]!.inbound).toMatchObject({ source: 'subtask', messageId: 'm-42' });
    expect(contexts[0]!.inbound.fromTurn?.turnId).toBe(first!.turnId);
    expect(contexts[0]!.participants).toEqual([{ platform: 'cli', userId: 'owner' }]);
    const reply = outbound.find((message) => message.content === 'it is 42')!;
    expect(reply.replyTo).toBe('m-42');
    expect(reply.hostNotice).toEqual({ kind: 'subtask', id: notice.hostNotice!.id });
    // The untrusted part is for that turn only: the archived notice keeps the host's text alone.
    const archived = (await harness.history()).find((message) =>
      String(message.content).includes(notice.hostNotice!.id),
    )!;
    expect(String(archived.content)).not.toContain('the answer is 42');
  });

  it('wait_subtasks in the turn that spawned a background subtask returns when it ends, not after its continuation', async () => {
    harness = await startSubtaskHarness();
    harness.child('quick job', textReply('quick result'));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'quick job', background: true } }]),
      // Waits with a long timeout: the subtask ends at once, so only waiting for the notice's turn would last.
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: { timeoutSeconds: 600 } }]),
      textReply('the parent saw it'),
    );
    await harness.say('do the quick job');
    const parentCalls = harness.server.chatBodies().filter((body) => !isDelegationOf(body, 'quick job'));
    const waited = (parentCalls[2]!.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(waited.role).toBe('tool');
    expect(JSON.parse(waited.content)).toMatchObject([{ status: 'done', result: 'quick result' }]);
  });

  it('a background subtask whose result wait_subtasks returned opens no continuation turn: the answer is given once', async () => {
    harness = await startSubtaskHarness();
    const outbound = harness.booted.capture('outbound:message');
    const opened: string[] = [];
    harness.booted.app.services.selected(hooks)!.impl.middleware('agent:turn:before', async (data, next) => {
      if (data.sessionId === 'cli:owner') opened.push(data.turnId);
      await next();
    });
    harness.child('quick job', textReply('quick result'));
    harness.child('slow job', slowReply('slow result', 400));
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'quick job', background: true } },
        { id: 'c2', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'slow job', background: true } },
      ]),
      // Collects both: the quick one ended (its notice already queued behind this turn) before the wait began.
      toolCallReply([{ id: 'c3', name: WAIT_SUBTASKS_TOOL, arguments: { timeoutSeconds: 600 } }]),
      textReply('quick result and slow result'),
    );
    // What a continuation turn would answer, if one opened.
    harness.server.enqueue(textReply('the same results again'));
    await harness.say('do both jobs');
    const tasks = await harness.background.list('cli:owner');
    expect(tasks.map((task) => task.status)).toEqual(['done', 'done']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const parentReplies = outbound.filter((message) => message.sessionId === 'cli:owner').map((m) => m.content);
    expect(parentReplies).toEqual(['quick result and slow result']);
    expect(opened).toHaveLength(1);
    expect(harness.server.pending()).toBe(1);
    // The notices are not archived either: the history holds the results once, in the wait_subtasks result.
    const history = await harness.history();
    expect(history.some((message) => String(message.content).includes('[宿主通知]'))).toBe(false);
  });

  it('a background subtask still reports back when the turn whose wait returned its result was stopped before replying', async () => {
    harness = await startSubtaskHarness();
    const outbound = harness.booted.capture('outbound:message');
    harness.child('quick job', textReply('quick result'));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'quick job', background: true } }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: { timeoutSeconds: 600 } }]),
      slowReply('never said', 60_000),
      textReply('the quick job says: quick result'),
    );
    const said = harness.say('do the quick job');
    await until(() => harness!.requests().length >= 4, 'the answering call after the wait');
    expect(harness.agent.abort('cli:owner')).toBe(true);
    await said;
    await until(
      () => outbound.some((message) => message.content === 'the quick job says: quick result'),
      'the continuation',
      8_000,
    );
  });

  it('a background subtask still reports back when the wait for it ran out first', async () => {
    harness = await startSubtaskHarness();
    const outbound = harness.booted.capture('outbound:message');
    harness.child('slow job', slowReply('slow result', 1_500));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'slow job', background: true } }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: { timeoutSeconds: 1 } }]),
      textReply('still running, I will tell you'),
      textReply('the slow job says: slow result'),
    );
    await harness.say('do the slow job');
    await until(
      () => outbound.some((message) => message.content === 'the slow job says: slow result'),
      'the continuation',
      8_000,
    );
  });

  it('「全部停止」 aborts every background subtask and releases their queued inputs, archived without a turn id', async () => {
    harness = await startSubtaskHarness();
    const queues = harness.booted.capture('agent:queue');
    const opened: string[] = [];
    harness.booted.app.services.selected(hooks)!.impl.middleware('agent:turn:before', async (data, next) => {
      opened.push(data.sessionId);
      await next();
    });
    const turnsOfParent = () => opened.filter((sessionId) => sessionId === 'cli:owner').length;
    harness.child('job one', slowReply('late one', 60_000));
    harness.child('job two', slowReply('late two', 60_000));
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'job one', background: true } },
        { id: 'c2', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'job two', background: true } },
      ]),
      textReply('both started'),
    );
    await harness.say('start two jobs');
    const tasks = await harness.background.list('cli:owner');
    expect(tasks.map((task) => task.status)).toEqual(['running', 'running']);
    await until(() => harness!.requests().length >= 4, 'both children calling the model');
    // A follow-up waiting in one child's queue is released by 「全部停止」.
    const followUp = harness.agent.handleMessage({
      sessionId: tasks[0]!.childSessionId!,
      platform: 'subtask',
      sender: {},
      source: 'subtask',
      triggerType: 'proactive',
      content: 'and one more thing',
    });
    await until(
      () =>
        queues.some(
          (event) =>
            event.sessionId === tasks[0]!.childSessionId &&
            event.waiting.some((m) => m.content === 'and one more thing'),
        ),
      'the follow-up to be queued',
    );
    expect(await harness.background.stopAll('cli:owner', { platform: 'cli', userId: 'owner' })).toBe(2);
    await followUp;
    await until(
      async () => (await harness!.background.list('cli:owner')).every((task) => task.status === 'stopped'),
      'stopped',
    );
    const released = (await harness.history(tasks[0]!.childSessionId)).find(
      (message) => message.content === 'and one more thing' || String(message.content).includes('and one more thing'),
    );
    expect(released).toBeDefined();
    expect(released!.metadata?.[WellKnownMetadataKeys.TurnId]).toBeUndefined();
    expect(await harness.background.stopAll('cli:owner')).toBe(0);
    // Stopped by a person, they report nothing: no continuation turn opens in the parent.
    const calls = harness.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.requests()).toHaveLength(calls);
    expect(turnsOfParent()).toBe(1);
  });

  it('deleting the parent deletes its child sessions first and ends their subtasks', async () => {
    harness = await startSubtaskHarness();
    harness.child('endless', slowReply('never', 60_000));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SPAWN_SUBTASK_TOOL, arguments: { task: 'endless', background: true } }]),
      textReply('started'),
    );
    await harness.say('go');
    const [task] = await harness.background.list('cli:owner');
    const report = await harness.sessions.deleteSession('cli:owner');
    expect(report.deleted).toEqual([task!.childSessionId, 'cli:owner']);
    expect(await harness.sessions.get(task!.childSessionId!)).toBeUndefined();
    expect(await harness.background.list('cli:owner')).toEqual([]);
  });
});
