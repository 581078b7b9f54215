// Subtasks through the real agent: child sessions, assignModel before the first message, the delegation block,
// 「子任务」 accounting, waiting and stopping.
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

const spawn = (task: string, extra: Record<string, unknown> = {}) => ({
  name: SPAWN_SUBTASK_TOOL,
  arguments: { task, ...extra },
});

/** The tool results in the parent's `index`-th model call (child sessions' calls left out). */
function toolResults(h: SubtaskHarness, index: number): string[] {
  return h
    .requests()
    .filter((body) => !body.messages.some((message) => String(message.content).startsWith('[跨会话委派]')))
    [index]!.messages.filter((message) => message.role === 'tool')
    .map((message) => String(message.content));
}

describe('spawn_subtask and wait_subtasks', () => {
  it('runs two subtasks in child sessions as delegations, with their model assigned, and waits for both', async () => {
    harness = await startSubtaskHarness();
    const usage = harness.booted.capture('llm:usage');
    harness.child('task alpha', textReply('alpha done'));
    harness.child('task beta', textReply('beta done'));
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', ...spawn('task alpha') },
        { id: 'c2', ...spawn('task beta') },
      ]),
      toolCallReply([{ id: 'c3', name: WAIT_SUBTASKS_TOOL, arguments: {} }]),
      textReply('both came back'),
    );
    await harness.say('split this in two');

    const children = await harness.sessions.children('cli:owner');
    expect(children.map((child) => [child.kind, child.parentId])).toEqual([
      ['child', 'cli:owner'],
      ['child', 'cli:owner'],
    ]);
    for (const child of children) {
      // assignModel wrote the child's own session-layer model before its first message.
      expect(await harness.fields.layerValues({ layer: 'session', target: child.id })).toMatchObject({
        llm: { provider: 'test', model: 'test-model' },
      });
    }
    const bodies = harness.requests() as Array<Record<string, unknown>>;
    const alpha = bodies.find((body) => isDelegationOf(body, 'task alpha'))!;
    expect(alpha).toBeDefined();
    // A delegation turn has no current user message: only the instruction block.
    const last = (alpha.messages as Array<{ role: string }>).at(-1)!;
    expect(last.role).toBe('system');
    const waited = JSON.parse(toolResults(harness, 2).at(-1)!) as Array<{ status: string; result: string }>;
    expect(waited.map((entry) => [entry.status, entry.result]).sort()).toEqual([
      ['done', 'alpha done'],
      ['done', 'beta done'],
    ]);
    const childIds = new Set(children.map((child) => child.id));
    expect(usage.filter((event) => childIds.has(event.sessionId)).map((event) => event.purpose)).toEqual([
      'subtask',
      'subtask',
    ]);
    expect(new Set(usage.filter((event) => event.sessionId === 'cli:owner').map((event) => event.purpose))).toEqual(
      new Set(['conversation']),
    );
    const listed = await harness.background.list('cli:owner');
    expect(listed.map((task) => [task.kind, task.status, task.tokens! > 0])).toEqual([
      ['subtask', 'done', true],
      ['subtask', 'done', true],
    ]);
  });

  it('wait_subtasks answers 已中止 at once when /stop stops its turn; the subtask keeps running until stopped itself', async () => {
    harness = await startSubtaskHarness();
    const toolEvents = harness.booted.capture('tool:execute');
    harness.child('long job', slowReply('too late', 60_000));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', ...spawn('long job') }]),
      toolCallReply([{ id: 'c2', name: WAIT_SUBTASKS_TOOL, arguments: { timeoutSeconds: 600 } }]),
    );
    const turn = harness.say('do the long job');
    await until(
      () => toolEvents.some((event) => event.phase === 'start' && event.name === WAIT_SUBTASKS_TOOL),
      'wait_subtasks to start',
    );
    const stopped = Date.now();
    expect(await harness.command('/stop')).toEqual([]);
    await turn;
    expect(Date.now() - stopped).toBeLessThan(5_000);
    const history = await harness.history();
    const waitResult = history.find((message) => message.role === 'tool' && message.toolCallId === 'c2');
    expect(waitResult?.content).toBe('已中止');
    const [task] = await harness.background.list('cli:owner');
    expect(task?.status).toBe('running');
    // Stopping the subtask (the 后台 tab's button) aborts its turn.
    expect(await harness.background.stop('cli:owner', task!.id)).toBe(true);
    const recordOf = async () =>
      (await harness!.history(task!.childSessionId)).at(-1)?.metadata?.[WellKnownMetadataKeys.TurnRecord] as
        | { outcome: string }
        | undefined;
    await until(async () => (await recordOf()) !== undefined, 'the child turn to settle');
    expect((await recordOf())?.outcome).toBe('aborted');
    expect((await harness.background.list('cli:owner'))[0]?.status).toBe('stopped');
  });

  it('/subtasks lists the session’s subtasks and /subtask.stop stops one', async () => {
    harness = await startSubtaskHarness();
    harness.child('slow survey', slowReply('too late', 60_000));
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', ...spawn('slow survey', { background: true }) }]),
      textReply('started it'),
    );
    await harness.say('start a survey');
    const [task] = await harness.background.list('cli:owner');
    const [listed] = await harness.command('/subtasks');
    expect(listed).toMatch(new RegExp(`^${task!.id}  running  \\d+ token  slow survey$`));
    expect(await harness.command(`/subtask.stop ${task!.id}`)).toEqual([`子任务 ${task!.id} 已停下。`]);
    expect(await harness.command(`/subtask.stop ${task!.id}`)).toEqual([
      `子任务 ${task!.id} 不在运行（状态：stopped）。`,
    ]);
    expect(await harness.command('/subtask.stop st-nope')).toEqual([
      '本会话没有子任务 st-nope（/subtasks 列出本会话的子任务）。',
    ]);
  });
});
