// `aalis chat` (and `aalis` with piped input) stays after its input ended while work it started in the terminal's
// session is still due: a background subtask still running, and the continuation turn its host notice opens.
// The real command against the scripted model server.
import {
  type OpenAiTestServer,
  type ScriptedReply,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, serverConfig, temporaryWorkspace } from './spawn-aalis.case.js';

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());
const workspaces: Array<{ remove(): void }> = [];
afterEach(() => {
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
      model.enqueueWhen(isChild('survey the south'), slow('the south is sunny', 2_500));
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'spawn_subtask', arguments: { task: 'survey the south', background: true } }]),
        textReply('I started a survey of the south.'),
        // The continuation turn opened by the subtask's host notice.
        textReply('The survey is back: the south is sunny.'),
      );
      const run = await runAalis({ cwd: workspace.dir, args, input: 'survey the south for me\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('I started a survey of the south.\n');
      expect(run.stdout).toContain('The survey is back: the south is sunny.\n');
      expect(run.stderr).not.toContain('原因=shutdown');
      expect(run.stderr).not.toContain('reason=shutdown');
      expect(model.pending()).toBe(0);
    },
    E2E_TIMEOUT_MS,
  );
});
