// plugin-platform-onebot through the product (startAalis, the default plugin set) against a OneBot v11
// implementation of our own (a real universal WebSocket) and the scripted model server: the platform conformance
// suite and OneBot's own cases on one product, then the cases that need other settings, each on a product of its own.
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { sessionManager } from '@aalis/api-session-manager';
import { tools } from '@aalis/api-tools';
import { definePlugin } from '@aalis/core';
import {
  connectOneBotImplementation,
  type OneBotImplementation,
  onebotGroupMessage,
  onebotPrivateMessage,
  startOneBotHttpImplementation,
  startOneBotImplementation,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver, ONEBOT_SELF, ONEBOT_TOKEN } from './platform-onebot-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import type { StartAalisOptions } from './start-aalis.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

const SELF = ONEBOT_SELF;
const GROUP = 556_000;

/** Polls with the runtime tests' one helper (spawn-aalis.case.ts). */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

const textOf = (message: unknown) =>
  (Array.isArray(message) ? (message as { type: string; data: { text?: string } }[]) : [])
    .filter((segment) => segment.type === 'text')
    .map((segment) => segment.data.text)
    .join('');

describePlatformConformance(conformanceDriver, (context) => {
  const sentTo = (userId: number) =>
    context.server.implementation.sent.filter((sent) => sent.userId === userId && sent.groupId === undefined);

  it('connected with the access token as a Bearer header, logged in as her account, named the group room', async () => {
    const { implementation, groupId } = context.server;
    expect(new Set(implementation.authorizations)).toEqual(new Set([`Bearer ${ONEBOT_TOKEN}`]));
    await until(() => context.logs().includes(`logged in as ${SELF}`), 'the login line');
    // The suite's first group is a room session named after the group (get_group_info).
    const sessions = context.aalis.app.services.selected(sessionManager)!.impl;
    expect(await sessions.get(`onebot:group:${groupId('g1')}`)).toMatchObject({
      kind: 'room',
      title: `Group ${groupId('g1')}`,
      originChat: { multiParty: true },
    });
    const asked = context.model.chatBodies().find((body) => JSON.stringify(body).includes('what is 6*7?'));
    expect(JSON.stringify(asked)).not.toContain(`@${SELF}`);
  });

  it('splits a long reply at the platform limit (3000) without breaking words', async () => {
    const { implementation } = context.server;
    const long = Array.from({ length: 400 }, (_, index) => `word${index}`).join(' ');
    const before = sentTo(77).length;
    context.model.enqueue(textReply(`${long}\n\n${long}`));
    implementation.push(onebotPrivateMessage({ userId: 77, message: 'long please' }));
    // The reply goes out as several pieces (each paragraph cut at the limit): wait for every word, not a count of
    // pieces, so a read between two sends cannot see half of it.
    const piecesSent = () =>
      sentTo(77)
        .slice(before)
        .map((sent) => textOf(sent.message));
    await until(
      () => context.model.pending() === 0 && piecesSent().join(' ').split(/\s+/).length >= 800,
      'every piece of the long reply',
    );
    const texts = piecesSent();
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(3_000);
    expect(texts.join(' ').split(/\s+/)).toEqual(`${long} ${long}`.split(' '));
  });

  it('reads an image it can fetch as an attachment, a failed one as a note, unknown segments as text, and cuts an oversized message', async () => {
    const { implementation } = context.server;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const images = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.byteLength) });
      response.end(png);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    const port = (images.address() as { port: number }).port;
    try {
      const before = sentTo(84).length;
      context.model.enqueue(textReply('A tiny picture.'), textReply('Seen.'), textReply('Long.'));
      implementation.push(
        onebotPrivateMessage({
          userId: 84,
          message: [
            { type: 'text', data: { text: 'what is this' } },
            { type: 'image', data: { file: 'a.image', url: `http://127.0.0.1:${port}/a.png` } },
          ],
        }),
      );
      await until(() => sentTo(84).length === before + 1, 'the first reply');
      expect(JSON.stringify(context.model.chatBodies().at(-1))).toContain('data:image/png;base64,');
      implementation.push(
        onebotPrivateMessage({
          userId: 84,
          message: [
            { type: 'text', data: { text: 'look at this ' } },
            { type: 'image', data: { file: 'abc.image', url: 'http://127.0.0.1:1/gone.png' } },
            { type: 'poke', data: { id: '1' } },
            { type: 'face', data: { id: '14' } },
          ],
        }),
      );
      await until(() => sentTo(84).length === before + 2, 'the second reply');
      const second = JSON.stringify(context.model.chatBodies().at(-1));
      expect(second).toContain('[image: could not be fetched]');
      expect(second).toContain('[poke][emoji 14]');
      implementation.push(onebotPrivateMessage({ userId: 84, message: 'x'.repeat(25_000) }));
      await until(() => sentTo(84).length === before + 3, 'the third reply');
      const third = JSON.stringify(context.model.chatBodies().at(-1));
      expect(third).toContain(`${'x'.repeat(20_000)}\\n(message too long: only the first 20000 characters were kept)`);
      expect(third).not.toContain('x'.repeat(20_001));
    } finally {
      await new Promise<void>((resolve) => images.close(() => resolve()));
    }
  });
});

