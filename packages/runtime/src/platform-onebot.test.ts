// plugin-platform-onebot through the product (startAalis, the default plugin set) against a OneBot v11
// implementation of our own over a real WebSocket and the scripted model server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { memory } from '@aalis/api-memory';
import {
  type OneBotImplementation,
  type OpenAiTestServer,
  onebotGroupMessage,
  onebotPrivateMessage,
  startOneBotImplementation,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningAalis, startAalis } from './start-aalis.js';

const SELF = 10_000;
const GROUP = 555;
let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  model.reset();
});

async function boot(extra = '', token = 'onebot-secret-token') {
  const implementation = await startOneBotImplementation({ selfId: SELF, accessToken: token });
  cleanups.push(() => implementation.close());
  const dir = mkdtempSync(join(tmpdir(), 'aalis-onebot-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: onebot, userId: "42" }]
llm: { baseUrl: ${model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot:
    url: ${implementation.url}
    accessToken: ${token}
    reconnect: { initialMs: 50, maxMs: 200 }
${extra}`,
  );
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });
  const aalis: RunningAalis = await startAalis({ cwd: dir, env: {}, mode: 'none', output: logs, errorOutput: logs });
  cleanups.push(() => aalis.stop());
  await implementation.connected();
  await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
  return { aalis, implementation, dir, logs: () => logText };
}

const sends = (implementation: OneBotImplementation) =>
  implementation.calls.filter((call) => call.action === 'send_group_msg' || call.action === 'send_private_msg');

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
    model.enqueue(textReply('Hello there.'));
    implementation.push(onebotPrivateMessage({ userId: 77, message: [{ type: 'text', data: { text: 'hi' } }] }));
    await until(() => sends(implementation).length === 1, 'the reply');
    expect(sends(implementation)[0]).toMatchObject({
      action: 'send_private_msg',
      params: { user_id: 77, message: [{ type: 'text', data: { text: 'Hello there.' } }] },
    });
  });

  it('gives an addressed group message with a tool call exactly one reply, quoting it', async () => {
    const { implementation } = await boot();
    model.enqueue(
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
    await until(() => sends(implementation).length === 1 && model.pending() === 0, 'the reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sends(implementation)).toHaveLength(1);
    expect(sends(implementation)[0]?.params).toEqual({
      group_id: GROUP,
      message: [
        { type: 'reply', data: { id: String(event.message_id) } },
        { type: 'text', data: { text: 'It is 42.' } },
      ],
    });
    // The model saw the sender and the text, without her own @-mention.
    const lastUser = (model.chatBodies()[0]!.messages as { role: string; content: unknown }[]).filter(
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
    expect(model.chatBodies()).toHaveLength(0);
    expect(sends(implementation)).toHaveLength(0);
  });

  it('treats a reply to one of her own messages as addressing her', async () => {
    const { implementation } = await boot();
    model.enqueue(textReply('First.'), textReply('Second.'));
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
    expect(JSON.stringify(model.chatBodies()[1])).toContain('and then?');
  });

  it('splits a long reply at the platform limit without breaking words, quoting only in the first piece', async () => {
    const { implementation } = await boot('    maxMessageLength: 120\n');
    const long = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    model.enqueue(textReply(`${long}\n\n${long}`));
    implementation.push(onebotPrivateMessage({ userId: 77, message: 'long please' }));
    await until(() => model.pending() === 0 && sends(implementation).length >= 3, 'the pieces');
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
    model.enqueue(textReply('You will not see this.'));
    implementation.push(onebotPrivateMessage({ userId: 78, message: 'hi' }));
    const history = () =>
      (
        aalis.app.registry.select(memory.name)!.impl as {
          readAll(id: string): Promise<{ role: string; content: string; metadata?: Record<string, unknown> }[]>;
        }
      ).readAll('onebot:private:78');
    let stored: Awaited<ReturnType<typeof history>> = [];
    await until(() => {
      void history().then((messages) => {
        stored = messages;
      });
      return stored.some((message) => message.metadata?.deliveryFailure !== undefined);
    }, 'the failure record');
    const reply = stored.find((message) => message.role === 'assistant');
    const record = stored.find((message) => message.metadata?.deliveryFailure !== undefined);
    expect(reply?.metadata?.turnRecord).toMatchObject({ outcome: 'replied' });
    expect(record).toMatchObject({ role: 'system', metadata: { turnId: reply?.metadata?.turnId } });
    expect(record?.content).toContain('retcode 1200');
    // The next message works.
    model.enqueue(textReply('Now you do.'));
    implementation.push(onebotPrivateMessage({ userId: 78, message: 'again' }));
    await until(() => implementation.sent.length === 1, 'the next reply');
  });

  it('reconnects after the connection drops and answers again', async () => {
    const { implementation, logs } = await boot();
    implementation.dropConnections();
    await implementation.connected(2);
    await until(() => logs().includes('reconnected'), 'the reconnect line');
    expect(logs()).toMatch(/connection lost .* retrying in \d+ ms/);
    model.enqueue(textReply('Back.'));
    implementation.push(onebotPrivateMessage({ userId: 79, message: 'still there?' }));
    await until(() => implementation.sent.length === 1, 'the reply after reconnecting');
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
    model.enqueue(textReply('Got it.'));
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
    expect(JSON.stringify(model.chatBodies()[0])).toContain('look [poke][emoji 14]');
    expect(aalis.app.states().find((state) => state.id === '@aalis/plugin-platform-onebot')?.state).toBe('active');
  });
});
