// The plugin through the real agent: a reminder set by the model fires as an injection with its own turn; the
// never-firing cron reaches the model as a clear error; idle prompts open an idle turn that is not archived.
import { backgroundTasks } from '@aalis/api-background';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import schedulePlugin, { IDLE_FIELD, SCHEDULE_CREATE_TOOL, SCHEDULE_LIST_TOOL } from './index.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('plugin-schedule', () => {
  it('a reminder the model sets fires once as an injection with its own turn', async () => {
    harness = await startHarness({ extra: [[schedulePlugin, { pollIntervalMs: 50, timeZone: 'UTC' }]] });
    const turns = harness.booted.capture('outbound:message');
    const opened: Array<Array<{ source?: string; triggerType?: string }>> = [];
    harness.booted.app.services.selected(hooks)!.impl.middleware('agent:turn:before', async (data, next) => {
      opened.push(data.inputs.map((input) => input.message));
      await next();
    });
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', name: SCHEDULE_CREATE_TOOL, arguments: { prompt: 'tell Ada to stretch', inMinutes: 0.01 } },
      ]),
      textReply('I will remind you'),
      textReply('Time to stretch, Ada!'),
    );
    await harness.say('remind me to stretch in a moment');
    await until(() => turns.some((message) => message.content === 'Time to stretch, Ada!'), 'the reminder turn');
    const fired = harness.requests()[2]!;
    const last = fired.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(String(last.content)).toMatch(/\[定时任务 sch-[0-9a-f]{8}\] tell Ada to stretch/);
    // Its own turn, with the firing as its only input.
    expect(opened).toHaveLength(2);
    expect(opened[1]).toEqual([expect.objectContaining({ source: 'schedule', triggerType: 'scheduled' })]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.requests()).toHaveLength(3);
  });

  it('a cron expression that never fires is a clear error to the model', async () => {
    harness = await startHarness({ extra: [[schedulePlugin, { pollIntervalMs: 50, timeZone: 'UTC' }]] });
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: SCHEDULE_CREATE_TOOL, arguments: { prompt: 'x', cron: '0 0 30 2 *' } }]),
      textReply('that date never comes'),
    );
    await harness.say('every February 30th');
    const tool = harness.requests()[1]!.messages.find((message) => message.role === 'tool')!;
    expect(String(tool.content)).toContain(
      'cron 表达式 0 0 30 2 * 永远不会触发（如 2 月 30 日）。请换一个会到来的时间。',
    );
  });

  it('a reminder set inside a child session (a subtask) fires in the session above it, where a person reads it', async () => {
    harness = await startHarness({ extra: [[schedulePlugin, { pollIntervalMs: 50, timeZone: 'UTC' }]] });
    const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
    await sessions.ensure({ id: 'cli:owner', kind: 'cli', platform: 'cli' });
    // A subtask's session, as @aalis/plugin-subtask makes it: its replies go to nobody but the parent's tool.
    await sessions.ensure({ id: 'subtask:st-1', kind: 'child', platform: 'subtask', parentId: 'cli:owner' });
    const outbound = harness.booted.capture('outbound:message');
    const opened: string[] = [];
    harness.booted.app.services.selected(hooks)!.impl.middleware('agent:turn:before', async (data, next) => {
      opened.push(data.sessionId);
      await next();
    });
    harness.server.enqueue(
      toolCallReply([
        { id: 'c1', name: SCHEDULE_CREATE_TOOL, arguments: { prompt: 'tell Ada to stretch', inMinutes: 0.01 } },
      ]),
      toolCallReply([{ id: 'c2', name: SCHEDULE_LIST_TOOL, arguments: {} }]),
      textReply('reminder set'),
      textReply('Time to stretch, Ada!'),
    );
    await harness.agent.handleMessage({
      sessionId: 'subtask:st-1',
      platform: 'subtask',
      sender: {},
      source: 'subtask',
      triggerType: 'proactive',
      content: 'remind Ada to stretch in a moment',
      fromTurn: {
        turnId: 't-parent',
        sessionId: 'cli:owner',
        platform: 'cli',
        participants: [{ platform: 'cli', userId: 'owner' }],
        userId: 'owner',
      },
    });
    await until(() => outbound.some((message) => message.content === 'Time to stretch, Ada!'), 'the reminder turn');
    const reminder = outbound.find((message) => message.content === 'Time to stretch, Ada!')!;
    expect(reminder.sessionId).toBe('cli:owner');
    expect(opened).toEqual(['subtask:st-1', 'cli:owner']);
    // The subtask lists what it set: the tasks of the session they belong to.
    const listed = harness
      .requests()[2]!
      .messages.filter((message) => message.role === 'tool')
      .at(-1)!;
    expect(JSON.parse(String(listed.content))).toMatchObject([{ prompt: 'tell Ada to stretch', status: 'scheduled' }]);
    const [task] = await harness.booted.app.services.selected(backgroundTasks)!.impl.list('cli:owner');
    expect(task).toMatchObject({ kind: 'schedule' });
  });

  it('an idle prompt opens one idle turn after the quiet time, and it is not archived', async () => {
    harness = await startHarness({ extra: [[schedulePlugin, { pollIntervalMs: 50, timeZone: 'UTC' }]] });
    const services = harness.booted.app.services;
    await services.selected(sessionManager)!.impl.ensure({ id: 'cli:owner', kind: 'cli', platform: 'cli' });
    const fields = services.selected(sessionFields)!.impl;
    const caller = { via: 'host' as const };
    await fields.set({
      layer: 'session',
      target: 'cli:owner',
      key: IDLE_FIELD.prompt,
      value: 'Say something nice.',
      caller,
    });
    await fields.set({ layer: 'session', target: 'cli:owner', key: IDLE_FIELD.afterMinutes, value: 0.005, caller });
    harness.server.enqueue(textReply('hello'), textReply('It is a lovely day.'));
    await harness.say('hi');
    await until(() => harness!.requests().length >= 2, 'the idle turn');
    const idle = harness.requests()[1]!;
    const last = idle.messages.at(-1)!;
    expect(last.role).toBe('system');
    expect(String(last.content)).toMatch(/^\(.+\) Say something nice\.$/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Once per quiet spell: the idle turn does not arm another one.
    expect(harness.requests()).toHaveLength(2);
    const history = await harness.history();
    expect(history.some((message) => String(message.content).includes('Say something nice.'))).toBe(false);
    expect(history.some((message) => message.content === 'It is a lovely day.')).toBe(true);
  });

  it('/remind, /schedule.cron, /schedules and /schedule.cancel', async () => {
    harness = await startHarness({ extra: [[schedulePlugin, { pollIntervalMs: 50, timeZone: 'Asia/Shanghai' }]] });
    const [reminded] = await harness.command('/remind 2h drink water');
    expect(reminded).toMatch(
      /^已定好：id=sch-[0-9a-f]{8}，下次触发 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\+08:00（Asia\/Shanghai）。$/,
    );
    const [cron] = await harness.command('/schedule.cron "0 9 * * 1-5" stand-up notes --tz Europe/Paris');
    expect(cron).toContain('（Europe/Paris）');
    expect(await harness.command('/schedule.cron "0 0 30 2 *" never')).toEqual([
      'cron 表达式 0 0 30 2 * 永远不会触发（如 2 月 30 日）。请换一个会到来的时间。（AALIS_SCHEDULE_NEVER_FIRES）',
    ]);
    expect(await harness.command('/remind soon-ish tea')).toEqual([
      '时间 soon-ish 看不懂：请写 ISO 8601 时刻（如 2026-12-02T09:00）或时长（如 10m、2h、1d）。（AALIS_SCHEDULE_TIME_INVALID）',
    ]);
    const [listed] = await harness.command('/schedules');
    const lines = listed!.split('\n');
    expect(lines).toHaveLength(2);
    const id = /^(sch-[0-9a-f]{8})/.exec(lines.find((line) => line.includes('drink water'))!)![1]!;
    expect(await harness.command(`/schedule.cancel ${id}`)).toEqual([`已取消 ${id}。`]);
    expect(await harness.command(`/schedule.cancel ${id}`)).toEqual([`${id} 已不在计划中（状态：cancelled）。`]);
    expect(harness.requests()).toHaveLength(0);
  });
});
