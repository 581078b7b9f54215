// The conformance driver for plugin-platform-onebot over the OneBot v11 implementation of @aalis/testing (forward
// WebSocket): groups are QQ groups, a private chat the person's QQ number. OneBot keeps no events for a host that is
// away, so nothing said during a drop reaches her.
import {
  type OneBotImplementation,
  onebotFriendRequest,
  onebotGroupMessage,
  onebotPrivateMessage,
  startOneBotImplementation,
} from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const ONEBOT_TOKEN = 'onebot-secret-token';
export const ONEBOT_SELF = 10_000;
export const ONEBOT_USERS: Record<ConformanceUser, { id: number; nickname: string }> = {
  alice: { id: 42, nickname: 'Alice' },
  bob: { id: 43, nickname: 'Bob' },
};

export interface OneBotConformanceServer extends ConformanceServer {
  readonly implementation: OneBotImplementation;
  groupId(group: string): number;
}

type Segment = { type: string; data: Record<string, unknown> };

export const conformanceDriver: PlatformConformanceDriver<OneBotConformanceServer> = {
  name: 'onebot',
  async start() {
    const implementation = await startOneBotImplementation({ selfId: ONEBOT_SELF, accessToken: ONEBOT_TOKEN });
    const groups = new Map<string, number>();
    const groupId = (group: string) => {
      let id = groups.get(group);
      if (id === undefined) {
        id = 555_000 + groups.size;
        groups.set(group, id);
      }
      return id;
    };
    const chatOf = (sent: { groupId?: number; userId?: number }): ConformanceChat => {
      for (const [group, id] of groups) if (id === sent.groupId) return { kind: 'group', group };
      for (const user of ['alice', 'bob'] as const) {
        if (sent.groupId === undefined && ONEBOT_USERS[user].id === sent.userId) return { kind: 'private', user };
      }
      return { kind: 'group', group: `chat:${sent.groupId ?? sent.userId}` };
    };
    return {
      implementation,
      groupId,
      section: 'platform-onebot',
      settings: () => ({
        url: implementation.url,
        accessToken: ONEBOT_TOKEN,
        reconnect: { initialMs: 20, maxMs: 100 },
      }),
      owner: () => ({ platform: 'onebot', userId: String(ONEBOT_USERS.alice.id) }),
      account: (user) => String(ONEBOT_USERS[user].id),
      sessionId: (chat) =>
        chat.kind === 'group' ? `onebot:group:${groupId(chat.group)}` : `onebot:private:${ONEBOT_USERS[chat.user].id}`,
      connections: () => implementation.connections(),
      replaysMissedEvents: false,
      async deliver(message) {
        const from = ONEBOT_USERS[message.from];
        const segments: Segment[] = [
          ...(message.replyTo ? [{ type: 'reply', data: { id: message.replyTo } }] : []),
          ...(message.mention ? [{ type: 'at', data: { qq: String(ONEBOT_SELF) } }] : []),
          { type: 'text', data: { text: message.mention ? ` ${message.text}` : message.text } },
        ];
        const event =
          message.chat.kind === 'group'
            ? onebotGroupMessage({
                groupId: groupId(message.chat.group),
                userId: from.id,
                nickname: from.nickname,
                message: segments,
              })
            : onebotPrivateMessage({ userId: from.id, nickname: from.nickname, message: segments });
        const at = performance.now();
        implementation.push(event);
        return { id: String(event.message_id), at };
      },
      voices: () =>
        implementation.sent.flatMap((sent) => {
          const segments = Array.isArray(sent.message) ? (sent.message as Segment[]) : [];
          return segments
            .filter((segment) => segment.type === 'record' && String(segment.data.file).startsWith('base64://'))
            .map((segment) => ({
              chat: chatOf(sent),
              format: 'ogg-opus' as const,
              bytes: Buffer.from(String(segment.data.file).slice('base64://'.length), 'base64'),
            }));
        }),
      sent: () =>
        implementation.sent.map((sent) => {
          const segments = Array.isArray(sent.message) ? (sent.message as Segment[]) : [];
          const reply = segments.find((segment) => segment.type === 'reply');
          return {
            id: String(sent.messageId),
            chat: chatOf(sent),
            text: segments
              .filter((segment) => segment.type === 'text')
              .map((segment) => String(segment.data.text ?? ''))
              .join(''),
            ...(reply ? { quote: String(reply.data.id) } : {}),
            at: sent.at,
          };
        }),
      dropConnection: () => implementation.dropConnections(),
      refuseConnections: (status, times) => implementation.refuseConnections(status, times),
      failNextSend: (kind) =>
        implementation.failNextSend(
          kind === 'refused'
            ? { status: 'failed', retcode: 1200, msg: 'blocked', data: null }
            : { status: 'failed', retcode: 500, msg: 'internal error', data: null },
        ),
      async sendMalformed() {
        implementation.push('{not json');
        implementation.push('[1,2,3]');
        implementation.push({ post_type: 'something_new', detail: true });
        implementation.push({ post_type: 'message', message_type: 'private' });
        implementation.push(
          onebotGroupMessage({
            groupId: groupId('g-malformed'),
            userId: ONEBOT_USERS.bob.id,
            message: 'x'.repeat(200_000),
          }),
        );
      },
      malformedCode: 'AALIS_ONEBOT_EVENT_MALFORMED',
      secrets: [ONEBOT_TOKEN],
      // A QQ friend request (request_type friend), settled with set_friend_add_request.
      ownerRequest: {
        tool: 'onebot_request_answer',
        approve: true,
        async send(key) {
          implementation.push(
            onebotFriendRequest({
              selfId: ONEBOT_SELF,
              userId: ONEBOT_USERS.bob.id,
              comment: 'hi, I am Bob',
              flag: `f-${key}`,
            }),
          );
        },
        settled: (key) =>
          implementation.calls.some(
            (call) =>
              call.action === 'set_friend_add_request' &&
              call.params.flag === `f-${key}` &&
              call.params.approve === true,
          ),
      },
      close: () => implementation.close(),
    };
  },
};
