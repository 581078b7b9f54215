// A graceful stop of a session's owner (the drain): inputs other processes accepted that wait in its channel go back to
// the hand-over queue (not released as archived-but-unanswered), the lease is given back at the end of the drain, and a
// live process takes them at once; an input whose turn was stopped on another process is settled as stopped there and
// its accepting process is told (agent:stopped-elsewhere). Two agent hosts on one throwaway PostgreSQL and one model
// server.
import type { AgentStoppedElsewhereEvent } from '@aalis/api-agent';
import { storage } from '@aalis/api-storage';
import type { Tool } from '@aalis/api-tools';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { type OpenAiTestServer, startOpenAiTestServer, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, heldText, leasesOf, startHarness } from '../agent-harness.case.js';

const open = new Set<Harness>();
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  for (const harness of open) await harness.close();
  open.clear();
  await server?.close();
  server = undefined;
});

/**
 * Two hosts on one database. The lease time is long (20 s): a lease left to expire would keep the session from
 * the other host for longer than any wait below, so only a release at the end of the drain lets these tests pass.
 */
async function twoHosts(options: { tools?: Tool[]; leaseTtlMs?: number } = {}): Promise<[Harness, Harness]> {
  const url = await throwawayDatabase();
  server = await startOpenAiTestServer({ models: ['test-model'] });
  const harnessOptions = {
    server,
    tools: options.tools ?? [],
    storage: { database: url, leaseTtlMs: options.leaseTtlMs ?? 20_000 },
  };
  const a = await startHarness(harnessOptions);
  open.add(a);
  const b = await startHarness(harnessOptions);
  open.add(b);
  return [a, b];
}

