import { memory } from '@aalis/api-memory';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import {
  SessionClient as Client,
  type SessionEvent,
  type SessionSummary,
  type Timeline,
  type TimelineTurn,
  type WebSocketLike,
} from '@aalis/session-client';
import { type ScriptedReply, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serveConfig, startServe } from './multi-process-serve.case.js';
import {
  type Cleanup,
  type ProductFixture,
  productWorkspace,
  startProduct,
  useProductFixture,
} from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import type { RunningAalis } from './start-aalis.js';

const fixture = useProductFixture();
const { cleanups } = fixture;

interface Host {
  aalis: RunningAalis;
  base: string;
  client: Client;
  /** Another connected client of the same login (another tab). */
  another(): Promise<Client>;
  /** Every socket the clients opened, in order (a test can drop one). */
  sockets: WebSocket[];
  stop(): Promise<void>;
}

/**
 * An in-process `aalis serve` on `database` with one client logged in. `owner` holds what stops the host (the test's
 * cleanups, or the file's for the hosts the cases share); each client is closed when the test that opened it ends.
 */
async function host(database: string, leaseTtlMs = 1000, owner: ProductFixture = fixture): Promise<Host> {
  const dir = productWorkspace(
    owner,
    `locale: en
consoleLogLevel: off
llm: { baseUrl: ${fixture.model.url}, model: test-model }
webui: { port: 0 }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  storage: { leaseTtlMs: ${leaseTtlMs} }
`,
    'aalis-serve-multi-',
  );
  const { aalis, stop } = await startProduct(owner, dir, {
    env: { AALIS_DATABASE_URL: database },
    mode: 'serve',
    banner: false,
  });
  const base = aalis.webui!.url()!;
  const token = new URL(aalis.webui!.loginLink()!).searchParams.get('token')!;
  const response = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ token }),
  });
  expect(response.ok).toBe(true);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const sockets: WebSocket[] = [];
  const connected = async () => {
    const client = new Client({
      baseUrl: base,
      headers: { cookie },
      reconnectDelayMs: { min: 20, max: 200 },
      requestTimeoutMs: 10_000,
      createSocket: (url) => {
        const socket = new WebSocket(url, { headers: { cookie, origin: base } });
        sockets.push(socket);
        return socket as unknown as WebSocketLike;
      },
    });
    cleanups.push(() => client.close());
    await client.connect();
    return client;
  };
  const client = await connected();
  return { aalis, base, client, another: connected, sockets, stop };
}

/** What one subscription received. */
class Recorder {
  timelines: Timeline[] = [];
  events: { seq: number; event: SessionEvent }[] = [];
  readonly handlers = {
    timeline: (timeline: Timeline) => void this.timelines.push(timeline),
    event: (event: SessionEvent, seq: number) => void this.events.push({ seq, event }),
  };
  of<T extends SessionEvent['type']>(type: T): Extract<SessionEvent, { type: T }>[] {
    return this.events
      .map((entry) => entry.event)
      .filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
  }
  text(turnId: string): string {
    return this.of('text.delta')
      .filter((delta) => delta.turnId === turnId)
      .map((delta) => delta.delta)
      .join('');
  }
}

/** A streamed reply in pieces with pauses between them, so a turn stays open for a while. */
function slowReply(pieces: string[], delayMs: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      ...pieces.flatMap((text, index) => (index === 0 ? [{ text }] : [{ delayMs }, { text }])),
      { finish: 'stop' },
      { usage: { promptTokens: 10, completionTokens: 5 } },
      { done: true },
    ],
  };
}

/**
 * A streamed reply that sends `first`, then holds until the test calls `release()` and sends `rest`: the turn stays
 * open exactly as long as the test needs it to.
 */
function gatedReply(first: string, rest: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const reply: ScriptedReply = {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: first },
      { until: released },
      { text: rest },
      { finish: 'stop' },
      { usage: { promptTokens: 10, completionTokens: 5 } },
      { done: true },
    ],
  };
  return { reply, release };
}

