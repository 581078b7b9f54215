// plugin-platform-satori through the product (startAalis, the default plugin set) against a Satori server of our
// own (@aalis/testing: a real event socket and HTTP API) and the scripted model server: the room behaviour over
// one more protocol, a dropped socket and a failed send survived, malformed events skipped, the token never logged.
import { type SatoriServer, startSatoriServer, textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = 'satori-secret-token';
const BOT = { platform: 'discord', userId: 'bot-1', name: 'Aalis' };

const fixture = useProductFixture();
const { cleanups } = fixture;

async function boot() {
  const satori = await startSatoriServer({ token: TOKEN, logins: [BOT] });
  cleanups.push(() => satori.close());
  const dir = productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: satori, userId: "discord:alice" }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  gateway: { trigger: { names: [Aalis] } }
  platform-satori:
    endpoint: ${satori.endpoint}
    token: ${TOKEN}
    retryDelayMs: 50
    pingIntervalMs: 1000
`,
    'aalis-satori-',
  );
  const running = await startProduct(fixture, dir);
  await satori.waitFor(() => satori.identified() >= 1);
  return { satori, ...running };
}

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });
const sent = (satori: SatoriServer) => satori.calls.filter((call) => call.method === 'message.create');

describe('plugin-platform-satori through the product', () => {
  it('answers a direct message, with her login in the API headers, and never logs the token', async () => {
    const { satori, logs } = await boot();
    fixture.model.enqueue(textReply('Hello <there> & welcome.'));
    satori.message({ channelId: 'dm-alice', direct: true, userId: 'alice', name: 'Alice', content: 'hi' });
    await until(() => sent(satori).length === 1, 'the reply');
    expect(sent(satori)[0]).toMatchObject({
      body: { channel_id: 'dm-alice', content: 'Hello &lt;there&gt; &amp; welcome.' },
      headers: { 'satori-platform': 'discord', 'satori-user-id': 'bot-1' },
    });
    expect(logs()).toContain('Satori: connected; logins discord:bot-1');
    expect(logs()).not.toContain(TOKEN);
  });

  it('in a group: silent when not addressed; an at of her with a tool call gives one quoted reply; a quote of her addresses her', async () => {
    const { satori } = await boot();
    satori.message({ channelId: 'general', userId: 'bob', content: 'lunch anyone?' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.model.chatBodies()).toHaveLength(0);
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
      textReply('It is 42.'),
    );
    satori.message({
      channelId: 'general',
      userId: 'alice',
      content: '<at id="bot-1" name="Aalis"/> what is 6*7?',
      messageId: 'q1',
    });
    await until(() => sent(satori).length === 1 && fixture.model.pending() === 0, 'the group reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent(satori)).toHaveLength(1);
    expect(sent(satori)[0]!.body).toEqual({ channel_id: 'general', content: '<quote id="q1"/>It is 42.' });
    const request = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(request).toContain('what is 6*7?');
    expect(request).toContain('lunch anyone?');
    // Bob quotes her reply: that addresses her, with no at and no name.
    fixture.model.enqueue(textReply('Yes, still 42.'));
    satori.message({ channelId: 'general', userId: 'bob', content: 'really?', quoteId: satori.created[0]!.id });
    await until(() => sent(satori).length === 2, 'the reply to a quote of hers');
    expect(JSON.stringify(fixture.model.chatBodies().at(-1))).toContain('really?');
  });

  it('reconnects after the socket drops, with the last sn so nothing is missed; survives malformed events and a failed send', async () => {
    const { satori, logs } = await boot();
    satori.raw('not json at all');
    satori.raw(JSON.stringify({ op: 0, body: { type: 'message-created' } }));
    fixture.model.enqueue(textReply('Before the drop.'), textReply('Lost.'), textReply('Found.'));
    satori.message({ channelId: 'dm-alice', direct: true, userId: 'alice', content: 'before' });
    await until(() => sent(satori).length === 1, 'the first reply');
    // Said while the socket is down: replayed after the adapter identifies again with the last sn it saw.
    satori.dropSockets();
    satori.failNext('message.create', 500);
    satori.message({ channelId: 'dm-alice', direct: true, userId: 'alice', content: 'while away' });
    await until(() => satori.identified() >= 2, 'the reconnect');
    await until(() => JSON.stringify(fixture.model.chatBodies()).includes('while away'), 'the replayed message');
    await until(() => logs().includes('AALIS_SATORI_API_FAILED'), 'the failed send');
    satori.message({ channelId: 'dm-alice', direct: true, userId: 'alice', content: 'again' });
    await until(() => sent(satori).some((call) => call.body.content === 'Found.'), 'the next reply');
    expect(logs()).toContain('AALIS_SATORI_EVENT_MALFORMED');
  });
});
