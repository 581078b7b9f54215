// Terminals on several processes: two `aalis chat` processes of one user talk in the same session (`cli:<userId>`) on
// one PostgreSQL. Whichever process owns the session runs the turn; each terminal prints the replies to the lines typed
// into it, wherever they ran, and not the replies to the other's lines (unless a turn answered lines of both).
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { type OpenAiTestServer, type ScriptedReply, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AalisProcess, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

const TAG = /\[([AB]) (m\d+)\]/g;

type Body = { messages?: Array<{ role: string; content: unknown }> };

/** The tags of a call's trailing user messages: the inputs of the turn it belongs to. */
function turnTags(body: unknown): string[] {
  const messages = (body as Body).messages ?? [];
  const tags: string[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') break;
    if (typeof message.content === 'string') tags.unshift(...[...message.content.matchAll(TAG)].map((m) => m[0]));
  }
  return tags;
}

/** A slow streamed reply naming the inputs it answers: `answers [A m1] [B m1]`. */
function answer(body: Record<string, unknown>): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: 'answers' },
      { delayMs: 500 },
      { text: ` ${turnTags(body).join(' ')}` },
      { finish: 'stop' },
      { usage: { promptTokens: 10, completionTokens: 4 } },
      { done: true },
    ],
  };
}

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'], respond: answer });
});
afterAll(() => server.close());

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  server.reset();
});

/** Each process its own working directory and API key (the key tells the model server's log who called). */
function config(url: string, apiKey: string): string {
  return `locale: en
consoleLogLevel: off
llm:
  baseUrl: ${url}
  model: test-model
  apiKey: ${apiKey}
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
  storage:
    leaseTtlMs: 3000
  memory-summary: false
`;
}

function startChat(name: 'A' | 'B', env: Record<string, string>): AalisProcess {
  const workspace = temporaryWorkspace(config(server.url, `key-${name}`));
  cleanups.push(() => workspace.remove());
  const chat = spawnAalis({ cwd: workspace.dir, args: ['chat'], env });
  cleanups.push(() => void chat.child.kill('SIGKILL'));
  return chat;
}

/**
 * Waits until both terminals have started: `aalis chat` prints its banner (naming its session) on standard error once
 * its plugins run. A fixed wait was either too long or, on a loaded machine or while the command's bundle is being
 * rebuilt, too short.
 */
function bothStarted(...chats: AalisProcess[]): Promise<true> {
  return waitFor(() => chats.every((chat) => /session: cli:/.test(chat.stderr())), {
    timeoutMs: 60_000,
    what: () => `both terminals' banners (stderr: ${chats.map((chat) => JSON.stringify(chat.stderr())).join(', ')})`,
  });
}

/** The reply lines a terminal printed and the tags each names. */
function replies(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('answers'))
    .map((line) => [...line.matchAll(TAG)].map((m) => m[0]));
}

/** Calls made by one process (its key) for a turn answering one of the other's lines. */
function crossRuns(): Array<{ by: string; tags: string[] }> {
  return server.requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => ({
      by: String(request.headers.authorization ?? '').replace('Bearer key-', ''),
      tags: turnTags(request.body),
    }))
    .filter(({ by, tags }) => tags.some((tag) => !tag.startsWith(`[${by} `)));
}

const TIMEOUT = 120_000;

/**
 * A first turn that streams 'answers', then holds until the test calls `release()` and names `tags`: the other
 * terminal's line reaches the session's owner meanwhile, on a loaded machine too, and the test goes on as soon as it
 * has (a fixed length kept every run waiting for seconds, or on a loaded machine ended before the line came).
 */
function heldTurn(tags: string): { reply: ScriptedReply; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  cleanups.push(release);
  return {
    reply: {
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: 'answers' },
        { until: released },
        { text: ` ${tags}` },
        { finish: 'stop' },
        { usage: { promptTokens: 10, completionTokens: 4 } },
        { done: true },
      ],
    },
    release,
  };
}

/** Waits until the line tagged `tag` waits at the session's owner: taken from the session's hand-over queue, unfinished. */
async function waitingAtOwner(url: string, tag: string): Promise<void> {
  const database = new PostgresDatabase(url);
  try {
    await waitFor(
      async () => {
        const [row] = await database.query<{ n: string }>(
          `SELECT count(*) AS n FROM aalis_hand_over
           WHERE name LIKE 'session:cli:%' AND taker IS NOT NULL AND outcome IS NULL AND strpos(payload, $1) > 0`,
          [tag],
        );
        return Number(row?.n) === 1;
      },
      { timeoutMs: 30_000, what: `${tag} waiting at the session’s owner` },
    );
  } finally {
    await database.close();
  }
}

