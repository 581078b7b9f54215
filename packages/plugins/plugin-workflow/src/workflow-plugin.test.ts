// The workflow plugin in a real host (agent, tools, gateway, SQLite, the OpenAI-compatible test server): every node
// kind, the manual triggers, cancel (also of a run waiting on an agent turn), workflow_run stopped with its turn,
// and bad workflows and inputs refused with the line of the problem.
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkflowHarness, until, type WorkflowHarness } from './workflow-fixture.case.js';

let harness: WorkflowHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const OWNER = { platform: 'cli', userId: 'owner' };

const everyKind = `description: every node kind
inputs:
  cities: { type: array }
  greeting: { type: string, default: hello }
nodes:
  - id: start
    kind: tool
    tool: count
    arguments: { label: "start {{ inputs.greeting }}" }
  - id: pause
    kind: wait
    duration: 50ms
    needs: [start]
  - id: each
    kind: map
    needs: [pause]
    over: "{{ inputs.cities }}"
    concurrency: 2
    node:
      kind: tool
      tool: count
      arguments: { label: "city {{ item }} #{{ index }}" }
  - id: many
    kind: condition
    needs: [each]
    if: "$count(nodes.each.output) > 1"
  - id: ask
    kind: agent
    needs: [many]
    when: nodes.many.output
    session: cli:owner
    task: "Summarise {{ $join(inputs.cities, ', ') }}"
  - id: never
    kind: tool
    tool: count
    needs: [many]
    when: "$not(nodes.many.output)"
    arguments: { label: never }
  - id: tell
    kind: send
    needs: [ask]
    session: cli:owner
    text: "Report: {{ nodes.ask.output }}"
  - id: sub
    kind: workflow
    needs: [tell]
    workflow: child
    inputs: { label: "{{ nodes.start.output.label }}" }
output: "{{ nodes.sub.output }}"
`;

const child = `inputs:
  label: string
nodes:
  - id: inner
    kind: tool
    tool: count
    arguments: { label: "child of {{ inputs.label }}" }
output: "{{ nodes.inner.output.label }}"
`;

