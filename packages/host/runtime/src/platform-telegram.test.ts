// plugin-platform-telegram through the product (startAalis, the default plugin set) against a Bot API server of
// our own over real HTTP and the scripted model server: the platform conformance suite, then what is Telegram's own
// on the same product.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mentionEntity, telegramMessage, textReply } from '@aalis/testing';
import { expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver, TELEGRAM_BOT, TELEGRAM_TOKEN, TELEGRAM_USERS } from './platform-telegram-driver.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

const alice = TELEGRAM_USERS.alice;
const bob = TELEGRAM_USERS.bob;

/** Polls with the runtime tests' one helper (spawn-aalis.case.ts). */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

describePlatformConformance(conformanceDriver, (context) => {
  const sentTo = (chatId: number) => context.server.api.sent.filter((message) => message.chat_id === chatId);

  it('logged in with getMe, registered the commands Telegram accepts, never logged the token, read no mention of her', async () => {
    const { api } = context.server;
    await until(() => context.logs().includes(`logged in as @${TELEGRAM_BOT.username}`), 'the login line');
    const registered = api.calls.find((call) => call.method === 'setMyCommands')?.params.commands as {
      command: string;
    }[];
    expect(registered.map((command) => command.command)).toEqual(expect.arrayContaining(['help', 'stop', 'model']));
    for (const command of registered) expect(command.command).toMatch(/^[a-z0-9_]{1,32}$/);
    expect(readFileSync(join(context.dir, 'data', 'logs', 'aalis.log'), 'utf8')).not.toContain(TELEGRAM_TOKEN);
    // The suite's addressed group turn: her @username entity is not part of what the model read.
    const asked = context.model.chatBodies().find((body) => JSON.stringify(body).includes('what is 6*7?'));
    expect(JSON.stringify(asked)).not.toContain(`@${TELEGRAM_BOT.username}`);
  });

  it('answers as Telegram HTML, showing typing meanwhile; plain text when Telegram refuses the markup', async () => {
    const { api } = context.server;
    const before = sentTo(alice.id).length;
    context.model.enqueue(textReply('Hello **there**.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'format please' }) });
    await until(() => sentTo(alice.id).length === before + 1, 'the reply');
    expect(sentTo(alice.id).at(-1)).toMatchObject({ text: 'Hello <b>there</b>.', parse_mode: 'HTML' });
    expect(api.calls.some((call) => call.method === 'sendChatAction' && call.params.action === 'typing')).toBe(true);
    api.refuseHtmlNext();
    context.model.enqueue(textReply('Use **this**.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'again' }) });
    await until(() => sentTo(alice.id).length === before + 2, 'the plain reply');
    expect(sentTo(alice.id).at(-1)).toEqual(expect.objectContaining({ text: 'Use **this**.' }));
    expect(sentTo(alice.id).at(-1)?.parse_mode).toBeUndefined();
  });

  it('waits out a 429 with retry_after and delivers', async () => {
    const { api } = context.server;
    const before = sentTo(bob.id).length;
    api.failNext('sendMessage', { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    context.model.enqueue(textReply('Patience.'));
    api.push({ message: telegramMessage({ chatId: bob.id, from: bob, text: 'quick' }) });
    await until(() => sentTo(bob.id).length === before + 1, 'the reply after the rate limit', 8_000);
    expect(context.logs()).toContain('rate limited on sendMessage; waiting 1 s');
  });

  it('keeps a photo that cannot be fetched as a note, and reads a fetched one as an image', async () => {
    const { api } = context.server;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    api.addFile('good-photo', png);
    const before = sentTo(alice.id).length;
    context.model.enqueue(textReply('Nice.'), textReply('Hm.'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'look', photo: 'good-photo' }) });
    await until(() => sentTo(alice.id).length === before + 1, 'the first reply');
    expect(JSON.stringify(context.model.chatBodies().at(-1))).toContain('data:image/png;base64,');
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'and this', photo: 'missing-photo' }) });
    await until(() => sentTo(alice.id).length === before + 2, 'the second reply');
    expect(JSON.stringify(context.model.chatBodies().at(-1))).toContain('and this [image: could not be fetched]');
  });

  it('keeps the update offset across a restart: nothing answered twice, nothing skipped', async () => {
    const { api } = context.server;
    const carol = { id: 13, first_name: 'Carol' };
    context.model.enqueue(textReply('One.'));
    const first = api.push({ message: telegramMessage({ chatId: carol.id, from: carol, text: 'first' }) });
    await until(() => sentTo(carol.id).length === 1, 'the first reply');
    const calls = context.model.chatBodies().length;
    context.model.enqueue(textReply('Two.'));
    let polls = 0;
    // Said while she is down.
    await context.restart(() => {
      polls = api.calls.length;
      api.push({ message: telegramMessage({ chatId: carol.id, from: carol, text: 'while you were away' }) });
    });
    await until(() => sentTo(carol.id).length === 2, 'the second reply');
    await until(() => context.model.pending() === 0, 'the turn');
    // The restarted poller asked from the kept offset: the first update was confirmed, not fetched again.
    const firstPoll = api.calls.slice(polls).find((call) => call.method === 'getUpdates');
    expect(Number(firstPoll?.params.offset)).toBeGreaterThan(first);
    expect(sentTo(carol.id).map((message) => message.text)).toEqual(['One.', 'Two.']);
    expect(context.model.chatBodies()).toHaveLength(calls + 1);
    expect(JSON.stringify(context.model.chatBodies().at(-1))).toContain('first');
  });

  it('confirms an update only once its message is stored: one that could not be is fetched again and stored once', async () => {
    const { api } = context.server;
    const dave = { id: 14, first_name: 'Dave' };
    const fault = failInputStores(context.aalis);
    context.model.enqueue(textReply('Kept in Telegram.'));
    // From the poll held open now (it fetches the update).
    const polls = Math.max(
      0,
      api.calls.findLastIndex((call) => call.method === 'getUpdates'),
    );
    const id = api.push({ message: telegramMessage({ chatId: dave.id, from: dave, text: 'the store fails once' }) });
    await until(() => sentTo(dave.id).length === 1, 'the reply to dave');
    fault.restore();
    expect(fault.failed()).toBe(1);
    expect(context.logs()).toContain('a message could not be stored; its update is not confirmed');
    // The poll that fetched it and the one after the refused store both asked from at most its id (not confirmed);
    // only then did the offset move past it.
    const offsets = api.calls
      .slice(polls)
      .filter((call) => call.method === 'getUpdates')
      // No offset at all confirms nothing either.
      .map((call) => (call.params.offset === undefined ? 0 : Number(call.params.offset)));
    expect(offsets.filter((offset) => offset <= id).length).toBeGreaterThanOrEqual(2);
    await until(
      () => api.calls.some((call) => call.method === 'getUpdates' && Number(call.params.offset) > id),
      'the offset past the stored update',
    );
    expect(storedInputs(context.aalis, 'the store fails once')).toBe(1);
    expect(sentTo(dave.id).map((message) => message.text)).toEqual(['Kept in Telegram.']);
  });

  it('/stop in a group: refused to someone not in the turn, honoured for the one who started it', async () => {
    const { api, groupId } = context.server;
    const group = groupId('g-stop');
    context.model.enqueue({
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
    const calls = context.model.chatBodies().length;
    const text = `@${TELEGRAM_BOT.username} write a long story`;
    api.push({
      message: telegramMessage({
        chatId: group,
        from: bob,
        text,
        entities: [mentionEntity(text, TELEGRAM_BOT.username)],
      }),
    });
    await until(() => context.model.chatBodies().length === calls + 1, 'the model call');
    const carol = { id: 13, first_name: 'Carol' };
    api.push({
      message: telegramMessage({
        chatId: group,
        from: carol,
        text: `/stop@${TELEGRAM_BOT.username}`,
        entities: [{ type: 'bot_command', offset: 0, length: 20 }],
      }),
    });
    await until(() => sentTo(group).length === 1, 'the refusal');
    expect(sentTo(group)[0]?.text).toContain('Only the people taking part in this turn and the owner can stop it');
    api.push({
      message: telegramMessage({
        chatId: group,
        from: bob,
        text: '/stop',
        entities: [{ type: 'bot_command', offset: 0, length: 5 }],
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    // Stopped before the reply was stored: only the refusal went out.
    expect(sentTo(group).map((message) => message.text)).toEqual([expect.stringContaining('Only the people')]);
  });
});
