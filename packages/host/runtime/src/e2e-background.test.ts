// Background work end to end through `aalis serve`, the session protocol over HTTP and the scripted model server: a
// turn spawns two subtasks and waits; one is stopped from the 后台 requests; /stop on the parent leaves the background
// one running; it finishes and its host notice opens a continuation turn; a reminder fires once after a restart, and
// once among three processes on one PostgreSQL.

import { join } from 'node:path';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import {
  type OpenAiTestServer,
  type ScriptedReply,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AalisProcess, serverConfig, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  model.reset();
});

const LINK = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9._%-]+/;
const CONFIG_EXTRA = `  schedule:
    pollIntervalMs: 200
  memory-summary: false
`;

interface Api {
  call<T = Record<string, unknown>>(type: string, params?: Record<string, unknown>): Promise<T>;
}

async function serve(dir: string, env: Record<string, string> = {}): Promise<{ process: AalisProcess; api: Api }> {
  const process = spawnAalis({ cwd: dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0', ...env } });
  cleanups.push(async () => {
    if (process.child.exitCode === null) process.child.kill('SIGKILL');
    await process.exited;
  });
  const link = await waitFor(() => LINK.exec(process.stdout())?.[0], {
    timeoutMs: 40_000,
    what: () => `a login link in ${process.stdout()} ${process.stderr()}`,
  });
  const base = new URL(link).origin;
  const cookie = (await fetch(link, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
  const me = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()) as { csrfToken: string };
  const api: Api = {
    async call(type, params = {}) {
      const response = await fetch(`${base}/api/v1/call`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-aalis-csrf': me.csrfToken },
        body: JSON.stringify({ ...params, type }),
      });
      const body = (await response.json()) as { ok: boolean; result: never; error?: unknown };
      if (!body.ok) throw new Error(`${type}: ${JSON.stringify(body.error)}`);
      return body.result;
    },
  };
  return { process, api };
}

const texts = (body: Record<string, unknown>) =>
  ((body.messages ?? []) as Array<{ content?: unknown }>).map((message) => String(message.content ?? ''));
const isChild = (task: string) => (body: Record<string, unknown>) =>
  texts(body).some((text) => text.startsWith('[Cross-session delegation]') && text.includes(task));
const slow = (text: string, ms: number): ScriptedReply => ({
  type: 'stream',
  steps: [
    { role: 'assistant' },
    { delayMs: ms },
    { text },
    { finish: 'stop' },
    { usage: { promptTokens: 30, completionTokens: 5 } },
    { done: true },
  ],
});

interface TaskView {
  id: string;
  kind: string;
  status: string;
  title: string;
  tokens?: number;
}

describe('aalis serve: subtasks and scheduled tasks', () => {
  it('a turn spawns two subtasks and waits; one is stopped from 后台, /stop leaves the other, which reports back in a continuation', async () => {
    const workspace = temporaryWorkspace(serverConfig(model.url, CONFIG_EXTRA));
    cleanups.push(() => workspace.remove());
    const { process, api } = await serve(workspace.dir);
    const { session } = await api.call<{ session: { id: string } }>('session.create', { title: 'subtasks' });
    model.enqueueWhen(isChild('survey the north'), slow('never finished', 60_000));
    // The south answers once the test has seen it still running after /stop (a fixed delay could run out first on
    // a loaded machine).
    let releaseSouth!: () => void;
    const southMayAnswer = new Promise<void>((resolve) => {
      releaseSouth = resolve;
    });
    model.enqueueWhen(isChild('survey the south'), {
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { until: southMayAnswer },
        { text: 'the south is sunny' },
        { finish: 'stop' },
        { usage: { promptTokens: 30, completionTokens: 5 } },
        { done: true },
      ],
    });
    model.enqueue(
      toolCallReply([
        { id: 'c1', name: 'spawn_subtask', arguments: { task: 'survey the north' } },
        { id: 'c2', name: 'spawn_subtask', arguments: { task: 'survey the south', background: true } },
      ]),
      toolCallReply([{ id: 'c3', name: 'wait_subtasks', arguments: { timeoutSeconds: 600 } }]),
      // The continuation turn opened by the south's host notice.
      textReply('The south is sunny, as the subtask found.'),
    );
    const { messageId } = await api.call<{ messageId: string }>('send', {
      sessionId: session.id,
      text: 'survey both halves',
    });
    const tasks = await waitFor(
      async () => {
        const { tasks } = await api.call<{ tasks: TaskView[] }>('background.list', { sessionId: session.id });
        return tasks.length === 2 && tasks.every((task) => task.status === 'running') && tasks;
      },
      { what: 'two running subtasks' },
    );
    const north = tasks.find((task) => task.title === 'survey the north')!;
    const south = tasks.find((task) => task.title === 'survey the south')!;
    // A subtask reads as running before its first model call is sent: stop the north only once its call is out, so
    // the four calls counted below (the parent's two, one per child) all happen on a loaded machine too.
    await waitFor(() => model.chatBodies().some(isChild('survey the north')), { what: 'the north’s model call' });
    // Stopped from the 后台 tab's button.
    expect(await api.call('background.stop', { sessionId: session.id, taskId: north.id })).toEqual({ stopped: true });
    // /stop stops the parent's waiting turn only.
    await waitFor(() => model.chatBodies().length >= 4, { what: 'wait_subtasks to be called' });
    await api.call('send', { sessionId: session.id, text: '/stop' });
    const after = await waitFor(
      async () => {
        const { tasks } = await api.call<{ tasks: TaskView[] }>('background.list', { sessionId: session.id });
        return tasks.find((task) => task.id === north.id)?.status === 'stopped' && tasks;
      },
      { what: 'the north stopped' },
    );
    expect(after.find((task) => task.id === south.id)?.status).toBe('running');
    releaseSouth();

    const continuation = await waitFor(
      () => model.chatBodies().find((body) => texts(body).some((text) => text.startsWith('[Host notice]'))),
      { timeoutMs: 20_000, what: 'the continuation turn' },
    );
    const notice = texts(continuation).find((text) => text.startsWith('[Host notice]'))!;
    expect(notice).toContain('the south is sunny');
    expect(notice).toContain(south.id);
    const finished = await waitFor(
      async () => {
        const { tasks } = await api.call<{ tasks: TaskView[] }>('background.list', { sessionId: session.id });
        return tasks.find((task) => task.id === south.id)?.status === 'done' && tasks;
      },
      { what: 'the south done' },
    );
    expect(finished.find((task) => task.id === south.id)!.tokens).toBeGreaterThan(0);
    // The wait was answered 已中止 (en: Aborted) when /stop stopped its turn.
    // The aborted turn's tool group stays in the history: the continuation reads the wait's answer.
    expect(texts(continuation)).toContain('Aborted');
    await waitFor(() => model.pending() === 0, { what: 'the continuation reply' });
    process.child.kill('SIGTERM');
    expect(await process.exited).toBe(0);
    // The archived host notice quotes the message that started the subtask (its host text only, the result was
    // for that turn), and the continuation's reply belongs to the notice's turn.
    const database = new SqliteDatabase(join(workspace.dir, 'data', 'aalis.db'));
    const rows = database.connection
      .prepare('SELECT role, content, turn_id, extra FROM memory_messages WHERE session_id = ? ORDER BY seq')
      .all(session.id) as Array<{ role: string; content: string; turn_id: string | null; extra: string | null }>;
    database.close();
    const archivedNotice = rows.find((row) => row.content.includes(south.id) && row.content.includes('has ended'))!;
    const metadata = (JSON.parse(archivedNotice.extra ?? '{}') as { metadata?: Record<string, unknown> }).metadata;
    expect(metadata).toMatchObject({ replyTo: messageId, source: 'subtask' });
    expect(archivedNotice.content).not.toContain('the south is sunny');
    expect(
      rows.some(
        (row) =>
          row.role === 'assistant' &&
          row.turn_id === archivedNotice.turn_id &&
          row.content === 'The south is sunny, as the subtask found.',
      ),
    ).toBe(true);
  }, 120_000);

  it('a reminder set before a restart fires once after it', async () => {
    const workspace = temporaryWorkspace(serverConfig(model.url, CONFIG_EXTRA));
    cleanups.push(() => workspace.remove());
    const first = await serve(workspace.dir);
    const { session } = await first.api.call<{ session: { id: string } }>('session.create', { title: 'reminders' });
    model.enqueue(
      toolCallReply([{ id: 'c1', name: 'schedule_create', arguments: { prompt: 'stand up', inMinutes: 0.1 } }]),
      textReply('I will remind you.'),
    );
    await first.api.call('send', { sessionId: session.id, text: 'remind me to stand up in six seconds' });
    await waitFor(() => model.chatBodies().length >= 2, { what: 'the reminder to be set' });
    const { tasks } = await first.api.call<{ tasks: TaskView[] }>('background.list', { sessionId: session.id });
    expect(tasks).toMatchObject([{ kind: 'schedule', status: 'scheduled' }]);
    first.process.child.kill('SIGTERM');
    expect(await first.process.exited).toBe(0);
    const fired = () =>
      model
        .chatBodies()
        .filter((body) => texts(body).some((text) => /\[Scheduled task sch-[0-9a-f]+\] stand up/.test(text)));
    expect(fired()).toHaveLength(0);

    model.enqueue(textReply('Time to stand up!'));
    const second = await serve(workspace.dir);
    await waitFor(() => fired().length === 1, { timeoutMs: 20_000, what: 'the reminder to fire' });
    second.process.child.kill('SIGTERM');
    expect(await second.process.exited).toBe(0);
    const third = await serve(workspace.dir);
    const { tasks: done } = await third.api.call<{ tasks: TaskView[] }>('background.list', { sessionId: session.id });
    expect(done).toMatchObject([{ kind: 'schedule', status: 'done' }]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fired()).toHaveLength(1);
    third.process.child.kill('SIGTERM');
    expect(await third.process.exited).toBe(0);
  }, 120_000);

  it.skipIf(postgresBinDir() === undefined)(
    'three processes on one PostgreSQL fire a reminder once',
    async () => {
      const url = await throwawayDatabase();
      const env = { AALIS_DATABASE_URL: url };
      const workspaces = [0, 1, 2].map(() => temporaryWorkspace(serverConfig(model.url, CONFIG_EXTRA)));
      for (const workspace of workspaces) cleanups.push(() => workspace.remove());
      const processes = await Promise.all(workspaces.map((workspace) => serve(workspace.dir, env)));
      const { api } = processes[0]!;
      const { session } = await api.call<{ session: { id: string } }>('session.create', { title: 'shared' });
      model.enqueue(
        toolCallReply([{ id: 'c1', name: 'schedule_create', arguments: { prompt: 'drink water', inMinutes: 0.05 } }]),
        textReply('Noted.'),
        textReply('Drink some water!'),
      );
      await api.call('send', { sessionId: session.id, text: 'remind me to drink water in three seconds' });
      const fired = () =>
        model
          .chatBodies()
          .filter((body) => texts(body).some((text) => /\[Scheduled task sch-[0-9a-f]+\] drink water/.test(text)));
      await waitFor(() => fired().length >= 1, { timeoutMs: 30_000, what: 'the reminder to fire' });
      // Every process polls every 200 ms: give the other two time to fire it again if they could.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(fired()).toHaveLength(1);
      for (const { process } of processes) process.child.kill('SIGTERM');
      expect(await Promise.all(processes.map(({ process }) => process.exited))).toEqual([0, 0, 0]);
    },
    120_000,
  );
});