describe('workflow plugin', () => {
  it('runs every node kind in dependency order and stores each step', async () => {
    harness = await startWorkflowHarness();
    harness.write('child', child);
    harness.write('report', everyKind);
    const sent = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('Two cities, both sunny.'));
    const run = await harness.service.start('report', { cities: ['Paris', '北京'] }, { trigger: 'manual', by: OWNER });
    const ended = await harness.service.wait(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', output: 'child of start hello' });
    expect(harness.counted.slice(0, 1)).toEqual(['start hello']);
    expect(harness.counted.slice(1, 3).sort()).toEqual(['city Paris #0', 'city 北京 #1']);
    expect(harness.counted[3]).toBe('child of start hello');
    // The agent node is a delegated task in the target session, with the run's authorised identity.
    const delegation = harness
      .requests()[0]!
      .messages.find((message) => typeof message.content === 'string' && message.content.startsWith('[跨会话委派]'));
    expect(delegation?.content).toContain('Summarise Paris, 北京');
    expect(sent.map((message) => message.content)).toContain('Report: Two cities, both sunny.');
    const detail = await harness.service.run(run.id);
    expect(Object.fromEntries(detail!.steps.map((step) => [step.key, step.status]))).toEqual({
      start: 'succeeded',
      pause: 'succeeded',
      each: 'succeeded',
      'each[0]': 'succeeded',
      'each[1]': 'succeeded',
      many: 'succeeded',
      ask: 'succeeded',
      never: 'skipped',
      tell: 'succeeded',
      sub: 'succeeded',
    });
    expect(detail!.steps.find((step) => step.key === 'ask')).toMatchObject({
      input: { session: 'cli:owner', task: 'Summarise Paris, 北京' },
      output: 'Two cities, both sunny.',
    });
    const runs = await harness.service.runs();
    expect(runs.map((entry) => [entry.workflow, entry.trigger, entry.parentRunId === run.id])).toEqual([
      ['child', 'workflow', true],
      ['report', 'manual', false],
    ]);
  });

  it('a failing step fails the run with its reason; a retry policy tries again', async () => {
    harness = await startWorkflowHarness();
    harness.write(
      'flaky',
      `nodes:
  - id: ask
    kind: agent
    session: cli:owner
    task: try
    retry: { attempts: 2, delay: 10ms }
`,
    );
    harness.server.enqueue({ type: 'error', status: 400, message: 'bad request' }, textReply('second time lucky'));
    const run = await harness.service.start('flaky', {}, { trigger: 'manual', by: OWNER });
    expect(await harness.service.wait(run.id)).toMatchObject({
      status: 'succeeded',
      output: { ask: 'second time lucky' },
    });
    expect((await harness.service.run(run.id))!.steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });

    harness.write('broken', `nodes:\n  - id: t\n    kind: tool\n    tool: count\n    arguments: {}\n`);
    const failed = await harness.service.start('broken', {}, { trigger: 'manual', by: OWNER });
    const end = await harness.service.wait(failed.id);
    expect(end?.status).toBe('failed');
    expect(end?.error).toMatch(/^t: [\s\S]*label/);
  });

  it('cancel stops a run waiting on an agent turn, and the turn with it', async () => {
    harness = await startWorkflowHarness();
    harness.write('slow', `nodes:\n  - id: ask\n    kind: agent\n    session: cli:owner\n    task: think long\n`);
    let release!: () => void;
    harness.server.enqueue({
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: 'thinking…' },
        { until: new Promise<void>((resolve) => (release = resolve)) },
        { done: true },
      ],
    });
    const ends = harness.booted.capture('agent:turn:end' as never);
    const run = await harness.service.start('slow', {}, { trigger: 'manual', by: OWNER });
    await until(
      async () =>
        (await harness!.service.run(run.id))?.steps[0]?.input !== undefined && harness!.requests().length === 1,
      'the turn to start',
    );
    await until(
      async () =>
        typeof ((await harness!.service.run(run.id))!.steps[0]!.input as { turnId?: string }).turnId === 'string',
      'the turn id',
    );
    expect(await harness.service.cancel(run.id)).toBe(true);
    release();
    const ended = await harness.service.run(run.id);
    expect(ended).toMatchObject({ status: 'cancelled' });
    expect(ended!.steps[0]).toMatchObject({ status: 'cancelled' });
    const history = await harness.history();
    expect(history.some((message) => message.role === 'assistant' && message.content.includes('thinking'))).toBe(false);
    expect(await harness.service.cancel(run.id)).toBe(false);
    void ends;
  });

  it('workflow_run stops waiting when its turn is stopped; the run goes on', async () => {
    harness = await startWorkflowHarness();
    harness.write('long', `nodes:\n  - id: w\n    kind: wait\n    duration: 30s\n`);
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'workflow_run', arguments: '{"name":"long"}' }]));
    const turn = harness.say('run the long workflow', { actor: OWNER });
    await until(async () => (await harness!.service.runs()).length === 1, 'the run to start');
    expect(harness.agent.abort('cli:owner')).toBe(true);
    await turn;
    const [run] = await harness.service.runs();
    expect(run!.status).toBe('running');
    const toolResult = (await harness.history()).find((message) => message.role === 'tool');
    expect(toolResult?.content ?? '').toMatch(/不再等运行|no longer waiting/);
    expect(await harness.service.cancel(run!.id)).toBe(true);
    expect((await harness.service.run(run!.id))!.status).toBe('cancelled');
  });

  it('refuses bad workflows on save with the line of each problem, and bad inputs on start; /workflow lists and runs', async () => {
    harness = await startWorkflowHarness();
    await expect(
      harness.service.save(
        'loop',
        `nodes:\n  - id: a\n    kind: wait\n    duration: 1s\n    needs: [b]\n  - id: b\n    kind: wait\n    duration: 1s\n    needs: [a]\n`,
      ),
    ).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_INVALID',
      details: { problems: [expect.objectContaining({ line: 5 })] },
    });
    expect(await harness.service.validate('x', `nodes:\n  - id: a\n    kind: tool\n    tool: nope\n`)).toEqual([
      expect.objectContaining({ line: 4, message: expect.stringContaining('nope') }),
    ]);
    await harness.service.save(
      'greet',
      `inputs:\n  who: string\nnodes:\n  - id: hi\n    kind: tool\n    tool: count\n    arguments: { label: "hi {{ inputs.who }}" }\n`,
    );
    await expect(harness.service.start('greet', {}, { trigger: 'manual' })).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_INPUT_INVALID',
    });
    await expect(harness.service.start('greet', { who: 3 }, { trigger: 'manual' })).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_INPUT_INVALID',
    });
    await expect(harness.service.start('nothing', {}, { trigger: 'manual' })).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_UNKNOWN',
    });
    expect(await harness.command('/workflow list')).toEqual(['greet']);
    const [started] = await harness.command('/workflow run greet who=Ada');
    const runId = /wr_[0-9a-f]+/.exec(started!)![0];
    await harness.service.wait(runId);
    expect(harness.counted).toEqual(['hi Ada']);
    const [shown] = await harness.command(`/workflow show ${runId}`);
    expect(shown).toContain('- hi (tool)');
  });
});
