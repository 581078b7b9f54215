// The conformance driver for plugin-platform-qq over the QQ bot platform of @aalis/testing: groups are QQ groups
// (GROUP_AT_MESSAGE_CREATE when she is @-ed, GROUP_MESSAGE_CREATE otherwise), a private chat is a C2C chat, people
// are their openid (the user key itself) with their username. Her passive reply's msg_id is the message it answers;
// in a group that is the quote (a C2C reply token is not shown as one).
import { type QqBotServer, startQqBotServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const QQ_APP_ID = '102030405';
export const QQ_SECRET = 'qq-conformance-app-secret';
const NAMES: Record<ConformanceUser, string> = { alice: 'Alice', bob: 'Bob' };

export interface QqConformanceServer extends ConformanceServer {
  readonly qq: QqBotServer;
}

export const conformanceDriver: PlatformConformanceDriver<QqConformanceServer> = {
  name: 'qq',
  cannot: {
    'owner-request':
      'QQ official bots get no request they answer: a user adding her or a group adding her is reported after the fact (FRIEND_ADD, GROUP_ADD_ROBOT)',
  },
  async start() {
    const qq = await startQqBotServer({ appId: QQ_APP_ID, clientSecret: QQ_SECRET, heartbeatIntervalMs: 500 });
    const chatOf = (chat: string): ConformanceChat =>
      chat.startsWith('user:')
        ? { kind: 'private', user: chat.slice('user:'.length) as ConformanceUser }
        : { kind: 'group', group: chat.slice('group:'.length) };
    return {
      qq,
      section: 'platform-qq',
      settings: () => ({
        appId: QQ_APP_ID,
        clientSecret: QQ_SECRET,
        tokenUrl: qq.tokenUrl,
        apiBase: qq.apiBase,
        retryDelayMs: 20,
      }),
      owner: () => ({ platform: 'qq', userId: 'alice' }),
      account: (user) => user,
      sessionId: (chat) => (chat.kind === 'group' ? `qq:group:${chat.group}` : `qq:private:${chat.user}`),
      connections: () => qq.identified() + qq.resumed(),
      replaysMissedEvents: true,
      async deliver(message) {
        const options = {
          userId: message.from,
          name: NAMES[message.from],
          content: message.text,
          ...(message.replyTo ? { quoteId: message.replyTo } : {}),
        };
        const at = performance.now();
        const id =
          message.chat.kind === 'private'
            ? qq.c2c(options)
            : message.mention
              ? qq.groupAt(message.chat.group, options)
              : qq.groupMessage(message.chat.group, options);
        return { id, at };
      },
      sent: () =>
        qq.sent.map((entry) => {
          const chat = chatOf(entry.chat);
          return {
            id: entry.id,
            chat,
            text: String(entry.body.content ?? entry.body.markdown ?? ''),
            ...(chat.kind === 'group' && typeof entry.body.msg_id === 'string' ? { quote: entry.body.msg_id } : {}),
            at: entry.at,
          };
        }),
      voices: () =>
        qq.sent.flatMap((entry) => {
          const file = qq.files.get(String((entry.body.media as { file_info?: unknown } | undefined)?.file_info));
          return entry.body.msg_type === 7 && file?.fileType === 3 && file.bytes
            ? [{ chat: chatOf(entry.chat), format: 'silk' as const, bytes: file.bytes }]
            : [];
        }),
      dropConnection: () => qq.dropSockets(),
      refuseConnections: (status, times) => qq.failNext('/gateway', status, times),
      failNextSend: (kind) => qq.failNext('/messages', kind === 'refused' ? 403 : 500),
      async sendMalformed() {
        qq.raw('not json at all');
        qq.raw(JSON.stringify({ op: 0, s: 0, t: 'C2C_MESSAGE_CREATE', d: { content: 'no id, no author' } }));
        qq.raw(JSON.stringify({ op: 0, s: 0, t: 'GROUP_AT_MESSAGE_CREATE', d: null }));
        qq.raw(JSON.stringify({ op: 42, d: {} }));
        qq.dispatch('SOMETHING_NEW', { hello: 1 });
        qq.groupMessage('g-malformed', { userId: 'bob', name: 'Bob', content: 'x'.repeat(200_000) });
      },
      malformedCode: 'AALIS_QQ_EVENT_MALFORMED',
      badInputCodes: ['AALIS_QQ_EVENT_MALFORMED', 'AALIS_QQ_EVENT_UNKNOWN', 'AALIS_ROOM_MESSAGE_TOO_LONG'],
      secrets: [QQ_SECRET],
      close: () => qq.close(),
    };
  },
};
