import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { memory } from '@aalis/api-memory';
import { tools } from '@aalis/api-tools';
import { definePlugin } from '@aalis/core';
import {
  connectOneBotImplementation,
  type OneBotImplementation,
  onebotGroupMessage,
  onebotPrivateMessage,
  startOneBotImplementation,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import type { StartAalisOptions } from './start-aalis.js';

const SELF = 10_000;
const GROUP = 555;
const fixture = useProductFixture();
const { cleanups } = fixture;

async function boot(
  extra = '',
  token = 'onebot-secret-token',
  plugins: StartAalisOptions['plugins'] = [],
  vision = false,
) {
  const implementation = await startOneBotImplementation({ selfId: SELF, accessToken: token });
  cleanups.push(() => implementation.close());
  const dir = productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: onebot, userId: "42" }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }${vision ? ', modelDefaults: { vision: true }' : ''} }
  memory-summary: false
  platform-onebot:
    url: ${implementation.url}
    accessToken: ${token}
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

/** Polls with the runtime tests' one helper (spawn-aalis.case.ts). */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

describe('plugin-platform-onebot through the product', () => {
  it('connects with the access token as a Bearer header and logs in as her account', async () => {
    const { implementation, aalis, logs } = await boot();
    expect(implementation.authorizations).toEqual(['Bearer onebot-secret-token']);
    await until(() => logs().includes(`logged in as ${SELF}`), 'the login line');
    expect(logs()).not.toContain('onebot-secret-token');
    expect(aalis.app.states().find((state) => state.id === '@aalis/plugin-platform-onebot')?.state).toBe('active');
  });

  it('answers a private message in the private chat', async () => {
    const { implementation } = await boot();
    fixture.model.enqueue(textReply('Hello there.'));
    implementation.push(onebotPrivateMessage({ userId: 77, message: [{ type: 'text', data: { text: 'hi' } }] }));
    await until(() => sends(implementation).length === 1, 'the reply');
    expect(sends(implementation)[0]).toMatchObject({
      action: 'send_private_msg',
      params: { user_id: 77, message: [{ type: 'text', data: { text: 'Hello there.' } }] },
    });
  });

  it('gives an addressed group message with a tool call exactly one reply, quoting it', async () => {
    const { implementation, aalis } = await boot();
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], {
        text: 'Let me compute. ',
      }),
      textReply('It is 42.'),
    );
    const event = onebotGroupMessage({
      groupId: GROUP,
      userId: 42,
      card: 'Boss',
      message: [
        { type: 'at', data: { qq: String(SELF) } },
        { type: 'text', data: { text: ' what is 6*7?' } },
      ],
    });
    implementation.push(event);
    await until(() => sends(implementation).length === 1 && fixture.model.pending() === 0, 'the reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sends(implementation)).toHaveLength(1);
    expect(sends(implementation)[0]?.params).toEqual({
      group_id: GROUP,
      message: [
        { type: 'reply', data: { id: String(event.message_id) } },
        { type: 'text', data: { text: 'It is 42.' } },
      ],
    });
    // The room is a session named after the group.
    const { sessionManager } = await import('@aalis/api-session-manager');
    expect(await aalis.app.services.selected(sessionManager)!.impl.get(`onebot:group:${GROUP}`)).toMatchObject({
      kind: 'room',
      title: `Group ${GROUP}`,
      originChat: { multiParty: true },
    });
    // The model saw the sender and the text, without her own @-mention.
    const lastUser = (fixture.model.chatBodies()[0]!.messages as { role: string; content: unknown }[]).filter(
      (message) => message.role === 'user',
    );
    expect(JSON.stringify(lastUser)).toContain('what is 6*7?');
    expect(JSON.stringify(lastUser)).not.toContain(`@${SELF}`);
  });

  it('opens no turn for an unaddressed group message', async () => {
    const { implementation } = await boot();
    implementation.push(
      onebotGroupMessage({ groupId: GROUP, userId: 43, message: [{ type: 'text', data: { text: 'lunch anyone?' } }] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.model.chatBodies()).toHaveLength(0);
    expect(sends(implementation)).toHaveLength(0);
    // Kept as room context: the next turn reads it, with who said it.
    fixture.model.enqueue(textReply('Pizza.'));
    implementation.push(
      onebotGroupMessage({
        groupId: GROUP,
        userId: 42,
        message: [
          { type: 'at', data: { qq: String(SELF) } },
          { type: 'text', data: { text: ' any ideas?' } },
        ],
      }),
    );
    await until(() => sends(implementation).length === 1, 'the reply');
    const request = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(request).toContain('lunch anyone?');
    expect(request).toContain('43');
  });

  it('treats a reply to one of her own messages as addressing her', async () => {
    const { implementation } = await boot();
    fixture.model.enqueue(textReply('First.'), textReply('Second.'));
    implementation.push(
      onebotGroupMessage({
        groupId: GROUP,
        userId: 42,
        message: [
          { type: 'at', data: { qq: String(SELF) } },
          { type: 'text', data: { text: 'one' } },
        ],
      }),
    );
    await until(() => implementation.sent.length === 1, 'her first reply');
    const hers = implementation.sent[0]!.messageId;
    implementation.push(
      onebotGroupMessage({
        groupId: GROUP,
        userId: 43,
        message: `[CQ:reply,id=${hers}]and then?`,
      }),
    );
    await until(() => implementation.sent.length === 2, 'her second reply');
    expect(JSON.stringify(fixture.model.chatBodies()[1])).toContain('and then?');
  });

  it('splits a long reply at the platform limit without breaking words, quoting only in the first piece', async () => {
    const { implementation } = await boot('    maxMessageLength: 120\n');
    const long = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    fixture.model.enqueue(textReply(`${long}\n\n${long}`));
    implementation.push(onebotPrivateMessage({ userId: 77, message: 'long please' }));
    await until(() => fixture.model.pending() === 0 && sends(implementation).length >= 3, 'the pieces');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const texts = sends(implementation).map((call) =>
      (call.params.message as { type: string; data: { text?: string } }[])
        .filter((segment) => segment.type === 'text')
        .map((segment) => segment.data.text)
        .join(''),
    );
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(120);
    expect(texts.join(' ').split(/\s+/)).toEqual(`${long} ${long}`.split(' '));
  });

  it('records a failed send with the turn id in the history, and the turn still counts as replied', async () => {
    const { implementation, aalis } = await boot();
    implementation.failNext('send_private_msg', { status: 'failed', retcode: 1200, msg: 'blocked', data: null });
    fixture.model.enqueue(textReply('You will not see this.'));
    implementation.push(onebotPrivateMessage({ userId: 78, message: 'hi' }));
    const history = () =>
      (
        aalis.app.registry.select(memory.name)!.impl as {
          readAll(id: string): Promise<{ role: string; content: string; metadata?: Record<string, unknown> }[]>;
        }
      ).readAll('onebot:private:78');
    let stored: Awaited<ReturnType<typeof history>> = [];
    await until(async () => {
      stored = await history();
      return stored.some((message) => message.metadata?.deliveryFailure !== undefined);
    }, 'the failure record');
    const reply = stored.find((message) => message.role === 'assistant');
    const record = stored.find((message) => message.metadata?.deliveryFailure !== undefined);
    expect(reply?.metadata?.turnRecord).toMatchObject({ outcome: 'replied' });
    expect(record).toMatchObject({ role: 'system', metadata: { turnId: reply?.metadata?.turnId } });
    expect(record?.content).toContain('retcode 1200');
    // The next message works.
    fixture.model.enqueue(textReply('Now you do.'));
    implementation.push(onebotPrivateMessage({ userId: 78, message: 'again' }));
    await until(() => implementation.sent.length === 1, 'the next reply');
  });

  it('reconnects after the connection drops and answers again', async () => {
    const { implementation, logs } = await boot();
    implementation.dropConnections();
    await implementation.connected(2);
    await until(() => logs().includes('reconnected'), 'the reconnect line');
    expect(logs()).toMatch(/connection lost .* retrying in \d+ ms/);
    fixture.model.enqueue(textReply('Back.'));
    implementation.push(onebotPrivateMessage({ userId: 79, message: 'still there?' }));
    await until(() => implementation.sent.length === 1, 'the reply after reconnecting');
  });

  it('drops a silent connection (no heartbeat or event past the allowance) and redials', async () => {
    const { implementation, logs } = await boot('    idleTimeoutMs: 1000\n');
    await implementation.connected(2);
    expect(logs()).toMatch(/no heartbeat or event for 1000 ms; dropping the connection/);
    fixture.model.enqueue(textReply('Still here.'));
    implementation.push(onebotPrivateMessage({ userId: 83, message: 'hello?' }));
    await until(() => implementation.sent.length === 1, 'the reply on the new connection');
  });

  it('reads an image it can fetch as an attachment of the message', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const images = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.byteLength) });
      response.end(png);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => images.close(() => resolve())));
    const port = (images.address() as { port: number }).port;
    const { implementation } = await boot('', 'onebot-secret-token', [], true);
    fixture.model.enqueue(textReply('A tiny picture.'));
    implementation.push(
      onebotPrivateMessage({
        userId: 84,
        message: [
          { type: 'text', data: { text: 'what is this' } },
          { type: 'image', data: { file: 'a.image', url: `http://127.0.0.1:${port}/a.png` } },
        ],
      }),
    );
    await until(() => implementation.sent.length === 1, 'the reply');
    expect(JSON.stringify(fixture.model.chatBodies()[0])).toContain('data:image/png;base64,');
  });

  it('ignores malformed frames, unknown events and notices without a crash, and reads unknown segments as text', async () => {
    const { implementation, aalis } = await boot();
    implementation.push('{not json');
    implementation.push('[1,2,3]');
    implementation.push({ post_type: 'notice', notice_type: 'group_increase', group_id: GROUP, user_id: 5 });
    implementation.push({ post_type: 'request', request_type: 'friend', user_id: 5, comment: 'hi' });
    implementation.push({ post_type: 'something_new', detail: true });
    implementation.push({ post_type: 'message', message_type: 'private' });
    implementation.push({ status: 'ok', echo: 'nobody-asked', data: {} });
    fixture.model.enqueue(textReply('Got it.'));
    implementation.push(
      onebotPrivateMessage({
        userId: 80,
        message: [
          { type: 'text', data: { text: 'look ' } },
          { type: 'poke', data: { id: '1' } },
          { type: 'face', data: { id: '14' } },
        ],
      }),
    );
    await until(() => implementation.sent.length === 1, 'the reply');
    expect(JSON.stringify(fixture.model.chatBodies()[0])).toContain('look [poke][emoji 14]');
    expect(aalis.app.states().find((state) => state.id === '@aalis/plugin-platform-onebot')?.state).toBe('active');
  });

  it('keeps a message whose image cannot be fetched (with a note) and cuts an oversized one with a note', async () => {
    const { implementation } = await boot('    maxInboundLength: 200\n');
    fixture.model.enqueue(textReply('Seen.'), textReply('Long.'));
    implementation.push(
      onebotPrivateMessage({
        userId: 82,
        message: [
          { type: 'text', data: { text: 'look at this' } },
          { type: 'image', data: { file: 'abc.image', url: 'http://127.0.0.1:1/gone.png' } },
        ],
      }),
    );
    await until(() => implementation.sent.length === 1, 'the first reply');
    expect(JSON.stringify(fixture.model.chatBodies()[0])).toContain('look at this [image: could not be fetched]');
    implementation.push(onebotPrivateMessage({ userId: 82, message: 'x'.repeat(5_000) }));
    await until(() => implementation.sent.length === 2, 'the second reply');
    const second = JSON.stringify(fixture.model.chatBodies()[1]);
    expect(second).toContain(`${'x'.repeat(200)}\\n(message too long: only the first 200 characters were kept)`);
    expect(second).not.toContain('x'.repeat(201));
  });

  it('three people during a slow turn: joining, the focus block, queueing with the header', async () => {
    const slow = gate();
    const { implementation } = await boot('', 'onebot-secret-token', [slow.plugin]);
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
    const { implementation } = await boot('', 'onebot-secret-token', [slow.plugin]);
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

  it('works in reverse mode: the implementation connects to the host with its token', async () => {
    const port = await freePort();
    const dir = productWorkspace(
      fixture,
      `locale: en
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
    await startProduct(fixture, dir);
    await expect(
      connectOneBotImplementation(`ws://127.0.0.1:${port}/onebot/v11/ws`, { selfId: SELF }),
    ).rejects.toThrow();
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

  it('keeps a room’s history across a restart', async () => {
    const first = await boot();
    fixture.model.enqueue(textReply('Remembered.'));
    first.implementation.push(onebotPrivateMessage({ userId: 81, message: 'my name is Mei' }));
    await until(() => first.implementation.sent.length === 1, 'the first reply');
    await first.aalis.stop();
    await startProduct(fixture, first.dir);
    await first.implementation.connected(2);
    fixture.model.enqueue(textReply('Mei.'));
    first.implementation.push(onebotPrivateMessage({ userId: 81, message: 'what is my name?' }));
    await until(() => first.implementation.sent.length === 2, 'the second reply');
    expect(JSON.stringify(fixture.model.chatBodies()[1])).toContain('my name is Mei');
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
