// plugin-platform-wecom through the product (startAalis, the default plugin set) against WeCom's side of an
// intelligent bot (@aalis/testing: the URL check, encrypted and signed callbacks, stream refreshes, response_urls,
// encrypted images — its own implementation of the cryptography) and the scripted model server: the platform
// conformance suite (the cases WeCom's protocol cannot take part in skipped with the reason), then what is WeCom's own
// on the same product: a stream only for what addresses her, encrypted images, the URL check; and with a short stream
// window of its own, late replies through the response_url (a refused one recorded), bad input refused with coded
// errors while she keeps answering.
import { VOICE_REPLY_SETTING } from '@aalis/api-media';
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import { startWecomBotServer, textReply, type WecomBotServer } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-wecom-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });
const sent = (wecom: WecomBotServer) => wecom.sent;

describePlatformConformance(conformanceDriver, (context) => {
  it('passes the URL check; a group message without her @ gets no stream and no turn; reads an encrypted image', async () => {
    const { wecom } = context.server;
    const check = await wecom.verifyUrl();
    expect(check).toMatchObject({ status: 200, body: check.echo });
    const calls = context.model.chatBodies().length;
    const aside = await wecom.message({ chatId: 'wrk-aside', userId: 'bob', text: 'just chatting', mention: false });
    expect(aside).toMatchObject({ status: 200 });
    expect(aside.streamId).toBeUndefined();
    context.model.enqueue(textReply('A red dot.'));
    const picture = await wecom.message({ userId: 'bob', image: PNG });
    expect(picture.streamId).toBeTruthy();
    await context.reply({ kind: 'private', user: 'bob' }, 'A red dot.');
    expect(context.model.chatBodies()).toHaveLength(calls + 1);
    const request = JSON.stringify(context.model.chatBodies().at(-1));
    expect(request).toContain('data:image/png;base64');
    expect(request).not.toContain('just chatting');
  });

  it('answers a callback only once its input is stored: 503 when the store fails, the redelivery stored once', async () => {
    const { wecom } = context.server;
    const fault = failInputStores(context.aalis);
    context.model.enqueue(textReply('Kept after all.'));
    const answer = await wecom.message({ userId: 'alice', text: 'the store fails once' });
    fault.restore();
    expect(fault.failed()).toBe(1);
    expect(answer.statuses).toEqual([503, 200]);
    expect(answer.streamId).toBeTruthy();
    await context.reply({ kind: 'private', user: 'alice' }, 'Kept after all.');
    expect(storedInputs(context.aalis, 'the store fails once')).toBe(1);
  });

  it('answers a group command in its message’s own stream; a message kept as context (muted) stops showing her thinking', async () => {
    const { wecom } = context.server;
    const chatId = 'wrk-commands';
    const before = wecom.sent.length;
    const mute = await wecom.message({ chatId, userId: 'alice', text: '/mute' });
    await until(
      () => wecom.sent.slice(before).some((s) => s.answering === mute.msgId && s.text.includes('keep quiet')),
      'the mute reply, answering /mute',
    );
    const calls = context.model.chatBodies().length;
    const muted = await wecom.message({ chatId, userId: 'bob', text: 'anyone there?' });
    expect(muted.streamId).toBeTruthy();
    // Within half of WeCom's 10 s window here: closed by her, not by the window running out.
    await until(() => wecom.openStreams() === 0, 'the kept message’s stream closed', 5_000);
    expect(context.model.chatBodies()).toHaveLength(calls);
    expect(wecom.sent.slice(before).map((s) => s.text)).toEqual([expect.stringContaining('keep quiet')]);
    const unmute = await wecom.message({ chatId, userId: 'alice', text: '/unmute' });
    await until(
      () => wecom.sent.some((s) => s.answering === unmute.msgId && s.text.includes('mute is lifted')),
      'the unmute reply, answering /unmute',
    );
  });

  it('with voiceReply on, answers in text and asks the speech server for nothing (no voice message on WeCom)', async () => {
    const chat = { kind: 'private', user: 'alice' } as const;
    await context.aalis.app.services.selected(sessionFields)!.impl.set({
      layer: 'session',
      target: context.server.sessionId(chat),
      key: VOICE_REPLY_SETTING,
      value: true,
      caller: { via: 'host' },
    });
    const spoken = context.speech.requests.length;
    context.model.enqueue(textReply('Only words here.'));
    await context.server.deliver({ chat, from: 'alice', text: 'say it aloud' });
    await context.reply(chat, 'Only words here.');
    expect(context.speech.requests).toHaveLength(spoken);
  });
});

