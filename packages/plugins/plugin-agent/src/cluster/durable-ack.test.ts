// Acknowledged means stored (docs/decisions/durable-acknowledgement.md): on the embedded SQLite an input is
// acknowledged (agent:accepted, which the WebUI's `send` answer waits for) only once it is in its session's hand-over
// queue; an input that cannot be stored is refused with a coded error; an acknowledged input whose archiving fails
// stays queued and is answered once the database takes writes again, without being sent again.
import { type StorageService, storage } from '@aalis/api-storage';
import { AalisError } from '@aalis/core';
import { type ScriptedReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, startHarness } from '../agent-harness.case.js';

type Connection = ReturnType<StorageService['database']>['connection'];

const open: Harness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

/**
 * Every write to the database fails as on a full disk: triggers on every table raise SQLITE_FULL's message. (A real
 * full file system is what the fault-injection suite of the session server uses; here the fault must be exact.)
 */
function fillDisk(connection: Connection): () => void {
  const tables = (
    connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const triggers: string[] = [];
  for (const table of tables) {
    for (const action of ['INSERT', 'UPDATE', 'DELETE']) {
      const name = `disk_full_${table}_${action.toLowerCase()}`;
      try {
        connection.exec(
          `CREATE TRIGGER "${name}" BEFORE ${action} ON "${table}" BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
        );
        triggers.push(name);
      } catch {
        // A virtual table's own tables (full-text, vector indexes) take no triggers; their writes go with the rest.
      }
    }
  }
  return () => {
    for (const name of triggers) connection.exec(`DROP TRIGGER "${name}"`);
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('durable acknowledgement on SQLite', () => {
  it('an input that cannot be stored is refused with AALIS_AGENT_INPUT_NOT_STORED, logged, never accepted', async () => {
    const harness = await startHarness();
    open.push(harness);
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    const accepted = harness.booted.capture('agent:accepted');
    const free = fillDisk(database.connection);
    const refusal = await harness.say('lost?').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(AalisError.isInstance(refusal) && refusal.code).toBe('AALIS_AGENT_INPUT_NOT_STORED');
    expect(String((refusal as Error).message)).toContain('database or disk is full');
    expect(accepted).toEqual([]);
    expect(harness.booted.logs.some((record) => record.fields?.code === 'AALIS_AGENT_INPUT_NOT_STORED')).toBe(true);
    // Space back: the next input is stored, accepted and answered.
    free();
    await harness.say('stored now');
    expect(accepted.map((event) => [event.message.content, event.durable])).toEqual([['stored now', true]]);
    const history = await harness.history();
    expect(history.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      expect.stringContaining('stored now'),
    ]);
  });

  it('an acknowledged input whose archiving failed is answered once the disk has room again, not lost', async () => {
    const slow = gatedTool();
    const harness = await startHarness({ tools: [slow.tool], storage: { leaseTtlMs: 600 } });
    open.push(harness);
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]));
    const first = harness.say('first question');
    await slow.started;
    const accepted = harness.booted.capture('agent:accepted');
    const second = harness.say('second question');
    await waitFor(() => accepted.length === 1, 'the second input acknowledged');
    // The disk fills while the first turn runs: the second input is acknowledged and must not be lost.
    const free = fillDisk(database.connection);
    slow.release();
    // The first turn failed on the full disk; its record is held until it can be written (storage-retry.ts).
    await waitFor(
      () => harness.booted.logs.some((record) => record.message.includes('what the turn wrote is held')),
      'the first turn holding its record',
    );
    const storedWhileFull = await harness.history();
    expect(storedWhileFull.some((message) => String(message.content).includes('second question'))).toBe(false);
    const pending = database.connection.prepare('SELECT payload FROM aalis_hand_over WHERE outcome IS NULL').all() as {
      payload: string;
    }[];
    // The first input's item could not be finished either (a write too); it is in history already.
    expect(pending.map((row) => JSON.parse(row.payload).content)).toContain('second question');
    free();
    await Promise.all([first, second]);
    // Nobody sends anything again: the sweep takes the kept item and runs its turn.
    await waitFor(async () => {
      const history = await harness.history();
      const index = history.findIndex(
        (message) => message.role === 'user' && String(message.content).includes('second question'),
      );
      return index >= 0 && history.slice(index + 1).some((message) => message.role === 'assistant');
    }, 'the second input stored and answered');
    await waitFor(
      () =>
        (
          database.connection.prepare('SELECT count(*) AS n FROM aalis_hand_over WHERE outcome IS NULL').get() as {
            n: number;
          }
        ).n === 0,
      'every item finished',
    );
    const users = (await harness.history()).filter((message) => message.role === 'user');
    // Each input archived exactly once: the first one (already stored) is not run again.
    expect(users.map((message) => String(message.content).includes('first question'))).toEqual([true, false]);
    const unfinished = database.connection
      .prepare('SELECT count(*) AS n FROM aalis_hand_over WHERE outcome IS NULL')
      .get();
    expect(unfinished).toEqual({ n: 0 });
  });
});

/** A streamed answer that stops before its text until `release()`: the model call is out, its answer not back. */
function heldAnswer(text: string): { reply: ScriptedReply; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release,
    reply: {
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { until: held },
        { text },
        { finish: 'stop' },
        { usage: { promptTokens: 10, completionTokens: 3 } },
        { done: true },
      ],
    },
  };
}

describe('a reply held while the database cannot be written (docs/decisions/held-replies.md)', () => {
  const heldLine = (harness: Harness) =>
    harness.booted.logs.some((record) => record.message.includes('what the turn wrote is held'));

  it('is stored once the disk has room again, and only then sent; stored and sent once', async () => {
    const harness = await startHarness();
    open.push(harness);
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    const answer = heldAnswer('the held answer');
    harness.server.enqueue(answer.reply);
    const sent = harness.booted.capture('outbound:message');
    const asked = harness.say('a question');
    await waitFor(() => harness.server.chatBodies().length === 1, 'the model call');
    const free = fillDisk(database.connection);
    answer.release();
    await waitFor(() => heldLine(harness), 'the reply held');
    expect(sent.filter((message) => message.kind === 'reply')).toEqual([]);
    expect((await harness.history()).some((message) => message.role === 'assistant')).toBe(false);
    free();
    await asked;
    const assistant = (await harness.history()).filter((message) => message.role === 'assistant');
    expect(assistant.map((message) => message.content)).toEqual(['the held answer']);
    expect(sent.filter((message) => message.kind === 'reply').map((message) => message.content)).toEqual([
      'the held answer',
    ]);
  });

  it('a host stopping meanwhile gives it up at once, logged with its code: nothing stored half, nothing sent', async () => {
    const harness = await startHarness();
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    const answer = heldAnswer('never stored');
    harness.server.enqueue(answer.reply);
    const sent = harness.booted.capture('outbound:message');
    const asked = harness.say('a question before the stop').catch(() => {});
    await waitFor(() => harness.server.chatBodies().length === 1, 'the model call');
    fillDisk(database.connection);
    answer.release();
    await waitFor(() => heldLine(harness), 'the reply held');
    // The drain does not wait the ten minutes a reply may be held (the test's own timeout is far below them).
    await harness.close();
    await asked;
    expect(
      harness.booted.logs.filter((record) => record.fields?.code === 'AALIS_AGENT_TURN_NOT_STORED_AT_STOP'),
    ).toHaveLength(1);
    expect(sent.filter((message) => message.kind === 'reply')).toEqual([]);
  });
});