/** The outcome of the session's hand-over item holding `text` (null while it waits or runs). */
async function handOverOutcome(url: string, sessionId: string, text: string): Promise<string | null | undefined> {
  const database = new PostgresDatabase(url);
  try {
    const [row] = await database.query<{ outcome: string | null }>(
      'SELECT outcome FROM aalis_hand_over WHERE name = $1 AND strpos(payload, $2) > 0',
      [`session:${sessionId}`, text],
    );
    return row?.outcome;
  } finally {
    await database.close();
  }
}

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(check, { what, timeoutMs });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A session on a spawned `aalis serve` A (the test kills it) watched by a client of B, a host in this process on the
 * same database. `streamTurn` starts a turn on A that streams and never finishes, and returns its turn.started;
 * `nextReply` is the model's answer to the turn after it.
 */
async function watchedTurnOnSpawnedA(title: string, nextReply: string) {
  const database = await throwawayDatabase();
  const a = await startServe({
    name: 'a',
    config: serveConfig({ modelUrl: fixture.model.url, apiKey: 'key-a', leaseTtlMs: 1000 }),
    env: { AALIS_DATABASE_URL: database },
  });
  cleanups.push(async () => {
    await a.stop();
    a.removeWorkspace();
  });
  const b = await host(database);
  const { session } = await a.client.request('session.create', { title });
  const onB = new Recorder();
  const streamTurn = async () => {
    await b.client.subscribe(session.id, onB.handlers).ready;
    fixture.model.enqueue(slowReply(['Never ', 'finished.'], 20_000), textReply(nextReply));
    await a.client.send({ sessionId: session.id, text: 'hi' });
    await until(() => onB.of('text.delta').length >= 1, 'the turn on A streaming to B');
    return onB.of('turn.started')[0]!;
  };
  return { a, b, session, onB, streamTurn };
}

/**
 * The hosts the in-process cases share, on one database: a host start (and its stop) per case bought nothing, since
 * each case has a session and clients of its own.
 */
const sharedCleanups: Cleanup[] = [];
let shared: { a: Host; b: Host } | undefined;

/** The shared hosts A and B, each seen through a client of this case's own (closed when the case ends). */
async function pair(): Promise<{ a: Host; b: Host }> {
  const { a, b } = shared!;
  const [onA, onB] = [await a.another(), await b.another()];
  return { a: { ...a, client: onA }, b: { ...b, client: onB } };
}

