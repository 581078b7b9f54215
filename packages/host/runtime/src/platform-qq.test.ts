// plugin-platform-qq through the product (startAalis, the default plugin set) against QQ's bot platform of our own
// (@aalis/testing: the token endpoint, the gateway WebSocket and the v2 message API with its passive-reply rules)
// and the scripted model server: the platform conformance suite, then what is QQ's own on the same product, and a
// split reply on a product of its own (another maxMessageLength).
import { startQqBotServer, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-qq-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

describePlatformConformance(conformanceDriver, (context) => {
  it('answers passively (msg_id, msg_seq 1), heartbeats, follows op 7 with a resume, logs unknown events with a code', async () => {
    const { server, model } = context;
    model.enqueue(textReply('Hello Carol.'));
    const id = server.qq.c2c({ userId: 'carol', name: 'Carol', content: 'hi' });
    await until(() => server.qq.sent.some((entry) => entry.body.content === 'Hello Carol.'), 'the reply to carol');
    expect(server.qq.sent.find((entry) => entry.body.content === 'Hello Carol.')).toMatchObject({
      chat: 'user:carol',
      body: { msg_type: 0, msg_id: id, msg_seq: 1 },
    });
    expect(server.qq.heartbeats()).toBeGreaterThan(0);
    const resumed = server.qq.resumed();
    server.qq.askReconnect();
    await until(() => server.qq.resumed() > resumed, 'the resume after op 7');
    expect(context.logs()).toContain('QQ: connected as Aalis (bot-openid)');
    expect(context.logs()).toContain('AALIS_QQ_EVENT_UNKNOWN');
  });
});

describe('plugin-platform-qq: a long reply', () => {
  const fixture = useProductFixture();
  it('is split into passive replies to the same message with growing msg_seq', async () => {
    const qq = await startQqBotServer({ appId: '1', clientSecret: 'secret-of-one', heartbeatIntervalMs: 500 });
    fixture.cleanups.push(() => qq.close());
    const dir = productWorkspace(
      fixture,
      `locale: en
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-qq: { appId: "1", clientSecret: secret-of-one, tokenUrl: "${qq.tokenUrl}", apiBase: "${qq.apiBase}", maxMessageLength: 100 }
`,
      'aalis-qq-',
    );
    await startProduct(fixture, dir);
    await qq.waitFor(() => qq.identified() >= 1);
    const long = Array.from({ length: 30 }, (_, index) => `Sentence number ${index}.`).join(' ');
    fixture.model.enqueue(textReply(long));
    const id = qq.c2c({ userId: 'alice', content: 'talk a lot' });
    await until(() => qq.sent.length >= 5, 'the pieces');
    const pieces = qq.sent.filter((entry) => entry.body.msg_id === id);
    expect(pieces.map((entry) => entry.body.msg_seq)).toEqual(pieces.map((_, index) => index + 1));
    expect(pieces.every((entry) => String(entry.body.content).length <= 100)).toBe(true);
  });
});

describe('plugin-platform-qq: webhook mode', () => {
  const fixture = useProductFixture();
  it('passes the URL check, answers signed events once stored (503 when not: redelivered, stored once), refuses unsigned, malformed and oversized callbacks', async () => {
    const qq = await startQqBotServer({ appId: '2', clientSecret: 'webhook-secret-of-two' });
    fixture.cleanups.push(() => qq.close());
    const dir = productWorkspace(
      fixture,
      `locale: en
consoleLogLevel: info
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-qq: { appId: "2", clientSecret: webhook-secret-of-two, tokenUrl: "${qq.tokenUrl}", apiBase: "${qq.apiBase}", mode: webhook, webhook: { port: 0 } }
`,
      'aalis-qq-webhook-',
    );
    const { logs, aalis } = await startProduct(fixture, dir);
    const listening = /listening for webhook callbacks on (\S+)/;
    await until(() => listening.test(logs()), 'the webhook server');
    qq.useWebhook(listening.exec(logs())![1]!);
    expect(await qq.checkWebhook()).toBe(true);
    fixture.model.enqueue(textReply('Hello by webhook.'), textReply('Still here.'));
    const id = qq.c2c({ userId: 'alice', content: 'hi' });
    await until(() => qq.sent.length === 1, 'the reply');
    expect(qq.sent[0]).toMatchObject({
      chat: 'user:alice',
      body: { content: 'Hello by webhook.', msg_id: id, msg_seq: 1 },
    });
    expect(qq.webhookStatuses()).toEqual([200]);
    const forged = JSON.stringify({ op: 0, s: 9, t: 'C2C_MESSAGE_CREATE', d: { id: 'forged', content: 'hi' } });
    expect(await qq.postWebhook(forged, { 'x-signature-timestamp': '1', 'x-signature-ed25519': '0'.repeat(128) })).toBe(
      401,
    );
    expect(await qq.postWebhook('not json')).toBe(400);
    expect(await qq.postWebhook('x'.repeat(2 * 1024 * 1024))).toBe(413);
    qq.c2c({ userId: 'alice', content: 'still there?' });
    await until(() => qq.sent.some((entry) => entry.body.content === 'Still here.'), 'the next reply');
    // Acknowledged only once stored: the store failing once is answered 503; QQ's redelivery is stored once.
    const fault = failInputStores(aalis);
    fixture.model.enqueue(textReply('Stored after all.'));
    const answered = qq.webhookStatuses().length;
    qq.c2c({ userId: 'alice', content: 'the store fails once' });
    await until(
      () => qq.sent.some((entry) => entry.body.content === 'Stored after all.'),
      'the redelivered event answered',
    );
    fault.restore();
    expect(fault.failed()).toBe(1);
    expect(qq.webhookStatuses().slice(answered)).toEqual([503, 200]);
    expect(storedInputs(aalis, 'the store fails once')).toBe(1);
    expect(qq.sent.filter((entry) => entry.body.content === 'Stored after all.')).toHaveLength(1);
    for (const code of ['AALIS_QQ_SIGNATURE_INVALID', 'AALIS_QQ_EVENT_MALFORMED', 'AALIS_QQ_MESSAGE_TOO_LARGE']) {
      expect(logs()).toContain(code);
    }
    expect(logs()).not.toContain('webhook-secret-of-two');
  });
});
