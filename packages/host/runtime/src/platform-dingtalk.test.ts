// plugin-platform-dingtalk through the product (startAalis, the default plugin set) against DingTalk's Stream mode
// and robot APIs of our own (@aalis/testing: the connection-open endpoint, the Stream socket with its
// acknowledgements and pings, session webhooks, tokens and the robot API) and the scripted model server: the
// platform conformance suite, then what is DingTalk's own on the same product.
import { textReply } from '@aalis/testing';
import { expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-dingtalk-driver.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describePlatformConformance(conformanceDriver, (context) => {
  it('answers in Markdown through the session webhook, acknowledges each callback, answers pings, reads a redelivery once', async () => {
    const { server, model } = context;
    const dingtalk = server.dingtalk;
    const acknowledged = dingtalk.acknowledged().length;
    model.enqueue(textReply('**Hello** Carol.'));
    const asked = dingtalk.message({
      conversationId: 'dm-carol',
      single: true,
      userId: 'carol',
      nick: 'Carol',
      text: 'hello-once',
      msgId: 'carol-1',
    });
    await until(() => dingtalk.sent.some((entry) => entry.text === '**Hello** Carol.'), 'the reply to carol');
    expect(dingtalk.sent.find((entry) => entry.text === '**Hello** Carol.')).toMatchObject({
      via: 'webhook',
      chat: 'dm-carol',
      answering: asked,
      msgtype: 'markdown',
      title: 'Hello Carol.',
    });
    expect(dingtalk.acknowledged().length).toBeGreaterThan(acknowledged);
    // DingTalk delivers a message again when it missed the acknowledgement: read once.
    dingtalk.message({
      conversationId: 'dm-carol',
      single: true,
      userId: 'carol',
      nick: 'Carol',
      text: 'hello-once',
      msgId: 'carol-1',
    });
    dingtalk.systemPing('{"opaque":"x1"}');
    await until(() => dingtalk.pingAnswers().includes('{"opaque":"x1"}'), 'the ping answer');
    model.enqueue(textReply('Once.'));
    dingtalk.message({ conversationId: 'dm-carol', single: true, userId: 'carol', nick: 'Carol', text: 'and now?' });
    await until(() => dingtalk.sent.some((entry) => entry.text === 'Once.'), 'the next reply to carol');
    expect(JSON.stringify(model.chatBodies().at(-1)).split('hello-once')).toHaveLength(2);
  });

  it('acknowledges a callback only once its input is stored; one left unacknowledged is stored once when redelivered', async () => {
    const { server, model } = context;
    const dingtalk = server.dingtalk;
    const fault = failInputStores(context.aalis);
    model.enqueue(textReply('Kept in DingTalk.'));
    dingtalk.message({
      conversationId: 'dm-dave',
      single: true,
      userId: 'dave',
      nick: 'Dave',
      text: 'the store fails once',
    });
    await until(() => context.logs().includes('DingTalk: a message could not be stored'), 'the refused store');
    fault.restore();
    expect(fault.failed()).toBe(1);
    const waiting = dingtalk.unacknowledged();
    expect(waiting).toHaveLength(1);
    expect(dingtalk.redeliver()).toEqual(waiting);
    await until(() => dingtalk.sent.some((entry) => entry.text === 'Kept in DingTalk.'), 'the reply to dave');
    await until(() => dingtalk.acknowledged().includes(waiting[0]!), 'the redelivery acknowledged');
    expect(storedInputs(context.aalis, 'the store fails once')).toBe(1);
    expect(dingtalk.sent.filter((entry) => entry.text === 'Kept in DingTalk.')).toHaveLength(1);
  });

  it('sends through the robot API once the session webhook expired, in plain text when Markdown is refused; reads a picture', async () => {
    const { server, model } = context;
    const dingtalk = server.dingtalk;
    model.enqueue(textReply('Through the API.'), textReply('A plain answer.'));
    dingtalk.message({ conversationId: 'dm-dave', single: true, userId: 'dave', picture: PNG, webhookExpired: true });
    await until(() => dingtalk.sent.some((entry) => entry.text === 'Through the API.'), 'the API reply');
    expect(dingtalk.sent.find((entry) => entry.text === 'Through the API.')).toMatchObject({
      via: 'api',
      chat: 'user:dave',
      msgtype: 'markdown',
    });
    expect(JSON.stringify(model.chatBodies().at(-1))).toContain('data:image/png;base64');
    dingtalk.failNext('/robot/sendBySession', 200, 1, { errcode: 40035, errmsg: 'markdown not allowed' });
    dingtalk.message({ conversationId: 'dm-dave', single: true, userId: 'dave', text: 'and in words?' });
    await until(() => dingtalk.sent.some((entry) => entry.text === 'A plain answer.'), 'the plain-text reply');
    expect(dingtalk.sent.find((entry) => entry.text === 'A plain answer.')).toMatchObject({
      via: 'webhook',
      msgtype: 'text',
    });
  });
});