describe('WebUI clients on any process of one PostgreSQL', () => {
  afterAll(async () => {
    for (const cleanup of sharedCleanups.splice(0).reverse()) await cleanup();
  });
  beforeAll(async () => {
    const owner = {
      get model() {
        return fixture.model;
      },
      cleanups: sharedCleanups,
    };
    const database = await throwawayDatabase();
    shared = { a: await host(database, 1000, owner), b: await host(database, 1000, owner) };
  }, 60_000);

  it('a client on B sees a turn running on A: its input, deltas, reply, running state, in B’s own sequence', async () => {
    const { a, b } = await pair();
    const { session } = await a.client.request('session.create', { title: 'across' });
    const listed: SessionSummary[] = [];
    b.client.on('sessions', (frame) => {
      if (frame.sessionId === session.id && frame.session) listed.push(frame.session);
    });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;

    fixture.model.enqueue(slowReply(['Hello ', 'from ', 'process ', 'A.'], 250));
    await a.client.send({ sessionId: session.id, text: 'hi from A' });
    await until(() => onB.of('text.delta').length >= 1, 'the first delta on B');
    // Another tab on B, subscribing mid-turn: B's timeline has the running turn and what was streamed so far,
    // and the events after its sequence number continue it.
    const late = new Recorder();
    await (await b.another()).subscribe(session.id, late.handlers).ready;
    await until(() => onB.of('turn.ended').length === 1 && late.of('turn.ended').length === 1, 'the end on B');
    const midTurn = late.timelines[0]!.entries.find((entry): entry is TimelineTurn => entry.kind === 'turn');
    expect(midTurn?.running).toBe(true);
    const streamedBefore = midTurn!.items.flatMap((item) => (item.kind === 'text' ? [item.text] : [])).join('');
    expect(streamedBefore.length).toBeGreaterThan(0);
    expect(streamedBefore + late.text(midTurn!.turnId)).toBe('Hello from process A.');

    const [started] = onB.of('turn.started');
    expect(started).toBeDefined();
    expect(onB.of('input').map((event) => event.input.text)).toEqual(['hi from A']);
    expect(onB.text(started!.turnId)).toBe('Hello from process A.');
    expect(onB.of('message').map((event) => [event.kind, event.text])).toEqual([['reply', 'Hello from process A.']]);
    expect(onB.of('turn.ended')[0]).toMatchObject({ turnId: started!.turnId, outcome: 'replied' });
    // B numbers the events itself: one by one, without gaps or repeats.
    const seqs = onB.events.map((entry) => entry.seq);
    expect(seqs).toEqual(seqs.map((_, index) => seqs[0]! + index));
    // B's session list saw the session running, then idle (the list's change is its own frame: it may come after
    // the turn's end event, so it is waited for).
    expect(listed.some((summary) => summary.running)).toBe(true);
    await until(() => listed.at(-1)?.running === false, 'B’s list showing the session idle');
  }, 60_000);

  it('an input sent on B while A runs the session’s turn comes back to B’s tab with its client message id', async () => {
    const { a, b } = await pair();
    const { session } = await a.client.request('session.create', { title: 'handed over' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    fixture.model.enqueue(slowReply(['One ', 'moment.'], 1200), textReply('Your turn now.'));
    await a.client.send({ sessionId: session.id, text: 'first, on A' });
    await until(() => onB.of('text.delta').length >= 1, 'the turn on A streaming to B');
    // A holds the session: the input B accepted goes to A (hand-over) and waits there for A's next turn.
    const sent = await b.client.send({ sessionId: session.id, text: 'second, on B' });
    const ofSecond = () => onB.of('input').find((event) => event.input.messageId === sent.messageId);
    await until(() => ofSecond() !== undefined && onB.of('turn.ended').length === 2, 'both turns on B');
    expect(onB.of('queue').some((event) => event.added.some((waiting) => waiting.text === 'second, on B'))).toBe(true);
    expect(ofSecond()!.input.text).toBe('second, on B');
    expect(ofSecond()!.input.clientMessageId).toEqual(expect.any(String));
    expect(onB.of('message').map((event) => event.text)).toEqual(['One moment.', 'Your turn now.']);
  }, 60_000);

  it('a client on B whose socket drops during A’s turn resumes on B: every event once, in order', async () => {
    const { a, b } = await pair();
    const { session } = await a.client.request('session.create', { title: 'resume' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    const words = Array.from({ length: 30 }, (_, index) => `w${index} `);
    fixture.model.enqueue(slowReply(words, 40));
    await a.client.send({ sessionId: session.id, text: 'stream please' });
    await until(() => onB.of('text.delta').length >= 3, 'the stream reaching B');
    const socketsBefore = b.sockets.length;
    b.sockets.at(-1)!.terminate();
    await until(() => onB.of('turn.ended').length === 1, 'the end of the turn on B');
    expect(b.sockets.length).toBeGreaterThan(socketsBefore);
    expect(onB.timelines).toHaveLength(1); // resumed from B's buffer, no second timeline
    const seqs = onB.events.map((entry) => entry.seq);
    expect(seqs).toEqual(seqs.map((_, index) => seqs[0]! + index));
    expect(onB.text(onB.of('turn.started')[0]!.turnId)).toBe(words.join(''));
  }, 60_000);

  it('the stop button on B stops the turn running on A; B sees it end as stopped, by whom', async () => {
    const { a, b } = await pair();
    const { session } = await a.client.request('session.create', { title: 'stop it' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    fixture.model.enqueue(slowReply(['Going ', 'on ', 'and on.'], 5000));
    await a.client.send({ sessionId: session.id, text: 'talk' });
    await until(() => onB.of('text.delta').length >= 1, 'the turn on A streaming to B');
    const answer = await b.client.request('stop', { sessionId: session.id });
    await until(() => onB.of('turn.ended').length === 1, 'the turn ending', 8000);
    expect(onB.of('turn.ended')[0]).toMatchObject({
      outcome: 'aborted',
      stoppedBy: { platform: 'webui', userId: 'owner' },
    });
    // Confirmed by the turn's end relayed from A, not guessed.
    expect(answer).toEqual({ stopped: true });
  }, 60_000);

  it('a reply over NOTIFY’s 8000-byte limit reaches B whole (stored and referenced by id)', async () => {
    const { a, b } = await pair();
    const { session } = await a.client.request('session.create', { title: 'long' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    // Two-byte characters too: the limit is in bytes.
    const long = `${'é'.repeat(6000)} ${'x'.repeat(9000)}`;
    fixture.model.enqueue(textReply(long, { chunkSize: 5000 }));
    await a.client.send({ sessionId: session.id, text: 'say a lot' });
    await until(() => onB.of('turn.ended').length === 1, 'the end of the turn on B');
    expect(onB.of('message').map((event) => event.text)).toEqual([long]);
    expect(onB.text(onB.of('turn.started')[0]!.turnId)).toBe(long);
  }, 60_000);

  it('a deletion on A stops the turn B runs for the session and releases what B collected, unarchived', async () => {
    const { a, b } = await pair();
    const { session } = await b.client.request('session.create', { title: 'doomed' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    const removed: string[] = [];
    b.client.on('sessions', (frame) => {
      if (frame.change === 'removed') removed.push(frame.sessionId);
    });
    const thinking = gatedReply('Thinking ', 'very slowly.');
    cleanups.push(thinking.release);
    fixture.model.enqueue(thinking.reply, textReply('second turn'));
    await b.client.send({ sessionId: session.id, text: 'first, on B' });
    await until(() => onB.of('text.delta').length >= 1, 'the turn streaming on B');
    // Collected on B while its turn runs: waits to join it.
    // (A text no earlier case of the shared hosts sent: their long-term memory may recall those into this turn.)
    await b.client.send({ sessionId: session.id, text: 'collected on B' });
    await until(() => onB.of('queue').some((event) => event.added.length === 1), 'the second input waiting on B');

    expect(await a.client.request('delete', { sessionId: session.id })).toEqual({ deleted: [session.id] });
    await until(() => onB.of('turn.ended').length === 1, 'the turn on B ending');
    expect(onB.of('turn.ended')[0]!.outcome).toBe('aborted');
    await until(() => removed.includes(session.id), 'B’s list dropping the session');
    // The rest of the reply is free to come now: had B not stopped, the stream would end at once and the waiting
    // input open a turn well within this pause.
    thinking.release();
    await pause(1500);
    const asked = fixture.model.chatBodies().map((body) => JSON.stringify(body));
    expect(asked).toHaveLength(1);
    expect(asked.some((body) => body.includes('collected on B'))).toBe(false);
    for (const each of [a, b]) {
      const history = await each.aalis.app.services.selected(memory)!.impl.readAll(session.id);
      expect(history).toEqual([]);
    }
    expect(await b.client.request('sessions.list', {})).toMatchObject({
      sessions: expect.not.arrayContaining([expect.objectContaining({ id: session.id })]),
    });
  }, 60_000);
});

describe('WebUI clients on processes that die or hold a session', () => {
  it('a process killed mid-turn: a client on another process sees that turn end as stopped', async () => {
    const { a, b, session, onB, streamTurn } = await watchedTurnOnSpawnedA('dies', 'answered again');
    const listed: SessionSummary[] = [];
    b.client.on('sessions', (frame) => {
      if (frame.sessionId === session.id && frame.session) listed.push(frame.session);
    });
    const started = await streamTurn();
    a.kill();
    await until(
      () => onB.of('turn.ended').some((event) => event.turnId === started.turnId),
      'the turn ending on B',
      20_000,
    );
    expect(onB.of('turn.ended').find((event) => event.turnId === started.turnId)?.outcome).toBe('aborted');
    await until(() => listed.at(-1)?.running === false, 'B’s list showing the session idle');
  }, 90_000);

  it('a session taken over from a killed process: its dead turn ends on B before B’s own turn begins', async () => {
    const { a, b, session, onB, streamTurn } = await watchedTurnOnSpawnedA('taken over', 'B answers.');
    const dead = await streamTurn();
    a.kill();
    // B takes the session once A's lease expired (1 s), well before A's missed relay heartbeats would tell.
    await b.client.send({ sessionId: session.id, text: 'are you there?' });
    await until(() => onB.of('message').some((event) => event.text === 'B answers.'), 'B’s own reply');
    const types = onB.events.map(({ event }) =>
      event.type === 'turn.started' || event.type === 'turn.ended' ? `${event.type} ${event.turnId}` : event.type,
    );
    const deadEnded = types.indexOf(`turn.ended ${dead.turnId}`);
    const next = onB.of('turn.started').find((event) => event.turnId !== dead.turnId)!;
    expect(deadEnded).toBeGreaterThanOrEqual(0);
    expect(deadEnded).toBeLessThan(types.indexOf(`turn.started ${next.turnId}`));
    expect(onB.of('turn.ended').find((event) => event.turnId === dead.turnId)?.outcome).toBe('aborted');
  }, 90_000);

  it('an input waiting in the hand-over queue when the session is deleted is dropped, not run or archived', async () => {
    const database = await throwawayDatabase();
    const a = await startServe({
      name: 'a',
      config: serveConfig({ modelUrl: fixture.model.url, apiKey: 'key-a', leaseTtlMs: 3000 }),
      env: { AALIS_DATABASE_URL: database },
    });
    cleanups.push(async () => {
      await a.stop();
      a.removeWorkspace();
    });
    const b = await host(database, 3000);
    const { session } = await a.client.request('session.create', { title: 'queued' });
    const onB = new Recorder();
    await b.client.subscribe(session.id, onB.handlers).ready;
    fixture.model.enqueue(slowReply(['Never ', 'finished.'], 20_000), textReply('must not run'));
    await a.client.send({ sessionId: session.id, text: 'first, on A' });
    await until(() => onB.of('text.delta').length >= 1, 'the turn on A streaming to B');
    // A dies holding the session: an input B accepts now waits in the session's queue until A's lease expires.
    a.kill();
    const sent = b.client.send({ sessionId: session.id, text: 'second, on B' });
    await sent;
    const deleted = await b.client.request('delete', { sessionId: session.id });
    expect(deleted).toEqual({ deleted: [session.id] });
    // Past the lease expiry B takes the session's queue over, with the input put before the deletion in it: the
    // input's item is finished as dropped (never placed in a turn). Waited for, not a pause that outlasts the lease.
    await until(
      async () => (await handOverOutcome(database, session.id, 'second, on B')) === 'dropped',
      'B dropping the input that waited in the queue',
      20_000,
    );
    const asked = fixture.model.chatBodies().map((body) => JSON.stringify(body));
    expect(asked.some((body) => body.includes('second, on B'))).toBe(false);
    const history = await b.aalis.app.services.selected(memory)!.impl.readAll(session.id);
    expect(JSON.stringify(history)).not.toContain('second, on B');
  }, 90_000);
});