describe('plugin-platform-onebot with other settings', () => {
  const fixture = useProductFixture();
  const { cleanups } = fixture;

  async function boot(extra = '', plugins: StartAalisOptions['plugins'] = []) {
    const implementation = await startOneBotImplementation({ selfId: SELF, accessToken: ONEBOT_TOKEN });
    cleanups.push(() => implementation.close());
    const dir = productWorkspace(
      fixture,
      `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: onebot, userId: "42" }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot:
    url: ${implementation.url}
    accessToken: ${ONEBOT_TOKEN}
    reconnect: { initialMs: 50, maxMs: 200 }
${extra}`,
      'aalis-onebot-',
    );
    const { aalis, logs } = await startProduct(fixture, dir, { plugins });
    await implementation.connected();
    await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
    return { aalis, implementation, dir, logs };
  }

  const sends = (implementation: OneBotImplementation) =>
    implementation.calls.filter((call) => call.action === 'send_group_msg' || call.action === 'send_private_msg');

  it('drops a silent connection (no heartbeat or event past the allowance) and redials', async () => {
    const { implementation, logs } = await boot('    idleTimeoutMs: 1000\n');
    await implementation.connected(2);
    expect(logs()).toMatch(/no heartbeat or event for 1000 ms; dropping the connection/);
    fixture.model.enqueue(textReply('Still here.'));
    implementation.push(onebotPrivateMessage({ userId: 83, message: 'hello?' }));
    await until(() => implementation.sent.length === 1, 'the reply on the new connection');
  });

  it('three people during a slow turn: joining, the focus block, queueing with the header', async () => {
    const slow = gate();
    const { implementation } = await boot('', [slow.plugin]);
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]),
      {
        type: 'stream',
        steps: [
          { role: 'assistant' },
          { text: 'Fi' },
          { flush: true },
          { delayMs: 600 },
          { text: 'nal.' },
          { finish: 'stop' },
          { done: true },
        ],
      },
      textReply('Next turn.'),
    );
    const at = (text: string) => [
      { type: 'at', data: { qq: String(SELF) } },
      { type: 'text', data: { text } },
    ];
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 42, message: at(' start the report') }));
    await slow.started;
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 43, message: 'coffee break soon' }));
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 44, message: at(' add the totals') }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    slow.release();
    // While the final reply streams, a fourth message arrives: it waits for the next turn.
    await until(() => fixture.model.chatBodies().length === 2, 'the second model call');
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 45, message: 'late remark' }));
    await until(
      () => fixture.model.chatBodies().length === 3 && sends(implementation).length === 2,
      'the next turn',
      15_000,
    );
    const second = JSON.stringify(fixture.model.chatBodies()[1]);
    expect(second).toContain('coffee break soon');
    expect(second).toContain('add the totals');
    expect(second).toContain('[Focus] These messages addressed you');
    const third = JSON.stringify(fixture.model.chatBodies()[2]);
    expect(third).toContain('The following messages arrived while your previous turn was in progress');
    expect(third).toContain('late remark');
    expect(sends(implementation).map((call) => JSON.stringify(call.params.message))).toEqual([
      expect.stringContaining('Final.'),
      expect.stringContaining('Next turn.'),
    ]);
  });

  it('/stop works for a participant of the running turn and is refused to someone else', async () => {
    const slow = gate();
    const { implementation } = await boot('', [slow.plugin]);
    fixture.model.enqueue(toolCallReply([{ id: 'c1', name: 'slow', arguments: {} }]), textReply('never sent'));
    const at = (text: string) => [
      { type: 'at', data: { qq: String(SELF) } },
      { type: 'text', data: { text } },
    ];
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 43, message: at(' long job') }));
    await slow.started;
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 99, message: '/stop' }));
    await until(() => sends(implementation).length === 1, 'the refusal');
    expect(JSON.stringify(sends(implementation)[0]?.params.message)).toContain(
      'Only the people taking part in this turn and the owner can stop it',
    );
    implementation.push(onebotGroupMessage({ groupId: GROUP, userId: 43, message: '/stop' }));
    await until(() => slow.aborted(), 'the stop reaching the tool');
    slow.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Stopped: no reply went out, only the refusal.
    expect(sends(implementation)).toHaveLength(1);
  });

  it('HTTP mode: an event POST is answered once its input is stored (503 when not, the redelivery stored once), a repeated message_id is not stored again, an unsigned POST is refused', async () => {
    const port = await freePort();
    const implementation = await startOneBotHttpImplementation({
      selfId: SELF,
      accessToken: 'http-token',
      secret: 'post-secret',
    });
    cleanups.push(() => implementation.close());
    const dir = productWorkspace(
      fixture,
      `locale: en
consoleLogLevel: warn
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot:
    mode: http
    url: ${implementation.url}
    accessToken: http-token
    secret: post-secret
    reverse: { port: ${port}, path: /onebot }
`,
      'aalis-onebot-http-',
    );
    const { aalis, logs } = await startProduct(fixture, dir);
    await until(() => accepting(port), 'the event server listening');
    implementation.postTo(`http://127.0.0.1:${port}/onebot`);
    await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
    expect(new Set(implementation.authorizations)).toEqual(new Set(['Bearer http-token']));
    fixture.model.enqueue(textReply('Hello over HTTP.'));
    const first = onebotPrivateMessage({ userId: 91, message: 'hi over http' });
    implementation.push(first);
    await until(() => implementation.sent.length === 1, 'the reply');
    await implementation.settled();
    // Delivered again (same message_id): answered, not a second input.
    implementation.push(first);
    await implementation.settled();
    expect(implementation.statuses()).toEqual([204, 204]);
    expect(storedInputs(aalis, 'hi over http')).toBe(1);
    // Not stored, not acknowledged: 503; the redelivery is stored and answered once.
    const fault = failInputStores(aalis);
    fixture.model.enqueue(textReply('Stored over HTTP after all.'));
    implementation.push(onebotPrivateMessage({ userId: 91, message: 'the store fails once' }));
    await implementation.settled();
    expect(implementation.statuses().at(-1)).toBe(503);
    expect(implementation.repost()).toBe(1);
    await until(() => implementation.sent.length === 2, 'the reply to the redelivery');
    await implementation.settled();
    fault.restore();
    expect(fault.failed()).toBe(1);
    expect(implementation.statuses().slice(2)).toEqual([503, 204]);
    expect(storedInputs(aalis, 'the store fails once')).toBe(1);
    expect(textOf(implementation.sent[1]?.message)).toBe('Stored over HTTP after all.');
    const unsigned = await fetch(`http://127.0.0.1:${port}/onebot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(onebotPrivateMessage({ userId: 91, message: 'forged' })),
    });
    expect(unsigned.status).toBe(401);
    expect(logs()).toContain('AALIS_ONEBOT_SIGNATURE_INVALID');
    expect(logs()).not.toContain('post-secret');
  });

  it('works in reverse mode: the implementation connects to the host with its token', async () => {
    const port = await freePort();
    const dir = productWorkspace(
      fixture,
      `locale: en
consoleLogLevel: warn
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot:
    mode: reverse
    accessToken: reverse-token
    reverse: { port: ${port} }
`,
      'aalis-onebot-',
    );
    const { logs } = await startProduct(fixture, dir);
    // The reverse server listens once this process holds the connection's lease (after the start returned).
    await until(() => accepting(port), 'the reverse server listening');
    await expect(
      connectOneBotImplementation(`ws://127.0.0.1:${port}/onebot/v11/ws`, { selfId: SELF }),
    ).rejects.toThrow();
    await until(() => logs().includes('AALIS_ONEBOT_CLIENT_TOKEN_REFUSED'), 'the refusal logged with its code');
    // Any path is accepted unless reverse.path names one (implementations are configured with all sorts).
    const implementation = await connectOneBotImplementation(`ws://127.0.0.1:${port}/ws`, {
      selfId: SELF,
      accessToken: 'reverse-token',
    });
    cleanups.push(() => implementation.close());
    await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
    fixture.model.enqueue(textReply('Reverse hello.'));
    implementation.push(onebotPrivateMessage({ userId: 77, message: 'hi' }));
    await until(() => implementation.sent.length === 1, 'the reply');
  });
});

/** A tool that waits until the test releases it, and notices its turn's abort signal. */
function gate() {
  let release!: () => void;
  let entered!: () => void;
  let abortSeen = false;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const plugin = definePlugin({
    name: '@test/slow-tool',
    uses: { tools },
    apply({ tools }) {
      tools.use.register({
        name: 'slow',
        description: 'Takes a while',
        parameters: { type: 'object', properties: {} },
        async handler(_args, context) {
          entered();
          context.signal?.addEventListener('abort', () => {
            abortSeen = true;
          });
          await released;
          return 'slow result';
        },
      });
    },
  });
  return { plugin, release, started, aborted: () => abortSeen };
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
