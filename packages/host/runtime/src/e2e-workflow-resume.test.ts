// End to end: a workflow run survives SIGKILL of the real `aalis` process. Started with /workflow run in `aalis
// chat`, killed while it waits between two agent nodes, it resumes in the next `aalis serve` on the same data
// directory from its last completed step: the model server sees each agent node's turn exactly once.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, SqliteDatabase } from '@aalis/sqlite';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, serverConfig, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

type ChatBody = { messages: Array<{ role: string; content: string | null }> };

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => server.close());

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  server.reset();
});

/** How many model calls were asked this task last (the later turn's history holds the earlier tasks too). */
const asked = (task: string) =>
  (server.chatBodies() as unknown as ChatBody[]).filter((body) => (body.messages.at(-1)?.content ?? '').includes(task))
    .length;

const WORKFLOW = `description: two turns with a pause between them
nodes:
  - id: one
    kind: agent
    session: workflow-demo
    task: step one
  - id: pause
    kind: wait
    duration: 2s
    needs: [one]
  - id: three
    kind: agent
    session: workflow-demo
    needs: [pause]
    task: "step three after {{ nodes.one.output }}"
output: "{{ nodes.three.output }}"
`;

describe('a workflow run and SIGKILL', () => {
  it(
    'resumes after the process is killed mid-run, without running a completed step again',
    async () => {
      const workspace = temporaryWorkspace(
        serverConfig(server.url, '  workflow: { resumeIntervalMs: 200 }\n  storage: { leaseTtlMs: 1000 }\n'),
      );
      cleanups.push(() => workspace.remove());
      mkdirSync(join(workspace.dir, 'data', 'workflows'), { recursive: true });
      writeFileSync(join(workspace.dir, 'data', 'workflows', 'resume.yaml'), WORKFLOW);
      server.enqueueWhen((body) => JSON.stringify(body).includes('step one'), textReply('ONE-DONE'));
      server.enqueueWhen((body) => JSON.stringify(body).includes('step three'), textReply('THREE-DONE'));

      const chat = spawnAalis({ cwd: workspace.dir, args: ['chat', '--session', 'starter'] });
      cleanups.push(async () => {
        if (chat.child.exitCode === null && chat.child.signalCode === null) chat.child.kill('SIGKILL');
        await chat.exited;
      });
      chat.child.stdin!.write('/workflow run resume\n');
      const runId = await waitFor(() => /wr_[0-9a-f]+/.exec(chat.stdout())?.[0], {
        what: () => `the run id in ${chat.stdout()} ${chat.stderr()}`,
      });
      await waitFor(() => asked('step one') === 1, { what: 'the first agent node' });
      // Killed once the first node's result is stored and the wait has begun (its moment is stored too).
      const database = new SqliteDatabase(join(workspace.dir, 'data', DATABASE_FILE));
      try {
        await waitFor(
          () =>
            database
              .statement(`SELECT status FROM workflow_steps WHERE run_id = ? AND step_key = 'pause'`)
              .get(runId) !== undefined,
          { what: 'the wait node to begin' },
        );
      } finally {
        database.close();
      }
      chat.child.kill('SIGKILL');
      expect(await chat.exited).toBe('SIGKILL');
      expect(asked('step three')).toBe(0);

      const serve = spawnAalis({ cwd: workspace.dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
      serve.child.stdin!.end();
      cleanups.push(async () => {
        if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
        await serve.exited;
      });
      await waitFor(() => asked('step three') === 1, {
        timeoutMs: 30_000,
        what: () => `the resumed run's last node (${serve.stderr()})`,
      });
      // The resumed node read the first node's stored output; the first node did not run again.
      expect(asked('step three after ONE-DONE')).toBe(1);
      expect(asked('step one')).toBe(1);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);

      // The run ended as succeeded, with every step stored once.
      const show = spawnAalis({ cwd: workspace.dir, args: ['chat', '--session', 'starter'] });
      show.child.stdin!.end(`/workflow show ${runId}\n`);
      await show.exited;
      expect(show.stdout()).toMatch(new RegExp(`${runId} resume · succeeded`));
      expect(show.stdout()).toContain('- one (agent) succeeded');
      expect(show.stdout()).toContain('- three (agent) succeeded');
      expect(asked('step one')).toBe(1);
    },
    E2E_TIMEOUT_MS,
  );
});