const fixture = useProductFixture();
const { cleanups } = fixture;

async function boot(extra = '', server: { windowMs?: number } = {}) {
  const wecom = await startWecomBotServer({ pollMs: 30, ...server });
  cleanups.push(() => wecom.close());
  const dir = productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: wecom, userId: alice }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, modelDefaults: { vision: true } }
  memory-summary: false
  platform-wecom:
    token: ${wecom.token}
    encodingAESKey: ${wecom.encodingAESKey}
    port: 0
${extra}`,
    'aalis-wecom-',
  );
  const running = await startProduct(fixture, dir);
  const address = await waitFor(() => /listening for callbacks on (\S+)/.exec(running.logs())?.[1] !== undefined, {
    what: 'the callback server',
    timeoutMs: 10_000,
  }).then(() => /listening for callbacks on (\S+)/.exec(running.logs())?.[1] as string);
  wecom.setCallback(address);
  return { wecom, ...running };
}

describe('plugin-platform-wecom with a short stream window', () => {
  it('sends replies that come after the stream window through the response_url (a refused one recorded with its turn); refuses bad signatures and malformed callbacks and keeps answering', async () => {
    const { wecom, logs, aalis } = await boot('    streamWindowMs: 1000\n', { windowMs: 1_000 });
    // Two late replies at once, the first response_url call refused: one is delivered, the other recorded.
    const late = () => {
      const reply = textReply('Late reply.');
      if (reply.type === 'stream') reply.headersDelayMs = 1_500;
      return reply;
    };
    fixture.model.enqueue(late(), late(), textReply('Still here.'));
    wecom.failNextResponseUrl(200, 600039);
    const asked = await Promise.all([
      wecom.message({ userId: 'alice', text: 'take your time' }),
      wecom.message({ userId: 'bob', text: 'me too' }),
    ]);
    const history = (user: string) =>
      aalis.app.services.selected(memory)!.impl.readAll(`wecom:private:${user}`) as Promise<
        { role: string; metadata?: Record<string, unknown> }[]
      >;
    const failed = async () => {
      const records = await Promise.all(['alice', 'bob'].map(history));
      return records.map((messages) => messages.filter((message) => message.metadata?.deliveryFailure !== undefined));
    };
    await until(
      async () => sent(wecom).length === 1 && (await failed()).flat().length === 1,
      'one late reply delivered, one recorded',
      15_000,
    );
    const delivered = sent(wecom)[0]!;
    expect(delivered).toMatchObject({ via: 'response_url', text: 'Late reply.' });
    expect(asked.map((entry) => entry.msgId)).toContain(delivered.answering);
    const other = delivered.chat === 'user:alice' ? 'bob' : 'alice';
    const record = (await failed())[other === 'alice' ? 0 : 1]![0]!;
    const answer = (await history(other)).find((message) => message.role === 'assistant');
    expect(record.metadata?.turnId).toBe(answer?.metadata?.turnId);
    expect(logs()).toContain('AALIS_WECOM_SEND_FAILED');

    const sealed = wecom.seal(JSON.stringify({ msgid: 'x1', msgtype: 'text', from: { userid: 'alice' } }));
    expect(await wecom.post(sealed.body, { ...sealed.query, msg_signature: 'f'.repeat(40) })).toBe(403);
    expect(await wecom.post('not json', sealed.query)).toBe(400);
    const unknown = wecom.seal(JSON.stringify({ msgid: 'x2', msgtype: 'hologram', from: { userid: 'alice' } }));
    expect(await wecom.post(unknown.body, unknown.query)).toBe(200);
    const missing = wecom.seal(JSON.stringify({ msgid: 'x3', msgtype: 'text', from: { userid: 'alice' } }));
    expect(await wecom.post(missing.body, missing.query)).toBe(200);
    expect(await wecom.post('x'.repeat(2 * 1024 * 1024), sealed.query)).toBe(413);
    await wecom.message({ userId: 'alice', text: 'still there?' });
    await until(() => sent(wecom).some((entry) => entry.text === 'Still here.'), 'the next reply');
    for (const code of [
      'AALIS_WECOM_SIGNATURE_INVALID',
      'AALIS_WECOM_EVENT_MALFORMED',
      'AALIS_WECOM_EVENT_UNKNOWN',
      'AALIS_WECOM_BODY_TOO_LARGE',
    ]) {
      expect(logs()).toContain(code);
    }
  });
});
