// The conformance driver for plugin-platform-telegram over the Bot API server of @aalis/testing: each group is a
// supergroup with a negative id, a private chat the person's own id; a dropped connection is a held long poll cut,
// a refused one a poll answered 5xx.
import { type BotApiServer, mentionEntity, startBotApiServer, telegramMessage } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const TELEGRAM_TOKEN = '123456:telegram-secret-token';
export const TELEGRAM_BOT = { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
export const TELEGRAM_USERS: Record<ConformanceUser, { id: number; first_name: string; username?: string }> = {
  alice: { id: 11, first_name: 'Alice', username: 'alice' },
  bob: { id: 12, first_name: 'Bob' },
};

export interface TelegramConformanceServer extends ConformanceServer {
  readonly api: BotApiServer;
  /** The chat id of a group key. */
  groupId(group: string): number;
}

/** Telegram's HTML as the reader sees it. */
const readable = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

export const conformanceDriver: PlatformConformanceDriver<TelegramConformanceServer> = {
  name: 'telegram',
  async start() {
    const api = await startBotApiServer({ token: TELEGRAM_TOKEN, me: TELEGRAM_BOT });
    const groups = new Map<string, number>();
    const groupId = (group: string) => {
      let id = groups.get(group);
      if (id === undefined) {
        id = -100_500 - groups.size;
        groups.set(group, id);
      }
      return id;
    };
    const chatIdOf = (chat: ConformanceChat) =>
      chat.kind === 'group' ? groupId(chat.group) : TELEGRAM_USERS[chat.user].id;
    const chatOf = (chatId: number): ConformanceChat => {
      for (const [group, id] of groups) if (id === chatId) return { kind: 'group', group };
      for (const user of ['alice', 'bob'] as const) {
        if (TELEGRAM_USERS[user].id === chatId) return { kind: 'private', user };
      }
      return { kind: 'group', group: `chat:${chatId}` };
    };
    return {
      api,
      groupId,
      section: 'platform-telegram',
      settings: () => ({ token: TELEGRAM_TOKEN, apiRoot: api.url, pollTimeoutSeconds: 1, retryDelayMs: 20 }),
      owner: () => ({ platform: 'telegram', userId: String(TELEGRAM_USERS.alice.id) }),
      account: (user) => String(TELEGRAM_USERS[user].id),
      sessionId: (chat) => `telegram:${chat.kind}:${chatIdOf(chat)}`,
      // A start (getMe), and each poll that follows a failed or cut one.
      connections: () =>
        api.calls.filter(
          (call, index, calls) =>
            call.method === 'getMe' ||
            (call.method === 'getUpdates' &&
              !call.failed &&
              calls.slice(0, index).findLast((before) => before.method === 'getUpdates')?.failed === true),
        ).length,
      replaysMissedEvents: true,
      async deliver(message) {
        const from = TELEGRAM_USERS[message.from];
        const chatId = chatIdOf(message.chat);
        const text = message.mention ? `@${TELEGRAM_BOT.username} ${message.text}` : message.text;
        const wire = telegramMessage({
          chatId,
          from,
          text,
          ...(message.mention ? { entities: [mentionEntity(text, TELEGRAM_BOT.username)] } : {}),
          ...(message.replyTo
            ? {
                replyTo: {
                  message_id: Number(message.replyTo),
                  from: { id: TELEGRAM_BOT.id, is_bot: true, first_name: TELEGRAM_BOT.first_name },
                  chat: { id: chatId },
                },
              }
            : {}),
        });
        const at = performance.now();
        api.push({ message: wire });
        return { id: String(wire.message_id), at };
      },
      sent: () =>
        api.sent.map((sent) => ({
          id: String(sent.message_id),
          chat: chatOf(sent.chat_id),
          text: sent.parse_mode === 'HTML' ? readable(sent.text) : sent.text,
          ...(sent.reply_to !== undefined ? { quote: String(sent.reply_to) } : {}),
          at: sent.at,
        })),
      voices: () =>
        api.calls.flatMap((call) => {
          const voice = call.params.voice as { bytes?: Buffer } | undefined;
          return call.method === 'sendVoice' && !call.failed && voice?.bytes
            ? [{ chat: chatOf(Number(call.params.chat_id)), format: 'ogg-opus' as const, bytes: voice.bytes }]
            : [];
        }),
      dropConnection: () => api.dropPolls(),
      refuseConnections: (status, times) => api.failNext('getUpdates', { status, description: 'Bad Gateway' }, times),
      failNextSend: (kind) =>
        api.failNext(
          'sendMessage',
          kind === 'refused'
            ? { status: 403, description: 'Forbidden: bot was blocked by the user' }
            : { status: 500, description: 'Internal Server Error' },
        ),
      async sendMalformed() {
        api.push({ message: { message_id: 2 } });
        api.push({ message: { message_id: 3, chat: { id: -5 }, text: 'no sender' } });
        api.push({ something_new: { id: 1 } });
        api.push({
          message: telegramMessage({
            chatId: groupId('g-malformed'),
            from: TELEGRAM_USERS.bob,
            text: 'x'.repeat(200_000),
          }),
        });
      },
      malformedCode: 'AALIS_TELEGRAM_UPDATE_MALFORMED',
      secrets: [TELEGRAM_TOKEN],
      // Telegram has no friend requests; its counterpart is being added to a group (my_chat_member), and the
      // answer that shows on the wire is a refusal: she leaves the group (leaveChat).
      ownerRequest: {
        tool: 'telegram_invitation_answer',
        approve: false,
        async send(key) {
          api.push({
            my_chat_member: {
              chat: { id: groupId(`invite-${key}`), type: 'supergroup', title: `Invitation ${key}` },
              from: TELEGRAM_USERS.bob,
              date: Math.floor(Date.now() / 1000),
              old_chat_member: { status: 'left', user: TELEGRAM_BOT },
              new_chat_member: { status: 'member', user: TELEGRAM_BOT },
            },
          });
        },
        settled: (key) =>
          api.calls.some((call) => call.method === 'leaveChat' && call.params.chat_id === groupId(`invite-${key}`)),
      },
      close: () => api.close(),
    };
  },
};
