// The conformance driver for plugin-platform-dingtalk over the DingTalk Stream server of @aalis/testing: groups are
// group conversations (isInAtList when she is @-ed), a private chat is the single chat 'dm-<user>', people are their
// userid (the user key itself) with their nick. A reply goes through the session webhook of the message it answers;
// in a group that message is the quote (DingTalk robots cannot quote: they @ the asker).
import { type DingtalkStreamServer, startDingtalkStreamServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const DINGTALK_CLIENT_ID = 'dingconformance';
export const DINGTALK_SECRET = 'dingtalk-conformance-client-secret';
const NAMES: Record<ConformanceUser, string> = { alice: 'Alice', bob: 'Bob' };

export interface DingtalkConformanceServer extends ConformanceServer {
  readonly dingtalk: DingtalkStreamServer;
}

export const conformanceDriver: PlatformConformanceDriver<DingtalkConformanceServer> = {
  name: 'dingtalk',
  cannot: {
    'owner-request': "DingTalk robots have no friends; a group's admins add her, no request she answers",
  },
  async start() {
    const dingtalk = await startDingtalkStreamServer({ clientId: DINGTALK_CLIENT_ID, clientSecret: DINGTALK_SECRET });
    const conversationOf = (chat: ConformanceChat) => (chat.kind === 'group' ? chat.group : `dm-${chat.user}`);
    const chatOf = (chat: string): ConformanceChat =>
      chat.startsWith('dm-')
        ? { kind: 'private', user: chat.slice(3) as ConformanceUser }
        : chat.startsWith('user:')
          ? { kind: 'private', user: chat.slice(5) as ConformanceUser }
          : { kind: 'group', group: chat };
    return {
      dingtalk,
      section: 'platform-dingtalk',
      settings: () => ({
        clientId: DINGTALK_CLIENT_ID,
        clientSecret: DINGTALK_SECRET,
        gatewayUrl: dingtalk.gatewayUrl,
        apiBase: dingtalk.apiBase,
        oapiBase: dingtalk.apiBase,
        retryDelayMs: 20,
        pingIntervalMs: 1000,
      }),
      owner: () => ({ platform: 'dingtalk', userId: 'alice' }),
      account: (user) => user,
      sessionId: (chat) =>
        chat.kind === 'group' ? `dingtalk:group:${chat.group}` : `dingtalk:private:dm-${chat.user}`,
      connections: () => dingtalk.connections(),
      replaysMissedEvents: true,
      async deliver(message) {
        const at = performance.now();
        const id = dingtalk.message({
          conversationId: conversationOf(message.chat),
          single: message.chat.kind === 'private',
          userId: message.from,
          nick: NAMES[message.from],
          text: message.text,
          atHer: message.mention === true,
          ...(message.replyTo ? { replyTo: { msgId: message.replyTo, fromHer: true } } : {}),
        });
        return { id, at };
      },
      sent: () =>
        dingtalk.sent.map((entry) => {
          const chat = chatOf(entry.chat);
          return {
            id: entry.id,
            chat,
            text: entry.text,
            ...(chat.kind === 'group' && entry.answering ? { quote: entry.answering } : {}),
            at: entry.at,
          };
        }),
      voices: () =>
        dingtalk.sent.flatMap((entry) =>
          entry.audio
            ? [
                {
                  chat: chatOf(entry.chat),
                  format: 'ogg-opus' as const,
                  bytes: entry.audio.bytes,
                  durationMs: entry.audio.durationMs,
                },
              ]
            : [],
        ),
      dropConnection: () => dingtalk.dropSockets(),
      refuseConnections: (status, times) => dingtalk.failNext('/gateway/connections/open', status, times),
      failNextSend: (kind) =>
        kind === 'refused'
          ? // DingTalk refuses with an errcode; refused as Markdown, the plain-text retry is refused too.
            dingtalk.failNext('/robot/sendBySession', 200, 2, { errcode: 310000, errmsg: 'robot not allowed here' })
          : dingtalk.failNext('/robot/sendBySession', 500),
      async sendMalformed() {
        dingtalk.raw('not json at all');
        dingtalk.raw(
          JSON.stringify({ specVersion: '1.0', type: 'WHATEVER', headers: { messageId: 'w1' }, data: '{}' }),
        );
        dingtalk.raw(
          JSON.stringify({
            specVersion: '1.0',
            type: 'CALLBACK',
            headers: { messageId: 'bad-1', topic: '/v1.0/im/bot/messages/get' },
            data: JSON.stringify({ msgtype: 'text' }),
          }),
        );
        dingtalk.raw(
          JSON.stringify({
            specVersion: '1.0',
            type: 'CALLBACK',
            headers: { messageId: 'bad-2', topic: '/v1.0/im/bot/messages/get' },
            data: 'not json',
          }),
        );
        dingtalk.message({ conversationId: 'g-malformed', userId: 'bob', nick: 'Bob', text: 'x'.repeat(200_000) });
      },
      malformedCode: 'AALIS_DINGTALK_EVENT_MALFORMED',
      badInputCodes: ['AALIS_DINGTALK_EVENT_MALFORMED', 'AALIS_DINGTALK_EVENT_UNKNOWN', 'AALIS_ROOM_MESSAGE_TOO_LONG'],
      secrets: [DINGTALK_SECRET],
      close: () => dingtalk.close(),
    };
  },
};
