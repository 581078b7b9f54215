// The conformance driver for plugin-platform-lark over the Feishu/Lark server of @aalis/testing (the OpenAPI and the
// long connection's protobuf frames): groups are chats 'oc_<group>', a private chat is the p2p chat 'oc_p2p_<user>';
// a mention is an @_user_1 placeholder with her open_id in `mentions`; a reply to her message carries its parent_id.
// Her quote of a message is the reply API (parentId).
import { type LarkServer, startLarkServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const LARK_APP_ID = 'cli_a1b2c3d4e5f60718';
export const LARK_APP_SECRET = 'conformanceLarkAppSecret0123456789';
const USERS: Record<ConformanceUser, string> = { alice: 'ou_alice00000001', bob: 'ou_bob0000000001' };

/** What a reader sees of her message: the post's or card's Markdown, or the text. */
export function larkText(msgType: string, content: string): string {
  const parsed = JSON.parse(content);
  if (msgType === 'post') {
    const post = parsed.zh_cn ?? parsed.en_us ?? Object.values(parsed)[0];
    return (post.content as { text?: string }[][])
      .map((line) => line.map((element) => element.text ?? '').join(''))
      .join('\n');
  }
  if (msgType === 'interactive') {
    return (parsed.body?.elements ?? []).map((element: { content?: string }) => element.content ?? '').join('\n');
  }
  return String(parsed.text ?? '');
}

export interface LarkConformanceServer extends ConformanceServer {
  readonly lark: LarkServer;
  chatOf(chat: ConformanceChat): string;
}

export const conformanceDriver: PlatformConformanceDriver<LarkConformanceServer> = {
  name: 'lark',
  cannot: {
    'owner-request':
      'Lark bots have no friends; a member adds her to a group (an event after the fact, not a request she answers)',
  },
  async start() {
    const lark = await startLarkServer({
      appId: LARK_APP_ID,
      appSecret: LARK_APP_SECRET,
      users: { [USERS.alice]: 'Alice', [USERS.bob]: 'Bob' },
    });
    const chatIdOf = (chat: ConformanceChat) => (chat.kind === 'group' ? `oc_${chat.group}` : `oc_p2p_${chat.user}`);
    const chatOf = (chatId: string): ConformanceChat =>
      chatId.startsWith('oc_p2p_')
        ? { kind: 'private', user: chatId.slice('oc_p2p_'.length) as ConformanceUser }
        : { kind: 'group', group: chatId.slice('oc_'.length) };
    return {
      lark,
      chatOf: chatIdOf,
      section: 'platform-lark',
      settings: () => ({
        appId: LARK_APP_ID,
        appSecret: LARK_APP_SECRET,
        domain: lark.domain,
        pingTimeoutSeconds: 1,
        handshakeTimeoutMs: 2_000,
        maxRateLimitRetries: 1,
      }),
      owner: () => ({ platform: 'lark', userId: USERS.alice }),
      account: (user) => USERS[user],
      sessionId: (chat) => `lark:${chat.kind}:${chatIdOf(chat)}`,
      connections: () => lark.connections(),
      replaysMissedEvents: true,
      async deliver(message) {
        const sent = lark.message({
          chatId: chatIdOf(message.chat),
          chatType: message.chat.kind === 'group' ? 'group' : 'p2p',
          openId: USERS[message.from],
          content: { text: `${message.mention ? '@_user_1 ' : ''}${message.text}` },
          ...(message.mention ? { mentions: [{ key: '@_user_1', openId: lark.bot.openId, name: lark.bot.name }] } : {}),
          ...(message.replyTo ? { parentId: message.replyTo } : {}),
        });
        return { id: sent.messageId, at: sent.sentAt };
      },
      sent: () =>
        lark.sent.map((sent) => ({
          id: sent.messageId,
          chat: chatOf(sent.chatId),
          text: larkText(sent.msgType, sent.content),
          ...(sent.parentId ? { quote: sent.parentId } : {}),
          at: sent.at,
        })),
      voices: () =>
        lark.sent
          .filter((sent) => sent.msgType === 'audio')
          .map((sent) => {
            const file = lark.files.get(String(JSON.parse(sent.content).file_key));
            return {
              chat: chatOf(sent.chatId),
              format: 'ogg-opus' as const,
              bytes: file?.bytes ?? Buffer.alloc(0),
              // Her upload gives the duration (Lark shows it); -1 when it did not, which the suite refuses.
              durationMs: file?.durationMs ?? -1,
            };
          }),
      dropConnection: () => lark.dropSockets(),
      refuseConnections: (status, times) => lark.refuseConnections(status, times),
      failNextSend: (kind) =>
        kind === 'refused'
          ? lark.refuseNext('im.message.*', 230002, 'The bot is not in the chat.')
          : lark.failNext('im.message.*', 500),
      async sendMalformed() {
        lark.raw(new TextEncoder().encode('not a protobuf frame at all'));
        lark.event({ schema: '2.0', header: { event_id: 'ev-odd', event_type: 'brand.new.event_v1' }, event: {} });
        lark.event({
          schema: '2.0',
          header: { event_id: 'ev-missing', event_type: 'im.message.receive_v1' },
          event: { message: { chat_id: 'oc_malformed' } },
        });
        lark.message({
          chatId: 'oc_malformed',
          chatType: 'group',
          openId: USERS.bob,
          messageType: 'post',
          content: { title: 'no content' },
        });
        lark.message({
          chatId: 'oc_malformed',
          chatType: 'group',
          openId: USERS.bob,
          content: { text: 'x'.repeat(200_000) },
        });
      },
      malformedCode: 'AALIS_LARK_EVENT_MALFORMED',
      secrets: [LARK_APP_SECRET],
      close: () => lark.close(),
    };
  },
};
