// plugin-platform-dingtalk through the product (startAalis, the default plugin set) against DingTalk's Stream mode
// and robot APIs of our own (@aalis/testing: the connection-open endpoint, the Stream socket with its
// acknowledgements and pings, session webhooks, tokens and the robot API) and the scripted model server: single and
// group @ chats, webhook and API replies, a dropped socket and a failed send survived, malformed frames skipped, the
// Client Secret never logged.
import { type DingtalkStreamServer, startDingtalkStreamServer, textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const CLIENT_ID = 'dingabcdefg';
const SECRET = 'dingtalk-client-secret-value';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const fixture = useProductFixture();
const { cleanups } = fixture;

async function boot(extra = '') {
  const dingtalk = await startDingtalkStreamServer({ clientId: CLIENT_ID, clientSecret: SECRET });
  cleanups.push(() => dingtalk.close());
  const dir = productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: dingtalk, userId: alice }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, modelDefaults: { vision: true } }
  memory-summary: false
  gateway: { trigger: { names: [Aalis] } }
  platform-dingtalk:
    clientId: ${CLIENT_ID}
    clientSecret: ${SECRET}
    gatewayUrl: ${dingtalk.gatewayUrl}
    apiBase: ${dingtalk.apiBase}
    retryDelayMs: 50
    pingIntervalMs: 1000
${extra}`,
    'aalis-dingtalk-',
  );
  const running = await startProduct(fixture, dir);
  await dingtalk.waitFor(() => dingtalk.connections() >= 1);
  return { dingtalk, ...running };
}

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });
const sent = (dingtalk: DingtalkStreamServer) => dingtalk.sent;

describe('plugin-platform-dingtalk through the product', () => {
  it('answers a single chat through its session webhook in Markdown, acknowledges the callback, answers pings, never logs the secret', async () => {
    const { dingtalk, logs } = await boot();
    fixture.model.enqueue(textReply('**Hello** there.'));
    const asked = dingtalk.message({
      conversationId: 'cid-alice',
      single: true,
      userId: 'alice',
      nick: 'Alice',
      text: 'hi',
    });
    await until(() => sent(dingtalk).length === 1, 'the reply');
    expect(sent(dingtalk)[0]).toEqual({
      via: 'webhook',
      chat: 'cid-alice',
      answering: asked,
      msgtype: 'markdown',
      title: 'Hello there.',
      text: '**Hello** there.',
    });
    expect(dingtalk.acknowledged()).toHaveLength(1);
    dingtalk.systemPing('{"opaque":"x1"}');
    await until(() => dingtalk.pingAnswers().includes('{"opaque":"x1"}'), 'the ping answer');
    expect(logs()).toContain('DingTalk: connected');
    expect(logs()).not.toContain(SECRET);
  });

  it('in a group: silent when not @-ed; an @ with a tool call gives one reply @-ing the asker; a reply to her addresses her', async () => {
    const { dingtalk } = await boot();
    dingtalk.message({ conversationId: 'cid-group', userId: 'bob', text: 'lunch anyone?' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.model.chatBodies()).toHaveLength(0);
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
      textReply('It is 42.'),
    );
    const asked = dingtalk.message({
      conversationId: 'cid-group',
      userId: 'alice',
      text: ' what is 6*7?',
      atHer: true,
    });
    await until(() => sent(dingtalk).length === 1 && fixture.model.pending() === 0, 'the group reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent(dingtalk)).toHaveLength(1);
    expect(sent(dingtalk)[0]).toMatchObject({
      chat: 'cid-group',
      answering: asked,
      text: '@alice It is 42.',
      atUserIds: ['alice'],
    });
    const request = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(request).toContain('what is 6*7?');
    expect(request).toContain('lunch anyone?');
    fixture.model.enqueue(textReply('Yes, still 42.'));
    dingtalk.message({
      conversationId: 'cid-group',
      userId: 'bob',
      text: 'really?',
      replyTo: { msgId: 'x', fromHer: true },
    });
    await until(() => sent(dingtalk).length === 2, 'the reply to a reply to her');
    expect(JSON.stringify(fixture.model.chatBodies().at(-1))).toContain('really?');
  });

  it('sends through the robot API once the session webhook has expired, in plain text when Markdown is off; reads a picture', async () => {
    const { dingtalk } = await boot('    markdown: false\n');
    fixture.model.enqueue(textReply('Through the API.'), textReply('A group answer.'));
    dingtalk.message({
      conversationId: 'cid-carol',
      single: true,
      userId: 'carol',
      picture: PNG,
      webhookExpired: true,
    });
    await until(() => sent(dingtalk).length === 1, 'the API reply');
    expect(sent(dingtalk)[0]).toEqual({ via: 'api', chat: 'user:carol', msgtype: 'text', text: 'Through the API.' });
    expect(JSON.stringify(fixture.model.chatBodies()[0])).toContain('data:image/png;base64');
    dingtalk.message({ conversationId: 'cid-g2', userId: 'carol', text: 'Aalis, hi', webhookExpired: true });
    await until(() => sent(dingtalk).length === 2, 'the group API reply');
    expect(sent(dingtalk)[1]).toMatchObject({ via: 'api', chat: 'cid-g2', text: 'A group answer.' });
  });

  it('reconnects after the socket drops (unacknowledged messages delivered again, read once); survives malformed frames and a failed send', async () => {
    const { dingtalk, logs } = await boot();
    dingtalk.raw('not json at all');
    dingtalk.raw(JSON.stringify({ specVersion: '1.0', type: 'WHATEVER', headers: { messageId: 'w1' }, data: '{}' }));
    dingtalk.raw(
      JSON.stringify({
        specVersion: '1.0',
        type: 'CALLBACK',
        headers: { messageId: 'bad-1', topic: '/v1.0/im/bot/messages/get' },
        data: JSON.stringify({ msgtype: 'text' }),
      }),
    );
    fixture.model.enqueue(textReply('Before the drop.'), textReply('Lost.'), textReply('Found.'));
    dingtalk.message({ conversationId: 'cid-alice', single: true, userId: 'alice', text: 'before' });
    await until(() => sent(dingtalk).length === 1, 'the first reply');
    dingtalk.dropSockets();
    dingtalk.failNext('/robot/sendBySession', 500);
    dingtalk.message({ conversationId: 'cid-alice', single: true, userId: 'alice', text: 'while away' });
    await until(() => dingtalk.connections() >= 2, 'the reconnect');
    await until(() => JSON.stringify(fixture.model.chatBodies()).includes('while away'), 'the message sent while away');
    await until(() => logs().includes('AALIS_DINGTALK_API_FAILED'), 'the failed send');
    dingtalk.message({ conversationId: 'cid-alice', single: true, userId: 'alice', text: 'again' });
    await until(() => sent(dingtalk).some((entry) => entry.text === 'Found.'), 'the next reply');
    expect(logs()).toContain('AALIS_DINGTALK_EVENT_MALFORMED');
    expect(logs()).toContain('AALIS_DINGTALK_EVENT_UNKNOWN');
    expect(fixture.model.chatBodies().filter((body) => JSON.stringify(body).includes('while away'))).toHaveLength(2);
  });
});