describe('terminal replies across processes (PostgreSQL)', () => {
  it(
    'two aalis chat processes in one session: each prints the replies to its own lines, wherever they ran, and not the replies to the other terminal’s lines',
    async () => {
      const url = await throwawayDatabase();
      const env = { AALIS_DATABASE_URL: url };
      const a = startChat('A', env);
      const b = startChat('B', env);
      const sent = { A: [] as string[], B: [] as string[] };
      const write = (chat: AalisProcess, name: 'A' | 'B', index: number) => {
        const tag = `[${name} m${index}]`;
        sent[name].push(tag);
        chat.child.stdin!.write(`hello ${tag}\n`);
      };
      // Both processes up (each has run its startup) before the lines: a line written during another's turn is
      // handed to the session's owner.
      await bothStarted(a, b);
      for (let index = 1; index <= 3; index++) {
        write(a, 'A', index);
        await new Promise((resolve) => setTimeout(resolve, 200));
        write(b, 'B', index);
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      a.child.stdin!.end();
      b.child.stdin!.end();
      const codes = await Promise.all([a.exited, b.exited]);
      expect(codes, `${a.stderr()}\n${b.stderr()}`).toEqual([0, 0]);

      // The bug's case happened: some turn ran on the process the line was not written to.
      expect(crossRuns().length, JSON.stringify(server.requests.length)).toBeGreaterThan(0);
      const output = { A: a.stdout(), B: b.stdout() };
      for (const name of ['A', 'B'] as const) {
        const printed = replies(output[name]);
        // Every line typed here is answered here (the whole reply text: the tags come at its end)…
        for (const tag of sent[name]) {
          expect(
            printed.some((tags) => tags.includes(tag)),
            `${name} did not print the reply to ${tag}:\n${output[name]}`,
          ).toBe(true);
        }
        // …and no reply printed here answers only the other terminal's lines.
        for (const tags of printed) {
          expect(
            tags.some((tag) => tag.startsWith(`[${name} `)),
            `${name} printed ${tags.join(' ')}:\n${output[name]}`,
          ).toBe(true);
        }
      }
    },
    TIMEOUT,
  );

  it(
    'the terminal whose line another process is answering is killed: the survivor prints nothing of that reply, archives it and goes on answering its own lines',
    async () => {
      const url = await throwawayDatabase();
      const env = { AALIS_DATABASE_URL: url };
      // A's first turn lasts until B's line, written meanwhile, was handed to A, the session's owner.
      const first = heldTurn('[A m1]');
      server.enqueue(first.reply);
      const a = startChat('A', env);
      const b = startChat('B', env);
      await bothStarted(a, b);
      a.child.stdin!.write('hello [A m1]\n');
      await waitFor(() => crossRuns().length === 0 && server.requests.length > 0, { what: 'A’s first call' });
      b.child.stdin!.write('hello [B m1]\n');
      await waitingAtOwner(url, '[B m1]');
      first.release();
      // B's line is being answered by A (A owns the session): B dies now.
      await waitFor(() => crossRuns().find((run) => run.by === 'A'), {
        timeoutMs: 30_000,
        what: () => `a call by A answering B’s line (calls: ${JSON.stringify(crossRuns())})`,
      });
      b.child.kill('SIGKILL');
      expect(await b.exited).toBe('SIGKILL');
      a.child.stdin!.write('hello [A m2]\n');
      a.child.stdin!.end();
      expect(await a.exited, a.stderr()).toBe(0);
      const printed = replies(a.stdout());
      expect(printed.some((tags) => tags.includes('[A m1]'))).toBe(true);
      expect(printed.some((tags) => tags.includes('[A m2]'))).toBe(true);
      for (const tags of printed)
        expect(
          tags.some((tag) => tag.startsWith('[A ')),
          a.stdout(),
        ).toBe(true);
      // B's line and its answer are in the history all the same.
      const database = new PostgresDatabase(url);
      cleanups.push(() => database.close());
      const rows = await database.query<{ role: string; content: string }>(
        'SELECT role, content FROM memory_messages ORDER BY seq',
      );
      expect(rows.filter((row) => row.role === 'user' && row.content.includes('[B m1]'))).toHaveLength(1);
      expect(rows.some((row) => row.role === 'assistant' && row.content.includes('[B m1]'))).toBe(true);
    },
    TIMEOUT,
  );
  it(
    'a chat whose input ended while a line of the other terminal waits for it stays, answers it and only then leaves; the other terminal prints the reply',
    async () => {
      const url = await throwawayDatabase();
      const env = { AALIS_DATABASE_URL: url };
      // B's turn writes its final reply until A's line, written meanwhile, queued behind it on B (joins closed).
      const first = heldTurn('[B m1]');
      server.enqueue(first.reply);
      const a = startChat('A', env);
      const b = startChat('B', env);
      b.child.stdin!.end('hello [B m1]\n');
      await waitFor(() => server.requests.some((request) => turnTags(request.body).includes('[B m1]')), {
        timeoutMs: 30_000,
        what: 'B’s first call',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      a.child.stdin!.write('hello [A m1]\n');
      await waitingAtOwner(url, '[A m1]');
      first.release();
      expect(await b.exited, b.stderr()).toBe(0);
      // B ran A's line before it left (it owned the session), and A printed the answer.
      expect(crossRuns().map((run) => [run.by, run.tags])).toEqual([['B', ['[A m1]']]]);
      await waitFor(() => replies(a.stdout()).some((tags) => tags.includes('[A m1]')), {
        timeoutMs: 10_000,
        what: () => `A’s reply to [A m1] (A printed: ${JSON.stringify(a.stdout())})`,
      });
      expect(replies(b.stdout())).toEqual([['[B m1]']]);
      a.child.stdin!.end();
      expect(await a.exited, a.stderr()).toBe(0);
      expect(replies(a.stdout())).toEqual([['[A m1]']]);
    },
    TIMEOUT,
  );
});
