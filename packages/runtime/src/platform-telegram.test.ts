// plugin-platform-telegram through the product (startAalis, the default plugin set) against a Bot API server of
// our own over real HTTP and the scripted model server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BotApiServer,
  mentionEntity,
  startBotApiServer,
  telegramMessage,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = '123456:telegram-secret-token';
const BOT = { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
const GROUP = -100500;
const alice = { id: 11, first_name: 'Alice', username: 'alice' };
const bob = { id: 12, first_name: 'Bob' };

const fixture = useProductFixture();
const { cleanups } = fixture;

async function workspace(api: BotApiServer): Promise<string> {
  return productWorkspace(
    fixture,
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: telegram, userId: "11" }]
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, modelDefaults: { vision: true } }
  memory-summary: false
  platform-telegram:
    token: "${TOKEN}"
    apiRoot: ${api.url}
    pollTimeoutSeconds: 1
    retryDelayMs: 50
`,
    'aalis-telegram-',
  );
}

function start(dir: string) {
  return startProduct(fixture, dir);
}

async function boot() {
  const api = await startBotApiServer({ token: TOKEN, me: BOT });
  cleanups.push(() => api.close());
  const dir = await workspace(api);
  const running = await start(dir);
  await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'));
  return { api, ...running };
}

/** Polls with the runtime tests' one helper (spawn-aalis.case.ts). */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

describe('plugin-platform-telegram through the product', () => {
  it('logs in with getMe, registers the commands Telegram accepts, and never logs the token', async () => {
    const { api, logs, dir } = await boot();
    await until(() => logs().includes('logged in as @aalis_test_bot'), 'the login line');
    const registered = api.calls.find((call) => call.method === 'setMyCommands')?.params.commands as {
      command: string;
    }[];
    expect(registered.map((command) => command.command)).toEqual(expect.arrayContaining(['help', 'stop', 'model']));
    for (const command of registered) expect(command.command).toMatch(/^[a-z0-9_]{1,32}$/);
    expect(logs()).not.toContain('telegram-secret-token');
    expect(readFileSync(join(dir, 'data', 'logs', 'aalis.log'), 'utf8')).not.toContain('telegram-secret-token');
  });

  it('answers a private message, as Telegram HTML', async () => {
    const { api } = await boot();
    fixture.model.enqueue(textReply('Hello **there**.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'hi' }) });
    await until(() => api.sent.length === 1, 'the reply');
    expect(api.sent[0]).toMatchObject({ chat_id: alice.id, text: 'Hello <b>there</b>.', parse_mode: 'HTML' });
    expect(api.calls.some((call) => call.method === 'sendChatAction' && call.params.action === 'typing')).toBe(true);
  });

  it('gives a group message mentioning her, with a tool call, exactly one reply that quotes it', async () => {
    const { api } = await boot();
    fixture.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
      textReply('It is 42.'),
    );
    const text = '@aalis_test_bot what is 6*7?';
    const message = telegramMessage({
      chatId: GROUP,
      from: alice,
      text,
      entities: [mentionEntity(text, 'aalis_test_bot')],
    });
    api.push({ message });
    await until(() => api.sent.length === 1 && fixture.model.pending() === 0, 'the reply');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.sent).toHaveLength(1);
    expect(api.sent[0]).toMatchObject({ chat_id: GROUP, text: 'It is 42.', reply_to: message.message_id });
    const firstRequest = JSON.stringify(fixture.model.chatBodies()[0]);
    expect(firstRequest).toContain('what is 6*7?');
    expect(firstRequest).not.toContain('@aalis_test_bot');
  });

  it('opens no turn for a group message that does not address her', async () => {
    const { api } = await boot();
    api.push({ message: telegramMessage({ chatId: GROUP, from: bob, text: 'lunch anyone?' }) });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fixture.model.chatBodies()).toHaveLength(0);
    expect(api.sent).toHaveLength(0);
  });

  it('treats a reply to her message as addressing her', async () => {
    const { api } = await boot();
    fixture.model.enqueue(textReply('First.'), textReply('Second.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'one' }) });
    await until(() => api.sent.length === 1, 'her first reply');
    const hers = api.sent[0]!;
    api.push({
      message: telegramMessage({
        chatId: GROUP,
        from: bob,
        text: 'and then?',
        replyTo: {
          message_id: hers.message_id,
          from: { id: BOT.id, is_bot: true, first_name: 'Aalis' },
          chat: { id: GROUP },
        },
      }),
    });
    await until(() => api.sent.length === 2, 'her second reply');
    expect(JSON.stringify(fixture.model.chatBodies()[1])).toContain('and then?');
  });

  it('sends plain text when Telegram refuses the markup', async () => {
    const { api } = await boot();
    api.refuseHtmlNext();
    fixture.model.enqueue(textReply('Use **this**.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'hi' }) });
    await until(() => api.sent.length === 1, 'the reply');
    expect(api.sent[0]).toEqual(expect.objectContaining({ text: 'Use **this**.' }));
    expect(api.sent[0]?.parse_mode).toBeUndefined();
  });

  it('waits out a 429 with retry_after and delivers', async () => {
    const { api, logs } = await boot();
    api.failNext('sendMessage', { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    fixture.model.enqueue(textReply('Patience.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'hi' }) });
    await until(() => api.sent.length === 1, 'the reply after the rate limit', 8_000);
    expect(logs()).toContain('rate limited on sendMessage; waiting 1 s');
  });

  it('keeps the update offset across a restart: nothing answered twice, nothing skipped', async () => {
    const api = await startBotApiServer({ token: TOKEN, me: BOT });
    cleanups.push(() => api.close());
    const dir = await workspace(api);
    const first = await start(dir);
    fixture.model.enqueue(textReply('One.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'first' }) });
    await until(() => api.sent.length === 1, 'the first reply');
    await first.stop();
    // Arrives while she is down.
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'while you were away' }) });
    fixture.model.enqueue(textReply('Two.'));
    await start(dir);
    await until(() => api.sent.length === 2, 'the second reply');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(api.sent.map((message) => message.text)).toEqual(['One.', 'Two.']);
    expect(fixture.model.chatBodies()).toHaveLength(2);
    // The second turn's history holds the first exchange (history survived the restart).
    expect(JSON.stringify(fixture.model.chatBodies()[1])).toContain('first');
  });

  it('keeps a photo that cannot be fetched as a note, and reads a fetched one as an image', async () => {
    const { api } = await boot();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    api.addFile('good-photo', png);
    fixture.model.enqueue(textReply('Nice.'), textReply('Hm.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'look', photo: 'good-photo' }) });
    await until(() => api.sent.length === 1, 'the first reply');
    expect(JSON.stringify(fixture.model.chatBodies()[0])).toContain('data:image/png;base64,');
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'and this', photo: 'missing-photo' }) });
    await until(() => api.sent.length === 2, 'the second reply');
    expect(JSON.stringify(fixture.model.chatBodies()[1])).toContain('and this [image: could not be fetched]');
  });

  it('records a failed send with the turn id, and keeps polling after the Bot API server failed', async () => {
    const { api, aalis } = await boot();
    api.failNext('sendMessage', { status: 403, description: 'Forbidden: bot was blocked by the user' });
    fixture.model.enqueue(textReply('Blocked anyway.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'hi' }) });
    const { memory } = await import('@aalis/api-memory');
    const store = aalis.app.services.selected(memory)!.impl;
    let history: Awaited<ReturnType<typeof store.readAll>> = [];
    await until(async () => {
      history = await store.readAll(`telegram:private:${alice.id}`);
      return history.some((message) => message.kind === 'delivery-failure');
    }, 'the failure record');
    const reply = history.find((message) => message.role === 'assistant');
    expect(reply?.metadata?.turnRecord).toMatchObject({ outcome: 'replied' });
    expect(history.find((message) => message.kind === 'delivery-failure')).toMatchObject({
      metadata: { turnId: reply?.metadata?.turnId, deliveryFailure: { code: 'AALIS_TELEGRAM_API_FAILED' } },
    });
    // The server fails the next polls; the poller waits and carries on.
    api.failNext('getUpdates', { status: 502, description: 'Bad Gateway' }, 3);
    await api.waitForCalls((calls) => calls.filter((call) => call.method === 'getUpdates').length >= 6);
    fixture.model.enqueue(textReply('Back.'));
    api.push({ message: telegramMessage({ chatId: bob.id, from: bob, text: 'anyone?' }) });
    await until(() => api.sent.some((message) => message.text === 'Back.'), 'the reply after the failed polls');
  });

  it('ignores updates it does not handle and malformed ones without a crash', async () => {
    const { api, aalis } = await boot();
    api.push({ edited_message: { message_id: 1, chat: { id: 1, type: 'private' } } });
    api.push({ message: { message_id: 2 } });
    api.push({ message: { message_id: 3, chat: { id: -5, type: 'channel' }, from: alice, text: 'channel post' } });
    api.push({ callback_query: { id: 'x' } });
    fixture.model.enqueue(textReply('Fine.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'still fine?' }) });
    await until(() => api.sent.length === 1, 'the reply');
    expect(fixture.model.chatBodies()).toHaveLength(1);
    expect(aalis.app.states().find((state) => state.id === '@aalis/plugin-platform-telegram')?.state).toBe('active');
  });

  it('/stop in a group: refused to someone not in the turn, honoured for the one who started it', async () => {
    const { api } = await boot();
    fixture.model.enqueue({
      type: 'stream',
      steps: [
        { role: 'assistant' },
        { text: 'Thinking' },
        { flush: true },
        { delayMs: 3_000 },
        { text: ' more.' },
        { finish: 'stop' },
        { done: true },
      ],
    });
    const text = '@aalis_test_bot write a long story';
    api.push({
      message: telegramMessage({ chatId: GROUP, from: bob, text, entities: [mentionEntity(text, 'aalis_test_bot')] }),
    });
    await until(() => fixture.model.chatBodies().length === 1, 'the model call');
    const carol = { id: 13, first_name: 'Carol' };
    api.push({
      message: telegramMessage({
        chatId: GROUP,
        from: carol,
        text: '/stop@aalis_test_bot',
        entities: [{ type: 'bot_command', offset: 0, length: 20 }],
      }),
    });
    await until(() => api.sent.length === 1, 'the refusal');
    expect(api.sent[0]?.text).toContain('Only the people taking part in this turn and the owner can stop it');
    api.push({
      message: telegramMessage({
        chatId: GROUP,
        from: bob,
        text: '/stop',
        entities: [{ type: 'bot_command', offset: 0, length: 5 }],
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    // Stopped before the reply was stored: only the refusal went out.
    expect(api.sent.map((message) => message.text)).toEqual([expect.stringContaining('Only the people')]);
  });
});
