// The conformance driver for plugin-platform-satori over the Satori server of @aalis/testing: groups are guild
// channels, a private chat is a direct channel 'dm-<user>', her account is a Discord login behind the Satori server.
import { type SatoriServer, startSatoriServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

const TOKEN = 'satori-secret-token';
const LOGIN = { platform: 'discord', userId: 'bot-1', name: 'Aalis' };
const NAMES: Record<ConformanceUser, string> = { alice: 'Alice', bob: 'Bob' };

/** Undoes the escapes of Satori's element text. */
const readable = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

let nextInbound = 0;

export interface SatoriConformanceServer extends ConformanceServer {
  readonly satori: SatoriServer;
}

export const SATORI_TOKEN = TOKEN;
export const SATORI_LOGIN = LOGIN;

export const conformanceDriver: PlatformConformanceDriver<SatoriConformanceServer> = {
  name: 'satori',
  async start() {
    const satori = await startSatoriServer({ token: TOKEN, logins: [LOGIN] });
    /** The request ids the server gave the friend requests sent, by the suite's key. */
    const requests = new Map<string, string>();
    const channelOf = (chat: ConformanceChat) => (chat.kind === 'group' ? chat.group : `dm-${chat.user}`);
    const chatOf = (channelId: string): ConformanceChat =>
      channelId.startsWith('dm-')
        ? { kind: 'private', user: channelId.slice(3) as ConformanceUser }
        : { kind: 'group', group: channelId };
    return {
      satori,
      section: 'platform-satori',
      settings: () => ({ endpoint: satori.endpoint, token: TOKEN, retryDelayMs: 20, pingIntervalMs: 1000 }),
      owner: () => ({ platform: 'satori', userId: 'discord:alice' }),
      account: (user) => `discord:${user}`,
      sessionId: (chat) =>
        chat.kind === 'group' ? `satori:group:discord:${chat.group}` : `satori:private:discord:dm-${chat.user}`,
      connections: () => satori.identified(),
      replaysMissedEvents: true,
      async deliver(message) {
        nextInbound += 1;
        const id = `in-${nextInbound}`;
        const at = performance.now();
        satori.message({
          channelId: channelOf(message.chat),
          direct: message.chat.kind === 'private',
          userId: message.from,
          name: NAMES[message.from],
          content: `${message.mention ? `<at id="${LOGIN.userId}" name="${LOGIN.name}"/> ` : ''}${message.text
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')}`,
          messageId: id,
          ...(message.replyTo ? { quoteId: message.replyTo } : {}),
        });
        return { id, at };
      },
      voices: () =>
        satori.created.flatMap((created) => {
          const audio = /^<audio src="data:audio\/ogg;base64,([^"]*)"\/>$/.exec(created.content);
          return audio
            ? [
                {
                  chat: chatOf(created.channelId),
                  format: 'ogg-opus' as const,
                  bytes: Buffer.from(audio[1]!, 'base64'),
                },
              ]
            : [];
        }),
      sent: () =>
        satori.created.map((created) => {
          const quote = /^<quote id="([^"]*)"\/>/.exec(created.content);
          return {
            id: created.id,
            chat: chatOf(created.channelId),
            text: readable(created.content.replace(/^<quote id="[^"]*"\/>/, '')),
            ...(quote ? { quote: quote[1] } : {}),
            at: created.at,
          };
        }),
      dropConnection: () => satori.dropSockets(),
      refuseConnections: (status, times) => satori.refuseSockets(status, times),
      failNextSend: (kind) => satori.failNext('message.create', kind === 'refused' ? 403 : 500),
      async sendMalformed() {
        satori.raw('not json at all');
        satori.raw(JSON.stringify({ op: 0, body: { type: 'message-created' } }));
        satori.raw(JSON.stringify({ op: 0, body: { type: 'something-new', sn: 0 } }));
        satori.raw(JSON.stringify({ op: 42, body: {} }));
        satori.message({ channelId: 'g-malformed', userId: 'bob', name: 'Bob', content: 'x'.repeat(200_000) });
      },
      malformedCode: 'AALIS_SATORI_EVENT_MALFORMED',
      secrets: [TOKEN],
      // Satori's friend-request event, settled with friend.approve naming the event's message id.
      ownerRequest: {
        tool: 'satori_request_answer',
        approve: true,
        async send(key) {
          requests.set(
            key,
            satori.request({ type: 'friend-request', userId: 'bob', name: NAMES.bob, comment: 'hi, I am Bob' }),
          );
        },
        settled: (key) =>
          satori
            .approvals()
            .some(
              (approval) =>
                approval.method === 'friend.approve' && approval.messageId === requests.get(key) && approval.approve,
            ),
      },
      close: () => satori.close(),
    };
  },
};
