// plugin-platform-wecom through the product (startAalis, the default plugin set) against WeCom's side of an
// intelligent bot (@aalis/testing: the URL check, encrypted and signed callbacks, stream refreshes, response_urls,
// encrypted images — its own implementation of the cryptography) and the scripted model server: single and group
// @ chats answered in streams, a late reply through the response_url, bad signatures and malformed callbacks
// refused with coded errors while she keeps answering, the Token and EncodingAESKey never logged.
import { startWecomBotServer, textReply, toolCallReply, type WecomBotServer } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

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

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });
const sent = (wecom: WecomBotServer) => wecom.sent;

describe('plugin-platform-wecom through the product', () => {
  it('passes the URL check, answers a single chat in a stream, never logs the Token or the EncodingAESKey', async () => {
    const { wecom, logs } = await boot();
    const check = await wecom.verifyUrl();
    expect(check).toMatchObject({ status: 200, body: check.echo });
    fixture.model.enqueue(textReply('Hello **there**.'));
    const { msgId, status, streamId } = await wecom.message({ userId: 'alice', text: 'hi' });
    expect(status).toBe(200);
    expect(streamId).toBeTruthy();
    await until(() => sent(wecom).length === 1, 'the stream reply');
    expect(sent(wecom)[0]).toMatchObject({
      via: 'stream',
      chat: 'user:alice',
      answering: msgId,
      text: 'Hello **there**.',
    });
    expect(logs()).not.toContain(wecom.token);
    expect(logs()).not.toContain(wecom.encodingAESKey);
  });

  it('in a group: a message without her @ is context (no stream, no turn); an @ with a tool call gives one reply in its stream; an encrypted image is read', async () => {
    const { wecom } = await boot();
    const context = await wecom.message({ chatId: 'group-1', userId: 'carol', text: 'lunch anyone?', mention: false });
    expect(context).toMatchObject({ status: 200 });
    expect(context.streamId).toBeUndefined();
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
      textReply('It is 42.'),
      textReply('A red dot.'),
    );
    const { msgId } = await wecom.message({ chatId: 'group-1', userId: 'bob', text: 'what is 6*7?' });
    await until(() => sent(wecom).length === 1 && fixture.model.pending() === 1, 'the group reply');
    expect(sent(wecom)).toEqual([expect.objectContaining({ chat: 'group-1', answering: msgId, text: 'It is 42.' })]);
    const request = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(request).toContain('what is 6*7?');
    expect(request).toContain('lunch anyone?');
    expect(fixture.model.chatBodies()).toHaveLength(2);
    expect(request).not.toContain('@Aalis');
    await wecom.message({ userId: 'bob', image: PNG });
    await until(() => sent(wecom).length === 2, 'the image reply');
    expect(JSON.stringify(fixture.model.chatBodies().at(-1))).toContain('data:image/png;base64');
  });

  it('sends a reply that comes after the stream window through the response_url; refuses bad signatures and malformed callbacks and keeps answering', async () => {
    const { wecom, logs } = await boot('    streamWindowMs: 1000\n', { windowMs: 1_000 });
    const late = textReply('Late but here.');
    if (late.type === 'stream') late.headersDelayMs = 1_500;
    fixture.model.enqueue(late, textReply('Still here.'));
    const asked = await wecom.message({ userId: 'alice', text: 'take your time' });
    await until(() => sent(wecom).length === 1, 'the late reply', 15_000);
    expect(sent(wecom)[0]).toMatchObject({ via: 'response_url', answering: asked.msgId, text: 'Late but here.' });
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
