// plugin-platform-qq through the product (startAalis, the default plugin set) against QQ's bot platform of our own
// (@aalis/testing: the token endpoint, the gateway WebSocket and the v2 message API with its passive-reply rules)
// and the scripted model server: group @ and C2C chats, passive replies, a resumed gateway and a failed send
// survived, malformed events skipped, the AppSecret never logged.
import { type QqBotServer, startQqBotServer, textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const APP_ID = '102030405';
const SECRET = 'qq-app-secret-value';

const fixture = useProductFixture();
const { cleanups } = fixture;

async function boot(extra = '') {
  const qq = await startQqBotServer({ appId: APP_ID, clientSecret: SECRET, heartbeatIntervalMs: 200 });
  cleanups.push(() => qq.close());
  const dir = productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: qq, userId: alice }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  gateway: { trigger: { names: [Aalis] } }
  platform-qq:
    appId: "${APP_ID}"
    clientSecret: ${SECRET}
    tokenUrl: ${qq.tokenUrl}
    apiBase: ${qq.apiBase}
    retryDelayMs: 50
${extra}`,
    'aalis-qq-',
  );
  const running = await startProduct(fixture, dir);
  await qq.waitFor(() => qq.identified() >= 1);
  return { qq, ...running };
}

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });
const messages = (qq: QqBotServer) => qq.sent;

describe('plugin-platform-qq through the product', () => {
  it('answers a C2C message passively (msg_id, msg_seq 1), heartbeats, and never logs the AppSecret or a token', async () => {
    const { qq, logs } = await boot();
    fixture.model.enqueue(textReply('Hello there.'));
    const id = qq.c2c({ userId: 'alice', content: 'hi' });
    await until(() => messages(qq).length === 1, 'the reply');
    expect(messages(qq)[0]).toMatchObject({
      chat: 'user:alice',
      body: { msg_type: 0, content: 'Hello there.', msg_id: id, msg_seq: 1 },
    });
    await until(() => qq.heartbeats() >= 1, 'a heartbeat');
    expect(logs()).toContain('QQ: connected as Aalis (bot-openid)');
    expect(logs()).not.toContain(SECRET);
    expect(logs()).not.toMatch(/token-\d+/);
  });

  it('in a group: silent when not @-ed; an @ with a tool call gives one passive reply; a quote of her addresses her', async () => {
    const { qq } = await boot();
    qq.groupMessage('group-1', { userId: 'bob', content: 'lunch anyone?' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.model.chatBodies()).toHaveLength(0);
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
      textReply('It is 42.'),
    );
    const asked = qq.groupAt('group-1', { userId: 'alice', content: 'what is 6*7?' });
    await until(() => messages(qq).length === 1 && fixture.model.pending() === 0, 'the group reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(messages(qq)).toHaveLength(1);
    expect(messages(qq)[0]).toMatchObject({
      chat: 'group:group-1',
      body: { content: 'It is 42.', msg_id: asked, msg_seq: 1 },
    });
    const request = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(request).toContain('what is 6*7?');
    expect(request).toContain('lunch anyone?');
    fixture.model.enqueue(textReply('Yes, still 42.'));
    qq.groupMessage('group-1', { userId: 'bob', content: 'really?', quoteId: messages(qq)[0]!.id });
    await until(() => messages(qq).length === 2, 'the reply to a quote of hers');
    expect(JSON.stringify(fixture.model.chatBodies().at(-1))).toContain('really?');
  });

  it('splits a long reply into passive replies with growing msg_seq', async () => {
    const { qq } = await boot('    maxMessageLength: 100\n');
    const long = Array.from({ length: 30 }, (_, index) => `Sentence number ${index}.`).join(' ');
    fixture.model.enqueue(textReply(long));
    const id = qq.c2c({ userId: 'alice', content: 'talk a lot' });
    await until(() => messages(qq).length >= 5, 'the pieces');
    const pieces = messages(qq).filter((entry) => entry.body.msg_id === id);
    expect(pieces.map((entry) => entry.body.msg_seq)).toEqual(pieces.map((_, index) => index + 1));
    expect(pieces.every((entry) => String(entry.body.content).length <= 100)).toBe(true);
  });

  it('resumes after a dropped gateway (missed events replayed), follows op 7, survives malformed events and a failed send', async () => {
    const { qq, logs } = await boot();
    qq.raw('not json at all');
    qq.raw(JSON.stringify({ op: 0, s: 0, t: 'C2C_MESSAGE_CREATE', d: { content: 'no id, no author' } }));
    qq.dispatch('SOMETHING_NEW', { hello: 1 });
    fixture.model.enqueue(textReply('Before the drop.'), textReply('Lost.'), textReply('Found.'));
    qq.c2c({ userId: 'alice', content: 'before' });
    await until(() => messages(qq).length === 1, 'the first reply');
    qq.dropSockets();
    qq.failNext('/messages', 500);
    qq.c2c({ userId: 'alice', content: 'while away' });
    await until(() => qq.resumed() >= 1, 'the resume');
    await until(() => JSON.stringify(fixture.model.chatBodies()).includes('while away'), 'the replayed message');
    await until(() => logs().includes('AALIS_QQ_API_FAILED'), 'the failed send');
    qq.askReconnect();
    await until(() => qq.resumed() >= 2, 'the resume after op 7');
    qq.c2c({ userId: 'alice', content: 'again' });
    await until(() => messages(qq).some((entry) => entry.body.content === 'Found.'), 'the next reply');
    expect(logs()).toContain('AALIS_QQ_EVENT_MALFORMED');
    expect(logs()).toContain('AALIS_QQ_EVENT_UNKNOWN');
    expect(qq.identified()).toBe(1);
  });
});
