// plugin-platform-lark through the product (startAalis, the default plugin set) against a Feishu/Lark server of our
// own (@aalis/testing: the OpenAPI over real HTTP, the long connection's protobuf frames over a real WebSocket) and
// the scripted model server: the platform conformance suite, then what is Feishu/Lark's own on the same product.
import { platform } from '@aalis/api-platform';
import { startLarkServer, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver, LARK_APP_ID, LARK_APP_SECRET, larkText } from './platform-lark-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

describePlatformConformance(conformanceDriver, (context) => {
  it('reads a rich-text post with an @ of her, answers with a post whose Markdown element holds the reply, and acknowledges the frames', async () => {
    const { server, model } = context;
    const { lark } = server;
    model.enqueue(textReply('**Sure**: see [the docs](https://example.com).'));
    const sent = lark.message({
      chatId: 'oc_larkpost',
      chatType: 'group',
      openId: 'ou_bob0000000001',
      messageType: 'post',
      content: {
        title: 'Question',
        content: [
          [
            { tag: 'at', user_id: '@_user_1', user_name: 'Aalis' },
            { tag: 'text', text: ' where are ' },
            { tag: 'a', text: 'the docs', href: 'https://example.com' },
          ],
        ],
      },
      mentions: [{ key: '@_user_1', openId: lark.bot.openId, name: 'Aalis' }],
    });
    const reply = await context.reply({ kind: 'group', group: 'larkpost' }, 'Sure');
    const message = lark.sent.find((entry) => entry.messageId === reply.id)!;
    expect(message).toMatchObject({ msgType: 'post', parentId: sent.messageId });
    expect(larkText(message.msgType, message.content)).toBe('**Sure**: see [the docs](https://example.com).');
    const request = JSON.stringify(model.chatBodies().at(-1));
    expect(request).toContain('Question');
    expect(request).toContain('where are the docs (https://example.com)');
    await lark.waitFor(() => lark.acks.length > 0);
    expect(lark.acks.every((ack) => ack.code === 200)).toBe(true);
  });

  it('answers an event 200 only once its input is stored; one answered 500 is stored once when delivered again', async () => {
    const { server, model } = context;
    const { lark } = server;
    const fault = failInputStores(context.aalis);
    model.enqueue(textReply('Kept in Lark.'));
    lark.message({
      chatId: 'oc_larkfault',
      chatType: 'group',
      openId: 'ou_bob0000000001',
      content: { text: '@_user_1 the store fails once' },
      mentions: [{ key: '@_user_1', openId: lark.bot.openId, name: 'Aalis' }],
    });
    await lark.waitFor(() => lark.acks.find((ack) => ack.code === 500));
    fault.restore();
    expect(fault.failed()).toBe(1);
    const waiting = lark.redeliver();
    expect(waiting).toHaveLength(1);
    await context.reply({ kind: 'group', group: 'larkfault' }, 'Kept in Lark.');
    await lark.waitFor(() => lark.acks.find((ack) => ack.eventId === waiting[0] && ack.code === 200));
    expect(lark.acks.filter((ack) => ack.eventId === waiting[0]).map((ack) => ack.code)).toEqual([500, 200]);
    expect(storedInputs(context.aalis, 'the store fails once')).toBe(1);
  });

  it('after a restart, a reply to one of her earlier messages still addresses her (whose it is, asked of the API)', async () => {
    const { server, model } = context;
    const { lark } = server;
    model.enqueue(textReply('Before the restart.'));
    lark.message({
      chatId: 'oc_larkrestart',
      chatType: 'group',
      openId: 'ou_alice00000001',
      content: { text: '@_user_1 hello' },
      mentions: [{ key: '@_user_1', openId: lark.bot.openId, name: 'Aalis' }],
    });
    const hers = await context.reply({ kind: 'group', group: 'larkrestart' }, 'Before the restart.');
    await context.restart();
    model.enqueue(textReply('After the restart.'));
    lark.message({
      chatId: 'oc_larkrestart',
      chatType: 'group',
      openId: 'ou_bob0000000001',
      content: { text: 'really?' },
      parentId: hers.id,
    });
    await context.reply({ kind: 'group', group: 'larkrestart' }, 'After the restart.');
    expect(
      lark.calls.some((call) => call.method === 'GET' && call.path === `/open-apis/im/v1/messages/${hers.id}`),
    ).toBe(true);
  });

  it('sends plain text when the rich form is refused, and waits out a rate limit (x-ogw-ratelimit-reset)', async () => {
    const { server, model } = context;
    const { lark } = server;
    lark.rateLimitNext('im.message.create', 1, 1);
    lark.refuseNext('im.message.create', 230001, 'invalid content');
    model.enqueue(textReply('Plain after all.'));
    lark.message({ chatId: 'oc_p2p_carol', chatType: 'p2p', openId: 'ou_carol', content: { text: 'hello' } });
    await lark.waitFor(() => lark.sent.find((entry) => entry.chatId === 'oc_p2p_carol'));
    const message = lark.sent.find((entry) => entry.chatId === 'oc_p2p_carol')!;
    expect(message.msgType).toBe('text');
    expect(JSON.parse(message.content)).toEqual({ text: 'Plain after all.' });
    const creates = lark.calls.filter((call) => call.path.startsWith('/open-apis/im/v1/messages?'));
    expect(creates.length).toBeGreaterThanOrEqual(3);
  });
});

const fixture = useProductFixture();

describe('Feishu/Lark with a refused app secret', () => {
  it('logs AALIS_LARK_CREDENTIALS_REJECTED, shows refused in its live state, and never logs the secret', async () => {
    const lark = await startLarkServer({ appId: LARK_APP_ID, appSecret: LARK_APP_SECRET });
    fixture.cleanups.push(() => lark.close());
    const wrong = 'wrongLarkAppSecret9876543210';
    const dir = productWorkspace(
      fixture,
      `locale: en
logLevel: debug
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false }
  platform-lark: { appId: ${LARK_APP_ID}, appSecret: ${wrong}, domain: "${lark.domain}" }
`,
    );
    const host = await startProduct(fixture, dir);
    const state = () =>
      host.aalis.app.services
        .selected(platform)
        ?.impl.states()
        .find((entry) => entry.id === 'lark');
    await waitFor(() => state()?.status === 'refused', { what: 'the refused state', timeoutMs: 10_000 });
    expect(state()).toMatchObject({
      configKey: 'plugins.platform-lark.appSecret',
      error: { code: 'AALIS_LARK_CREDENTIALS_REJECTED' },
    });
    expect(host.logs()).toContain('AALIS_LARK_CREDENTIALS_REJECTED');
    expect(host.logs()).not.toContain(wrong);
    expect(lark.connections()).toBe(0);
  });
});