/** Stops a host as SIGTERM would (drain, then dispose). */
async function stopGracefully(harness: Harness): Promise<void> {
  open.delete(harness);
  await harness.close();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const users = (history: readonly Message[], text: string) =>
  history.filter((message) => message.role === 'user' && message.content.endsWith(text));
const turnOf = (message: Message | undefined) => message?.metadata?.[WellKnownMetadataKeys.TurnId];
const stoppedTurns = (history: readonly Message[]) =>
  history.filter((message) => message.kind === 'turn-stopped').map(turnOf);

describe('a graceful stop of the session owner hands other processes’ inputs back', () => {
  it('inputs waiting in A’s channel (B’s and A’s own) run on B after A’s drain, in arrival order, each archived once', async () => {
    const [a, b] = await twoHosts();
    // A's own turn streams for a long while: the drain stops it.
    server!.enqueue(heldText('half an answer', 30_000));
    const first = a.say('question on A');
    await waitFor(() => server!.chatBodies().length === 1, 'A’s model call');
    const queueOnA = a.booted.capture('agent:queue');
    const texts = ['b one', 'b two', 'a three'];
    // One after the other (each waiting on A before the next is sent): their arrival order is this order. The
    // last one A accepted itself: it is handed back too (on a shared engine nothing waiting is released).
    const fromB: Promise<void>[] = [];
    for (const [index, text] of texts.entries()) {
      fromB.push((index === texts.length - 1 ? a : b).say(text));
      await waitFor(() => queueOnA.some((event) => event.waiting.length === index + 1), `${text} waiting on A`);
    }
    await stopGracefully(a);
    await first;
    await Promise.all(fromB);
    const history = await b.history();
    const [onA] = users(history, 'question on A');
    expect(stoppedTurns(history)).toEqual([turnOf(onA)]);
    const answered = new Set(
      history.filter((message) => message.role === 'assistant' && message.content === 'ok').map(turnOf),
    );
    const indices = texts.map((text) => {
      const rows = users(history, text);
      // Archived once, in a turn of its own (not A's stopped one), and answered.
      expect(rows).toHaveLength(1);
      expect(turnOf(rows[0])).not.toBe(turnOf(onA));
      expect(answered.has(turnOf(rows[0]))).toBe(true);
      return history.indexOf(rows[0]!);
    });
    // In the order B accepted them.
    expect([...indices].sort((x, y) => x - y)).toEqual(indices);
    // Nothing B accepted was released unanswered into the history without a turn.
    expect(history.filter((message) => message.role === 'user' && turnOf(message) === undefined)).toEqual([]);
  });

  it('a line typed into the stopping process’s own terminal is released by the spec’s rule, not handed back', async () => {
    const [a, b] = await twoHosts();
    server!.enqueue(heldText('half an answer', 30_000));
    const first = a.say('question on A');
    await waitFor(() => server!.chatBodies().length === 1, 'A’s model call');
    const queueOnA = a.booted.capture('agent:queue');
    const holder = a.booted.app.services.selected(storage)!.impl.leases().holder;
    const own = a.say('typed into A’s terminal', { metadata: { [WellKnownMetadataKeys.Terminal]: holder } });
    await waitFor(() => queueOnA.some((event) => event.waiting.length === 1), 'the line waiting on A');
    await stopGracefully(a);
    await Promise.all([first, own]);
    // Archived without a turn (released at the shutdown), and nobody runs it.
    const [line] = users(await b.history(), 'typed into A’s terminal');
    expect(line).toBeDefined();
    expect(turnOf(line)).toBeUndefined();
    await sleep(500);
    expect(server!.chatBodies()).toHaveLength(1);
  });

  it('the drain gives the session lease back (released, not left to expire)', async () => {
    const [a, b] = await twoHosts();
    server!.enqueue(heldText('half', 30_000));
    const first = a.say('question on A');
    await waitFor(() => server!.chatBodies().length === 1, 'A’s model call');
    const holderA = a.booted.app.services.selected(storage)!.impl.leases().holder;
    await stopGracefully(a);
    await first;
    const database = b.booted.app.services.selected(storage)!.impl.postgres();
    const rows = await database.query<{ holder: string; released: number }>(
      "SELECT holder, released FROM aalis_leases WHERE name = 'session:cli:owner'",
    );
    expect(rows).toEqual([{ holder: holderA, released: 1 }]);
  });

  it('an input B accepted whose turn A’s drain stopped is settled as stopped on B, not run again', async () => {
    const [a, b] = await twoHosts();
    // A runs its own turn; B's input queues behind it and opens A's next turn, which the drain stops.
    server!.enqueue(heldText('first answer', 600), heldText('half', 30_000));
    const stoppedOnB = b.booted.capture('agent:stopped-elsewhere');
    const stoppedOnA = a.booted.capture('agent:stopped-elsewhere');
    const first = a.say('question on A');
    await waitFor(() => server!.chatBodies().length === 1, 'A’s first model call');
    const second = b.say('question from B');
    await waitFor(() => server!.chatBodies().length === 2, 'A’s turn for B’s input');
    await stopGracefully(a);
    await first;
    await second;
    expect(stoppedOnB.map((event: AgentStoppedElsewhereEvent) => event.message.content)).toEqual(['question from B']);
    expect(stoppedOnA).toEqual([]);
    await sleep(300);
    expect(server!.chatBodies()).toHaveLength(2);
    const history = await b.history();
    const rows = users(history, 'question from B');
    expect(rows).toHaveLength(1);
    expect(stoppedTurns(history)).toEqual([turnOf(rows[0])]);
  });

  it('after the owner died, the input B accepted that entered its turn is settled as stopped and B is told', async () => {
    const one = gatedTool('first_wait');
    const two = gatedTool('second_wait');
    const [a, b] = await twoHosts({ tools: [one.tool, two.tool], leaseTtlMs: 1000 });
    server!.enqueue(
      toolCallReply([{ id: 'c1', name: 'first_wait', arguments: {} }]),
      toolCallReply([{ id: 'c2', name: 'second_wait', arguments: {} }]),
    );
    const stoppedOnB = b.booted.capture('agent:stopped-elsewhere');
    void a.say('question on A');
    await one.started;
    const queueOnA = a.booted.capture('agent:queue');
    const joining = b.say('joins on A');
    await waitFor(() => queueOnA.some((event) => event.dispositions.includes('join')), 'the join on A');
    one.release();
    await two.started;
    // B's input joined A's turn at the insertion point after the first tool; A dies in the second.
    leasesOf(a).pauseHeartbeat();
    a.orchestrator.placement.close();
    await joining;
    expect(stoppedOnB.map((event) => event.message.content)).toEqual(['joins on A']);
    const history = await b.history();
    const rows = users(history, 'joins on A');
    expect(rows).toHaveLength(1);
    expect(stoppedTurns(history)).toEqual([turnOf(rows[0])]);
    expect(server!.chatBodies()).toHaveLength(2);
    two.release();
  });
});
