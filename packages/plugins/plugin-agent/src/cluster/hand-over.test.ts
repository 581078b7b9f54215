// Inputs handed to the session's owner: two agent hosts (two plugin hosts, each its own data directory) on one
// throwaway PostgreSQL and one model server. Inputs for one session reach either host; the database decides which one
// runs the session's turns, and the other's inputs are placed into that owner's channel by the spec's rules
// (plugin-agent.zh.md 「新消息怎么处理」: join, queue, open).

import { storage } from '@aalis/api-storage';
import type { Tool } from '@aalis/api-tools';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import {
  type OpenAiTestServer,
  type ScriptedReply,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gatedTool, type Harness, heldText, leasesOf, startHarness } from '../agent-harness.case.js';
import { SessionOwners } from './session-owners.js';

const open: Harness[] = [];
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  await server?.close();
  server = undefined;
});

async function twoHosts(tools: Tool[] = [], respond?: () => ScriptedReply): Promise<[Harness, Harness]> {
  const url = await throwawayDatabase();
  server = await startOpenAiTestServer({ models: ['test-model'], respond });
  const options = { server, tools, storage: { database: url, leaseTtlMs: 1000 } };
  const a = await startHarness(options);
  open.push(a);
  const b = await startHarness(options);
  open.push(b);
  return [a, b];
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

describe('inputs handed to the session owner', () => {
  it('inputs sent alternately to two hosts run one turn at a time; those arriving meanwhile open the next turn together, in arrival order', async () => {
    const starts: number[] = [];
    // The first turn's stream stays open a second (room for three inputs to arrive on a loaded machine).
    const [a, b] = await twoHosts([], () => {
      starts.push(Date.now());
      return heldText('ok', starts.length === 1 ? 1000 : 50);
    });
    const first = a.say('input 0');
    await waitFor(() => server!.chatBodies().length === 1, 'the first model call');
    const sent = [first];
    // Arrival order is the order the hosts accept the inputs in (durably, on this shared engine): each input is
    // sent once the one before it was accepted, so a loaded machine cannot reorder them in flight.
    const accepted = [a.booted.capture('agent:accepted'), b.booted.capture('agent:accepted')];
    const acceptedCount = () => accepted.reduce((sum, events) => sum + events.length, 0);
    const before = acceptedCount();
    for (let index = 1; index < 4; index++) {
      sent.push((index % 2 === 0 ? a : b).say(`input ${index}`));
      await waitFor(() => acceptedCount() === before + index, `input ${index} accepted`);
    }
    await Promise.all(sent);
    const chats = server!.requests.filter((request) => request.path.endsWith('/chat/completions'));
    // The three inputs that arrived during the first turn (on either host) open the second turn together.
    expect(chats).toHaveLength(2);
    // The first stream stays open 1000 ms: the second call came after it had ended.
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(1000);
    const second = (server!.chatBodies()[1] as { messages: Array<{ content?: unknown }> }).messages.map((message) =>
      String(message.content ?? ''),
    );
    const positions = [1, 2, 3].map((index) => second.findIndex((content) => content.includes(`input ${index}`)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    const history = await a.history();
    for (let index = 0; index < 4; index++) expect(users(history, `input ${index}`)).toHaveLength(1);
    // Both hosts read the same history.
    expect((await b.history()).length).toBe(history.length);
  });

  it('an input reaching B while A runs the session’s turn joins that turn; B’s handleMessage settles when it ends', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('both answered'));
    const first = a.say('first question');
    await slow.started;
    const queueOnA = a.booted.capture('agent:queue');
    let bSettled = false;
    const second = b.say('second thought').then(() => {
      bSettled = true;
    });
    await waitFor(
      () => queueOnA.some((event) => event.dispositions.includes('join')),
      'the input to wait to join on A',
    );
    await sleep(100);
    expect(bSettled).toBe(false);
    slow.release();
    await Promise.all([first, second]);
    const requests = server!.chatBodies() as Array<{ messages: Array<{ role: string; content?: unknown }> }>;
    expect(requests).toHaveLength(2);
    const next = requests[1]!.messages;
    const toolIndex = next.findIndex((message) => message.role === 'tool');
    const joinedIndex = next.findIndex((message) => String(message.content ?? '').endsWith('second thought'));
    expect(joinedIndex).toBeGreaterThan(toolIndex);
    const [joined] = users(await b.history(), 'second thought');
    expect(joined?.metadata?.[WellKnownMetadataKeys.TurnEntry]).toBe('joined');
    const [opened] = users(await b.history(), 'first question');
    expect(joined?.metadata?.[WellKnownMetadataKeys.TurnId]).toBe(opened?.metadata?.[WellKnownMetadataKeys.TurnId]);
  });

  it('when A dies mid-turn, B records A’s turn as stopped and runs the inputs A had taken but not answered', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]));
    void a.say('first question');
    await slow.started;
    const queueOnA = a.booted.capture('agent:queue');
    // One input waits to join A's turn (accepted by B), one injection queues behind it (accepted by A).
    let joinSettled = false;
    const joining = b.say('second thought').then(() => {
      joinSettled = true;
    });
    await waitFor(() => queueOnA.some((event) => event.dispositions.includes('join')), 'the join on A');
    void a.say('scheduled check', { source: 'scheduler', triggerType: 'scheduled' });
    await waitFor(() => queueOnA.some((event) => event.dispositions.length === 2), 'the injection queued on A');
    // A dies: its heartbeat stops, it takes nothing more, its turn never goes on.
    leasesOf(a).pauseHeartbeat();
    const owners = a.orchestrator.placement;
    if (!(owners instanceof SessionOwners))
      throw new Error('the agent on PostgreSQL hands inputs over (owners expected)');
    owners.close();
    server!.enqueue(textReply('answered after the takeover'), textReply('check done'));
    await joining;
    expect(joinSettled).toBe(true);
    await waitFor(async () => users(await b.history(), 'scheduled check').length === 1, 'the injection to run on B');
    await waitFor(() => server!.chatBodies().length === 3, 'the injection turn’s model call');
    const history = await b.history();
    const [first] = users(history, 'first question');
    const interrupted = first?.metadata?.[WellKnownMetadataKeys.TurnId];
    expect(interrupted).toBeDefined();
    expect(
      history
        .filter((message) => message.kind === 'turn-stopped')
        .map((m) => m.metadata?.[WellKnownMetadataKeys.TurnId]),
    ).toEqual([interrupted]);
    // Each input archived exactly once; the join that never reached A's insertion point runs in B's own turn.
    expect(users(history, 'first question')).toHaveLength(1);
    const [second] = users(history, 'second thought');
    expect(users(history, 'second thought')).toHaveLength(1);
    expect(second?.metadata?.[WellKnownMetadataKeys.TurnId]).not.toBe(interrupted);
    expect(
      history.some((message) => message.role === 'assistant' && message.content === 'answered after the takeover'),
    ).toBe(true);
    // The model saw a valid sequence after the takeover (the harness's close checks no request was rejected).
    slow.release();
  });

  it('an input whose accepting process died before anyone took it is run by a live process’s sweep', async () => {
    const [a] = await twoHosts();
    const queue = a.booted.app.services.selected(storage)!.impl.handOver();
    // What an accepting process leaves behind when it dies right after putting the input.
    const message = { sessionId: 'cli:orphan', platform: 'cli', sender: { userId: 'owner' }, content: 'left behind' };
    const { id } = await queue.put('session:cli:orphan', JSON.stringify(message));
    expect(await queue.settled(id)).toBe('settled');
    const history = await a.history('cli:orphan');
    expect(users(history, 'left behind')).toHaveLength(1);
    expect(history.some((stored) => stored.role === 'assistant' && stored.content === 'ok')).toBe(true);
  });

  it('a stop asked of a process that does not run the session reaches the process that does', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('never asked for'));
    const first = a.say('first question');
    await slow.started;
    const aborted = a.orchestrator.runningTurn('cli:owner')!.controller.signal;
    b.agent.abort('cli:owner', { reason: 'webui stop' });
    await waitFor(() => aborted.aborted, 'the turn on A to be stopped');
    slow.release();
    await first;
    expect(server!.chatBodies()).toHaveLength(1);
    const history = await a.history();
    expect(history.filter((message) => message.kind === 'turn-stopped')).toHaveLength(1);
  });

  it('/stop typed on a process that does not run the session stops the turn its owner runs, by the same rules', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    // Nothing runs anywhere: answered at once.
    expect(await b.command('/stop')).toEqual([expect.stringMatching(/没有在跑的一轮|No turn is running/)]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('never asked for'));
    const first = a.say('first question');
    await slow.started;
    const running = a.orchestrator.runningTurn('cli:owner')!;
    // A stranger may not stop it from B either.
    const stranger = { sessionId: 'cli:owner', platform: 'cli', sender: { userId: 'stranger' }, content: '/stop' };
    const { gateway } = await import('@aalis/api-gateway');
    const refused = b.booted.capture('outbound:message');
    await b.booted.app.services.selected(gateway)!.impl.receive(stranger);
    await waitFor(() => refused.length > 0, 'the refusal');
    expect(refused[0]!.content).toMatch(/只有参与这一轮的人和 owner 能停|Only the people taking part/);
    expect(running.controller.signal.aborted).toBe(false);
    // The owner may.
    expect(await b.command('/stop')).toEqual([]);
    expect(running.controller.signal.aborted).toBe(true);
    slow.release();
    await first;
    expect(server!.chatBodies()).toHaveLength(1);
  });

  it('agent:accepted tells a front door once the input is stored in the database (durable), before its turn ends', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('done'));
    const first = a.say('first question');
    await slow.started;
    const database = b.booted.app.services.selected(storage)!.impl.postgres();
    const stored: string[][] = [];
    let durable: boolean | undefined;
    b.booted.app.events.on('agent:accepted', ({ message, durable: isDurable }) => {
      if (message.content !== 'second thought') return;
      durable = isDurable;
      void database
        .query<{ payload: string }>('SELECT payload FROM aalis_hand_over')
        .then((rows) => stored.push(rows.map((row) => JSON.parse(row.payload).content)));
    });
    let settled = false;
    const second = b.say('second thought').then(() => {
      settled = true;
    });
    await waitFor(() => stored.length > 0, 'agent:accepted on B');
    expect(durable).toBe(true);
    expect(stored[0]).toContain('second thought');
    expect(settled).toBe(false);
    slow.release();
    await Promise.all([first, second]);
  });

  it('on SQLite too agent:accepted comes once the input is stored in the hand-over queue (durable)', async () => {
    const harness = await startHarness();
    open.push(harness);
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    const storedAtAccept: string[] = [];
    harness.booted.app.events.on('agent:accepted', () => {
      const rows = database.connection.prepare('SELECT payload FROM aalis_hand_over').all() as { payload: string }[];
      storedAtAccept.push(...rows.map((row) => JSON.parse(row.payload).content));
    });
    const accepted = harness.booted.capture('agent:accepted');
    await harness.say('hello');
    expect(accepted.map((event) => [event.message.content, event.durable])).toEqual([['hello', true]]);
    expect(storedAtAccept).toEqual(['hello']);
  });

  it('a turn looks into its session’s queue twice: the take that places its input, the look before the lease goes back', async () => {
    const harness = await startHarness();
    open.push(harness);
    const queue = harness.booted.app.services.selected(storage)!.impl.handOver();
    const take = queue.take.bind(queue);
    const found: number[] = [];
    queue.take = async (name, options) => {
      const items = await take(name, options);
      found.push(items.length);
      return items;
    };
    const database = harness.booted.app.services.selected(storage)!.impl.database();
    const held = database.connection.prepare(
      "SELECT count(*) AS n FROM aalis_leases WHERE name LIKE 'session:%' AND released = 0",
    );
    await harness.say('hello');
    await waitFor(() => (held.get() as { n: number }).n === 0, 'the session lease given back');
    // A take that found fewer items than it asked for found all there were: no third, empty look right after it.
    expect(found).toEqual([1, 0]);
    await harness.say('again');
    expect(await harness.history()).toHaveLength(4);
  });

  it('an input handed over arrives at the owner whole: attachments, metadata, Dates', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('seen'));
    const first = a.say('first question');
    await slow.started;
    const queueOnA = a.booted.capture('agent:queue');
    const when = new Date('2026-01-02T03:04:05.678Z');
    const sent = {
      attachments: [{ type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'dot.png' }],
      metadata: { when, nested: { list: [1, 'two', null] }, note: 'ünïcødé ✓' },
      timestamp: 1_767_323_045_678,
      messageId: 'platform-42',
      replyTo: 'platform-41',
      actor: { platform: 'cli', userId: 'owner' },
    };
    const second = b.say('with a picture', sent);
    await waitFor(() => queueOnA.some((event) => event.waiting.length > 0), 'the input on A');
    const arrived = queueOnA.find((event) => event.waiting.length > 0)!.waiting[0]!;
    expect(arrived.attachments).toEqual(sent.attachments);
    expect(arrived.metadata?.when).toBeInstanceOf(Date);
    expect((arrived.metadata!.when as Date).getTime()).toBe(when.getTime());
    expect(arrived.metadata?.nested).toEqual(sent.metadata.nested);
    expect(arrived.metadata?.note).toBe(sent.metadata.note);
    expect([arrived.timestamp, arrived.messageId, arrived.replyTo, arrived.actor]).toEqual([
      sent.timestamp,
      sent.messageId,
      sent.replyTo,
      sent.actor,
    ]);
    slow.release();
    await Promise.all([first, second]);
  });

  it('a process that stalled past its lease writes nothing more into the session once another took it over', async () => {
    const slow = gatedTool();
    const [a, b] = await twoHosts([slow.tool]);
    server!.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]));
    const first = a.say('first question');
    await slow.started;
    const queueOnA = a.booted.capture('agent:queue');
    const second = b.say('second thought');
    await waitFor(() => queueOnA.some((event) => event.dispositions.includes('join')), 'the join on A');
    // A stalls: no heartbeat. B takes the session over once A's lease expired and runs its input.
    const aLeases = leasesOf(a);
    aLeases.pauseHeartbeat();
    server!.enqueue(textReply('answered by B'));
    await second;
    // A wakes up: it learns it lost the lease, and its turn (its tool returns now) stores nothing.
    await aLeases.resumeHeartbeat();
    slow.release();
    await first;
    const history = await b.history();
    const [opened] = users(history, 'first question');
    const turnOfA = opened?.metadata?.[WellKnownMetadataKeys.TurnId];
    expect(history.filter((message) => message.kind === 'turn-stopped')).toHaveLength(1);
    expect(history.filter((message) => message.metadata?.[WellKnownMetadataKeys.TurnId] === turnOfA).length).toBe(3);
    expect(history.some((message) => message.role === 'tool')).toBe(false);
    expect(history.at(-1)?.role === 'assistant' || history.at(-1)?.kind === 'event-marker').toBe(true);
    expect(history.some((message) => message.content === 'answered by B')).toBe(true);
  });

  it('twenty sessions, their inputs spread over both hosts at once: every input settles and is archived once', async () => {
    const [a, b] = await twoHosts([], () => heldText('ok', 20));
    const sessions = Array.from({ length: 20 }, (_, index) => `cli:user${index}`);
    const sends = sessions.flatMap((sessionId, index) =>
      [0, 1, 2].map((round) =>
        ((index + round) % 2 === 0 ? a : b).say(`input ${index}.${round}`, {
          sessionId,
          sender: { userId: `user${index}` },
        }),
      ),
    );
    await Promise.all(sends);
    for (const [index, sessionId] of sessions.entries()) {
      const history = await a.history(sessionId);
      for (const round of [0, 1, 2]) expect(users(history, `input ${index}.${round}`), sessionId).toHaveLength(1);
      expect(history.at(-1)?.role === 'assistant' || history.at(-1)?.kind === 'event-marker').toBe(true);
    }
  });
});
