// `aalis chat` (and `aalis` with piped input) stays after its input ended while work it started in the terminal's
// session is still due: a background subtask still running, and the continuation turn its host notice opens. With
// them, what the person reads of subtasks (an answer once, a reminder set inside one) and of the tool-call limit.
// The real command against the scripted model server.
import {
  type OpenAiTestServer,
  type ScriptedReply,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, serverConfig, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());
const workspaces: Array<{ remove(): void }> = [];
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const workspace of workspaces.splice(0)) workspace.remove();
  model.reset();
});

const texts = (body: Record<string, unknown>) =>
  ((body.messages ?? []) as Array<{ content?: unknown }>).map((message) => String(message.content ?? ''));
const isChild = (task: string) => (body: Record<string, unknown>) =>
  texts(body).some((text) => text.startsWith('[Cross-session delegation]') && text.includes(task));
const slow = (text: string, ms: number): ScriptedReply => ({
  type: 'stream',
  steps: [{ role: 'assistant' }, { delayMs: ms }, { text }, { finish: 'stop' }, { done: true }],
});

describe.each([
  ['aalis chat', ['chat']],
  ['aalis with piped input', []],
])('%s', (_name, args) => {
  it(
    'waits after the input ended for a background subtask and its continuation turn, then exits 0',
    async () => {
      const workspace = temporaryWorkspace(serverConfig(model.url, '  memory-summary: false\n'));
      workspaces.push(workspace);
      // The subtask answers once the turn that started it has replied, after the input ended: what the command must
      // stay for. (A fixed 2.5 s hold kept every run waiting, or ran out first on a loaded machine.)
      let subtaskMayAnswer!: () => void;
      const held = new Promise<void>((resolve) => {
        subtaskMayAnswer = resolve;
      });
      model.enqueueWhen(isChild('survey the south'), {
        type: 'stream',
        steps: [
          { role: 'assistant' },
          { until: held },
          { text: 'the south is sunny' },
          { finish: 'stop' },
          { done: true },
        ],
      });
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'spawn_subtask', arguments: { task: 'survey the south', background: true } }]),
        textReply('I started a survey of the south.'),
        // The continuation turn opened by the subtask's host notice.
        textReply('The survey is back: the south is sunny.'),
      );
      const child = spawnAalis({ cwd: workspace.dir, args });
      stops.push(() => {
        subtaskMayAnswer();
        if (child.child.exitCode === null) child.child.kill('SIGKILL');
      });
      child.child.stdin!.end('survey the south for me\n');
      await waitFor(() => child.stdout().includes('I started a survey of the south.\n'), {
        timeoutMs: 60_000,
        what: () => `the reply to the line (stdout: ${child.stdout()} stderr: ${child.stderr()})`,
      });
      expect(child.child.exitCode).toBe(null);
      subtaskMayAnswer();
      const run = { code: await child.exited, stdout: child.stdout(), stderr: child.stderr() };
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('The survey is back: the south is sunny.\n');
      expect(run.stderr).not.toContain('原因=shutdown');
      expect(run.stderr).not.toContain('reason=shutdown');
      expect(model.pending()).toBe(0);
    },
    E2E_TIMEOUT_MS,
  );
});

describe('aalis chat: a continuation due when the input ends', () => {
  it(
    'a background subtask that ended during the turn that started it: its queued continuation turn runs, not aborted',
    async () => {
      const workspace = temporaryWorkspace(serverConfig(model.url, '  memory-summary: false\n'));
      workspaces.push(workspace);
      model.enqueueWhen(isChild('count the sheep'), textReply('42 sheep'));
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'spawn_subtask', arguments: { task: 'count the sheep', background: true } }]),
        // The parent's reply takes longer than the subtask: its notice is queued behind this turn.
        slow('Counting has started.', 1_000),
        textReply('There are 42 sheep.'),
      );
      const run = await runAalis({ cwd: workspace.dir, args: ['chat'], input: 'count the sheep\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('Counting has started.\nThere are 42 sheep.\n');
      expect(model.pending()).toBe(0);
    },
    E2E_TIMEOUT_MS,
  );
});

describe('aalis chat: background results and the tool-call limit, as the person reads them', () => {
  it(
    'a background subtask whose result wait_subtasks returned is answered once: no continuation turn repeats it',
    async () => {
      const workspace = temporaryWorkspace(serverConfig(model.url, '  memory-summary: false\n'));
      workspaces.push(workspace);
      model.enqueueWhen(isChild('survey the south'), slow('the south is sunny', 500));
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'spawn_subtask', arguments: { task: 'survey the south', background: true } }]),
        toolCallReply([{ id: 'c2', name: 'wait_subtasks', arguments: { timeoutSeconds: 60 } }]),
        textReply('The south is sunny.'),
      );
      // What a continuation turn would answer, if one opened.
      model.enqueue(textReply('The south is sunny (again).'));
      const run = await runAalis({ cwd: workspace.dir, args: ['chat'], input: 'survey the south and tell me\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('The south is sunny.\n');
      expect(model.pending()).toBe(1);
      expect(model.chatBodies().some((body) => texts(body).some((text) => text.startsWith('[Host notice]')))).toBe(
        false,
      );
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'past maxToolIterations, a server that ignores tool_choice none and sends calls only: the turn says so',
    async () => {
      const config = serverConfig(model.url, '  memory-summary: false\n  agent:\n    maxToolIterations: 1\n');
      const workspace = temporaryWorkspace(config);
      workspaces.push(workspace);
      const calc = (id: string) => toolCallReply([{ id, name: 'calculator', arguments: { expression: '1+1' } }]);
      model.enqueue(calc('c1'), calc('c2'), calc('c3'));
      const run = await runAalis({ cwd: workspace.dir, args: ['chat'], input: 'add forever\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        '[Error] This turn reached its tool-call limit (1) and the model still answered with tool calls only (calculator), no text; those calls were not run. The tool results so far stay in the conversation: send "continue" to let it go on, or raise the session setting maxToolIterations.\n',
      );
      expect((model.chatBodies()[2] as { tool_choice?: unknown }).tool_choice).toBe('none');
    },
    E2E_TIMEOUT_MS,
  );
});

describe('aalis chat: a reminder a subtask sets', () => {
  it(
    'belongs to the terminal session, where the person reads it (/schedules lists it), not to the subtask’s',
    async () => {
      const workspace = temporaryWorkspace(serverConfig(model.url, '  memory-summary: false\n'));
      workspaces.push(workspace);
      model.enqueueWhen(
        isChild('set the stretch reminder'),
        toolCallReply([
          { id: 'n1', name: 'schedule_create', arguments: { prompt: 'tell them to stretch', inMinutes: 90 } },
        ]),
        textReply('Reminder set.'),
      );
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'spawn_subtask', arguments: { task: 'set the stretch reminder' } }]),
        toolCallReply([{ id: 'c2', name: 'wait_subtasks', arguments: { timeoutSeconds: 60 } }]),
        textReply('Your reminder is set.'),
      );
      const run = await runAalis({
        cwd: workspace.dir,
        args: ['chat'],
        input: 'remind me to stretch in 90 minutes\n/schedules\n',
      });
      expect(run.code).toBe(0);
      const [reply, ...listed] = run.stdout.trim().split('\n');
      expect(reply).toBe('Your reminder is set.');
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatch(/^sch-[0-9a-f]{8} .*tell them to stretch/);
    },
    E2E_TIMEOUT_MS,
  );
});
