// End to end: several real `aalis chat` processes answering the same sessions on one database. The model server's
// request log shows whether two turns of a session ever ran at the same time; the database shows every accepted input
// archived once and an interrupted turn recorded as stopped.
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  describeOverlaps,
  overlappingTurns,
  sessionOf,
  slowReply,
  stampCalls,
  startWriter,
  turnSpans,
  type Writer,
} from './multi-process.case.js';
import { temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => server.close());

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  server.reset();
});

/** `apiKey` names the process in the model server's log (Authorization header; the test server takes any key). */
function config(url: string, apiKey = 'key'): string {
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

interface Row {
  session_id: string;
  role: string;
  kind: string | null;
  content: string;
  turn_id: string | null;
}

/** Every archived user input per tag, and the stop markers' turn ids. */
function summarise(rows: readonly Row[]) {
  const inputs = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.role !== 'user') continue;
    for (const match of row.content.matchAll(/\[(s\d+) (p\d+) (m\d+)\]/g)) {
      inputs.set(match[0], [...(inputs.get(match[0]) ?? []), row]);
    }
  }
  const stopped = new Set(rows.filter((row) => row.kind === 'turn-stopped').map((row) => row.turn_id));
  return { inputs, stopped };
}

const TIMEOUT = 120_000;

describe('one turn per session across processes', () => {
  it(
    'two aalis processes on one SQLite data directory never run turns of one session at the same time',
    async () => {
      const calls = stampCalls(server);
      for (let i = 0; i < 40; i++) server.enqueue(slowReply(150));
      const workspace = temporaryWorkspace(config(server.url));
      cleanups.push(() => workspace.remove());
      const writers = ['s1', 's2'].flatMap((session) =>
        ['p1', 'p2'].map((name) => startWriter({ cwd: workspace.dir, env: {}, name, session, count: 3, gapMs: 80 })),
      );
      for (const writer of writers) cleanups.push(() => void writer.process.child.kill('SIGKILL'));
      const codes = await Promise.all(writers.map((writer) => writer.done.then(() => writer.process.exited)));
      expect(codes, writers.map((w) => w.process.stderr()).join('\n')).toEqual(writers.map(() => 0));
      const found = overlappingTurns(turnSpans(calls));
      expect(found, describeOverlaps(found)).toEqual([]);
      expect(server.requests.filter((request) => request.rejected !== undefined)).toEqual([]);
      const database = new SqliteDatabase(join(workspace.dir, 'data', 'aalis.db'));
      const rows = database.connection
        .prepare('SELECT session_id, role, kind, content, turn_id FROM memory_messages ORDER BY session_id, seq')
        .all() as Row[];
      database.close();
      const { inputs } = summarise(rows);
      for (const writer of writers) {
        for (const tag of writer.sent) expect(inputs.get(tag)?.length, tag).toBe(1);
      }
    },
    TIMEOUT,
  );

  it(
    'six aalis chat processes (two sessions × three) on one PostgreSQL: no overlapping turns, a SIGKILLed process loses its session within seconds and its turn is recorded as stopped',
    async () => {
      const url = await throwawayDatabase();
      const env = { AALIS_DATABASE_URL: url };
      const sessions = ['s1', 's2'];
      const names = ['p1', 'p2', 'p3'];
      // Killed: the process whose model call for s1 streams first (mid-turn). Which process runs a turn is told by
      // its key: an input is answered by the session's owner, not necessarily by the process it was written to.
      let victim: { tag: string; at: number } | undefined;
      let killed: Writer | undefined;
      const calls = stampCalls(server, (call) => {
        const { session, tag } = sessionOf(call);
        if (victim || session !== 's1') return;
        killed = writers.find(
          (writer) => call.request.headers.authorization === `Bearer key-${writer.session}-${writer.name}`,
        );
        if (!killed) return;
        victim = { tag, at: Date.now() };
        killed.process.child.kill('SIGKILL');
      });
      for (let i = 0; i < 60; i++) server.enqueue(slowReply(300));
      // Each process its own working and data directory, as on separate hosts: only the database is shared; and its
      // own API key, which tells the model server's log which process made a call.
      const writers = sessions.flatMap((session) =>
        names.map((name) => {
          const workspace = temporaryWorkspace(config(server.url, `key-${session}-${name}`));
          cleanups.push(() => workspace.remove());
          // s2's writers go on longer: their processes are alive when the killed one's lease expires.
          return startWriter({ cwd: workspace.dir, env, name, session, count: session === 's2' ? 6 : 3, gapMs: 120 });
        }),
      );
      for (const writer of writers) cleanups.push(() => void writer.process.child.kill('SIGKILL'));
      await waitFor(() => killed, { timeoutMs: 60_000, what: 'a model call for s1 to kill its process at' });
      const survivors = writers.filter((writer) => writer !== killed);
      const codes = await Promise.all(survivors.map((writer) => writer.done.then(() => writer.process.exited)));
      expect(codes, survivors.map((w) => w.process.stderr()).join('\n')).toEqual(survivors.map(() => 0));
      expect(await killed!.process.exited).toBe('SIGKILL');
      expect(victim).toBeDefined();

      const found = overlappingTurns(turnSpans(calls));
      expect(found, describeOverlaps(found)).toEqual([]);
      expect(server.requests.filter((request) => request.rejected !== undefined)).toEqual([]);
      const database = new PostgresDatabase(url);
      cleanups.push(() => database.close());
      const rows = await database.query<Row>(
        'SELECT session_id, role, kind, content, turn_id FROM memory_messages ORDER BY session_id, seq',
      );
      const { inputs, stopped } = summarise(rows);
      for (const writer of survivors) {
        for (const tag of writer.sent) expect(inputs.get(tag)?.length, tag).toBe(1);
      }
      // The killed turn's input is in the history once, and a live process recorded its turn as stopped within
      // seconds of the kill (lease expiry 3 s, then the next sweep or input for the session).
      const interrupted = inputs.get(victim!.tag);
      expect(interrupted).toHaveLength(1);
      expect(stopped.has(interrupted![0]!.turn_id)).toBe(true);
      const [marker] = await database.query<{ timestamp: number }>(
        "SELECT timestamp FROM memory_messages WHERE kind = 'turn-stopped' AND turn_id = $1",
        [interrupted![0]!.turn_id],
      );
      expect(marker!.timestamp - victim!.at).toBeLessThan(10_000);
    },
    TIMEOUT,
  );
});
