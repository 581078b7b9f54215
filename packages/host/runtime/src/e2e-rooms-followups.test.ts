import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type OneBotCall,
  onebotPrivateMessage,
  startBotApiServer,
  startOneBotImplementation,
  startOpenAiTestServer,
  textReply,
} from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AalisProcess, serverConfig, serveWorkspace, waitFor } from './spawn-aalis.case.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serveIn = (config: string): AalisProcess => serveWorkspace(config, cleanups);

async function botApi(token: string) {
  const api = await startBotApiServer({ token, me: { id: 7101, username: 'aalis_test_bot', first_name: 'Aalis' } });
  cleanups.push(() => api.close());
  return api;
}

function telegramConfig(token: string, url: string, extra = ''): string {
  return `locale: en
plugins:
  memory-summary: false
  platform-telegram: { token: "${token}", apiRoot: ${url}, pollTimeoutSeconds: 1${extra} }
`;
}

const ann = { id: 51, is_bot: false, first_name: 'Ann' };

describe('Telegram /start through aalis serve', () => {
  it('/start, /start <deep-link payload> and /start@her_bot in a group reach her as a greeting, never AALIS_COMMAND_UNKNOWN', async () => {
    const api = await botApi('81:start');
    serveIn(telegramConfig('81:start', api.url));
    await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'), 30_000);
    const privateChat = { id: 51, type: 'private', first_name: 'Ann' };
    api.push({
      message: {
        message_id: 1,
        date: 1,
        chat: privateChat,
        from: ann,
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    const first = await waitFor(() => api.sent[0], { timeoutMs: 30_000, what: 'the answer to /start' });
    expect(first.text).not.toContain('AALIS_COMMAND_UNKNOWN');
    // The offline demo model repeats what it was given: an ordinary input.
    expect(first.text).toContain('You said: "[started the conversation]"');
    api.push({
      message: {
        message_id: 2,
        date: 2,
        chat: privateChat,
        from: ann,
        text: '/start ref_42-x',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    const second = await waitFor(() => api.sent[1], { timeoutMs: 30_000, what: 'the answer to /start ref_42-x' });
    expect(second.text).toContain('You said: "[started the conversation] ref_42-x"');
    const group = { id: -1005, type: 'supergroup', title: 'Friends' };
    api.push({
      message: {
        message_id: 3,
        date: 3,
        chat: group,
        from: ann,
        text: '/start@aalis_test_bot',
        entities: [{ type: 'bot_command', offset: 0, length: 21 }],
      },
    });
    const third = await waitFor(() => api.sent[2], { timeoutMs: 30_000, what: 'the answer to /start@aalis_test_bot' });
    expect(third.chat_id).toBe(-1005);
    expect(third.reply_to).toBe(3);
    expect(third.text).toContain('You said: "[started the conversation]"');
    // Her other commands are still commands.
    api.push({
      message: {
        message_id: 4,
        date: 4,
        chat: group,
        from: ann,
        text: '/stop@aalis_test_bot',
        entities: [{ type: 'bot_command', offset: 0, length: 20 }],
      },
    });
    const stop = await waitFor(() => api.sent[3], { timeoutMs: 30_000, what: 'the answer to /stop' });
    expect(stop.text).toBe('No turn is running');
  }, 120_000);
});

describe('Telegram forum topics through aalis serve', () => {
  it('each topic of a forum supergroup is its own session; replies and typing carry its message_thread_id', async () => {
    const model = await startOpenAiTestServer({ models: ['test-model'] });
    cleanups.push(() => model.close());
    model.enqueue(textReply('Trips answer'), textReply('Food answer'), textReply('General answer'));
    const api = await botApi('82:topics');
    serveIn(
      serverConfig(
        model.url,
        `  memory-summary: false
  platform-telegram: { token: "82:topics", apiRoot: ${api.url}, pollTimeoutSeconds: 1 }
`,
      ),
    );
    await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'), 30_000);
    const forum = { id: -1006, type: 'supergroup', title: 'Club', is_forum: true };
    // A topic's messages that quote nothing reply to the service message that created the topic.
    const topicRoot = (id: number, name: string) => ({
      message_id: id,
      date: 1,
      chat: forum,
      from: { id: 52, is_bot: false, first_name: 'Bo' },
      message_thread_id: id,
      forum_topic_created: { name, icon_color: 7322096 },
      is_topic_message: true,
    });
    const inTopic = (messageId: number, topic: number, name: string, text: string, entities?: unknown[]) => ({
      message: {
        message_id: messageId,
        date: 2,
        chat: forum,
        from: ann,
        text,
        ...(entities ? { entities } : {}),
        message_thread_id: topic,
        is_topic_message: true,
        reply_to_message: topicRoot(topic, name),
      },
    });
    const mention = [{ type: 'mention', offset: 0, length: 15 }];
    api.push(inTopic(101, 77, 'Trips', 'the plan for Lisbon is secret'));
    api.push(inTopic(102, 77, 'Trips', '@aalis_test_bot where do we go?', mention));
    const trips = await waitFor(() => api.calls.find((call) => call.method === 'sendMessage'), {
      timeoutMs: 30_000,
      what: 'the reply in the Trips topic',
    });
    expect(trips.params).toMatchObject({ chat_id: -1006, message_thread_id: 77, text: 'Trips answer' });
    expect(trips.params.reply_parameters).toMatchObject({ message_id: 102 });
    const typing = api.calls.filter((call) => call.method === 'sendChatAction');
    expect(typing.length).toBeGreaterThan(0);
    expect(typing[0]!.params).toMatchObject({ chat_id: -1006, message_thread_id: 77, action: 'typing' });

    api.push(inTopic(201, 88, 'Food', '@aalis_test_bot what is for dinner?', mention));
    const food = await waitFor(() => api.calls.filter((call) => call.method === 'sendMessage')[1], {
      timeoutMs: 30_000,
      what: 'the reply in the Food topic',
    });
    expect(food.params).toMatchObject({ chat_id: -1006, message_thread_id: 88, text: 'Food answer' });
    // The Food topic's turn did not see the Trips topic's conversation: another session.
    const bodies = model.chatBodies().map((body) => JSON.stringify(body));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toContain('the plan for Lisbon is secret');
    expect(bodies[1]).toContain('what is for dinner?');
    expect(bodies[1]).not.toContain('Lisbon');
    expect(bodies[1]).not.toContain('where do we go?');

    // General (no thread id) is the group's own room, answered without message_thread_id.
    api.push({
      message: { message_id: 301, date: 3, chat: forum, from: ann, text: '@aalis_test_bot hello', entities: mention },
    });
    const general = await waitFor(() => api.calls.filter((call) => call.method === 'sendMessage')[2], {
      timeoutMs: 30_000,
      what: 'the reply in General',
    });
    expect(general.params).toMatchObject({ chat_id: -1006, text: 'General answer' });
    expect(general.params).not.toHaveProperty('message_thread_id');
    expect(JSON.stringify(model.chatBodies()[2])).not.toContain('dinner');
  }, 120_000);
});

describe('Telegram with a refused token through aalis serve', () => {
  const refusalLines = (log: string) =>
    log.split('\n').filter((line) => /refused the bot token|getMe failed|getUpdates failed/.test(line));
  /** The pauses between tries grow: the last one is more than twice the first. */
  const gapsGrow = (times: number[]) => {
    const gaps = times.slice(1).map((at, index) => at - times[index]!);
    return gaps.length >= 2 && gaps.at(-1)! > 2 * gaps[0]!;
  };

  it('a 401 from getMe is one coded error naming plugins.platform-telegram.token, then tried again at doubling pauses without a line each time', async () => {
    // A Bot API server that knows no token: every call is 401 Unauthorized, as api.telegram.org answers a revoked one.
    const asked: number[] = [];
    const server = createServer((request, response) => {
      request.resume();
      if (/\/getMe$/.test(request.url ?? '')) asked.push(Date.now());
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error_code: 401, description: 'Unauthorized' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const serve = serveIn(telegramConfig('83:wrong-token-4711', url, ', retryDelayMs: 50'));
    await waitFor(() => asked.length > 0, { timeoutMs: 30_000, what: 'the first getMe' });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const log = serve.stderr();
    expect(log).toContain('AALIS_TELEGRAM_TOKEN_REJECTED');
    expect(log).toContain('plugins.platform-telegram.token');
    expect(log).not.toContain('wrong-token-4711');
    expect(refusalLines(log)).toHaveLength(1);
    // 50, 100, 200, 400, 800 ms … apart: a handful of tries in two seconds (every 50 ms would be about 40).
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.length).toBeLessThanOrEqual(8);
    expect(gapsGrow(asked)).toBe(true);
  }, 90_000);

  it('a token refused while polling (getUpdates 401) is said once and polled again at doubling pauses', async () => {
    const api = await botApi('84:revoked');
    api.failNext('getUpdates', { status: 401, description: 'Unauthorized' }, 1_000);
    const serve = serveIn(telegramConfig('84:revoked', api.url, ', retryDelayMs: 50'));
    await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const polls = api.calls.filter((call) => call.method === 'getUpdates').map((call) => call.at);
    expect(serve.stderr()).toContain('AALIS_TELEGRAM_TOKEN_REJECTED');
    expect(refusalLines(serve.stderr())).toHaveLength(1);
    expect(polls.length).toBeLessThanOrEqual(8);
    expect(gapsGrow(polls)).toBe(true);
  }, 90_000);
});

describe('OneBot temporary group chats through aalis serve', () => {
  it('a private message from a group (sub_type group) is answered with send_private_msg carrying that group_id; a friend’s without', async () => {
    const onebot = await startOneBotImplementation({ selfId: 30_101 });
    cleanups.push(() => onebot.close());
    serveIn(`locale: en
plugins:
  memory-summary: false
  platform-onebot: { url: "${onebot.url}" }
`);
    await onebot.connected();
    await onebot.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'), 30_000);
    // NapCat and Shamrock put the source group in the event, go-cqhttp in sender.group_id.
    onebot.push({
      ...onebotPrivateMessage({
        selfId: 30_101,
        userId: 40_001,
        message: [{ type: 'text', data: { text: 'hi from the group' } }],
      }),
      sub_type: 'group',
      group_id: 50_001,
    });
    const first = await onebot.waitForCalls(
      (calls) => calls.some((call) => call.action === 'send_private_msg'),
      30_000,
    );
    expect(first.find((call) => call.action === 'send_private_msg')!.params).toMatchObject({
      user_id: 40_001,
      group_id: 50_001,
    });
    const cqhttp = onebotPrivateMessage({
      selfId: 30_101,
      userId: 40_002,
      message: [{ type: 'text', data: { text: 'hello' } }],
    });
    onebot.push({ ...cqhttp, sub_type: 'group', sender: { ...(cqhttp.sender as object), group_id: 50_002 } });
    onebot.push(
      onebotPrivateMessage({ selfId: 30_101, userId: 40_003, message: [{ type: 'text', data: { text: 'a friend' } }] }),
    );
    const sends = (calls: OneBotCall[]) => calls.filter((call) => call.action === 'send_private_msg');
    const all = await onebot.waitForCalls((calls) => sends(calls).length >= 3, 30_000);
    const byUser = new Map(sends(all).map((call) => [call.params.user_id, call.params]));
    expect(byUser.get(40_002)).toMatchObject({ group_id: 50_002 });
    expect(byUser.get(40_003)).not.toHaveProperty('group_id');
  }, 90_000);
});
