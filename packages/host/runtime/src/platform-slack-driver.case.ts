// The conformance driver for plugin-platform-slack over the Slack server of @aalis/testing (Socket Mode + Web API):
// groups are public channels 'C<GROUP>', a private chat is the DM 'D0<USER>'; a mention is <@her> in the text with
// the app_mention Slack sends beside the message; a reply to her message is a reply in its thread. Her quote of a
// message is a reply in that message's thread, also shown in the channel (reply_broadcast).
import { type SlackServer, startSlackServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const SLACK_BOT_TOKEN = 'xoxb-1234-5678-conformanceBotSecret';
export const SLACK_APP_TOKEN = 'xapp-1-A0AALIS01-9999-conformanceAppSecret';
const USERS: Record<ConformanceUser, string> = { alice: 'U0ALICE', bob: 'U0BOB' };

/** Undoes Slack's escapes of &, < and >. */
const unescapeSlack = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface SlackConformanceServer extends ConformanceServer {
  readonly slack: SlackServer;
  channelOf(chat: ConformanceChat): string;
}

export const conformanceDriver: PlatformConformanceDriver<SlackConformanceServer> = {
  name: 'slack',
  cannot: {
    'owner-request':
      "Slack apps have no friends; a workspace's admins install her and members add her to channels, no request she answers",
  },
  async start() {
    const slack = await startSlackServer({
      botToken: SLACK_BOT_TOKEN,
      appToken: SLACK_APP_TOKEN,
      users: { [USERS.alice]: 'Alice', [USERS.bob]: 'Bob' },
    });
    slack.pingEvery(300);
    const channelOf = (chat: ConformanceChat) =>
      chat.kind === 'group' ? `C${chat.group.toUpperCase()}` : `D${USERS[chat.user]}`;
    const chatOf = (channel: string): ConformanceChat => {
      if (channel.startsWith('D')) {
        const user = (Object.keys(USERS) as ConformanceUser[]).find((key) => `D${USERS[key]}` === channel);
        return { kind: 'private', user: user ?? 'bob' };
      }
      return { kind: 'group', group: channel.slice(1).toLowerCase() };
    };
    return {
      slack,
      channelOf,
      section: 'platform-slack',
      settings: () => ({
        botToken: SLACK_BOT_TOKEN,
        appToken: SLACK_APP_TOKEN,
        apiUrl: slack.apiUrl,
        retryDelayMs: 20,
        pingTimeoutMs: 1_000,
        serverPingTimeoutMs: 1_000,
        maxRateLimitRetries: 1,
      }),
      owner: () => ({ platform: 'slack', userId: USERS.alice }),
      account: (user) => USERS[user],
      sessionId: (chat) => `slack:${chat.kind}:${channelOf(chat)}`,
      connections: () => slack.connections(),
      replaysMissedEvents: true,
      async deliver(message) {
        const channel = channelOf(message.chat);
        // A reply to one of her messages is a reply in its thread (the thread of the message she answered).
        const hers = message.replyTo ? slack.posted.find((posted) => posted.ts === message.replyTo) : undefined;
        const threadTs = hers ? (hers.threadTs ?? hers.ts) : undefined;
        const sent = slack.message({
          channel,
          channelType: message.chat.kind === 'group' ? 'channel' : 'im',
          user: USERS[message.from],
          text: `${message.mention ? `<@${slack.bot.userId}> ` : ''}${escapeSlack(message.text)}`,
          ...(threadTs ? { threadTs, parentUserId: hers?.threadTs ? undefined : slack.bot.userId } : {}),
          ...(message.mention && message.chat.kind === 'group' ? { appMention: true } : {}),
        });
        return { id: sent.ts, at: sent.sentAt };
      },
      sent: () =>
        slack.posted.map((posted) => ({
          id: posted.ts,
          chat: chatOf(posted.channel),
          text: unescapeSlack(posted.text),
          ...(posted.broadcast && posted.threadTs ? { quote: posted.threadTs } : {}),
          at: posted.at,
        })),
      voices: () =>
        slack.uploads.map((upload) => ({
          chat: chatOf(upload.channel),
          format: 'ogg-opus' as const,
          bytes: upload.bytes,
        })),
      dropConnection: () => slack.dropSockets(),
      refuseConnections: (status, times) => slack.failNext('apps.connections.open', status, times),
      failNextSend: (kind) =>
        kind === 'refused'
          ? slack.refuseNext('chat.postMessage', 'not_in_channel')
          : slack.failNext('chat.postMessage', 500),
      async sendMalformed() {
        slack.raw('not json at all');
        slack.raw(JSON.stringify({ type: 'brand_new_envelope', envelope_id: 'env-odd' }));
        slack.event({ type: 'message', channel: 'CMALFORMED', text: 'no user, no ts' });
        slack.event({ type: 'reaction_added', user: USERS.bob, reaction: 'tada' });
        slack.event({ type: 'message', channel: 'CMALFORMED', user: USERS.bob, ts: '1.000001', text: 42 });
        slack.message({ channel: 'CMALFORMED', user: USERS.bob, text: 'x'.repeat(200_000) });
      },
      malformedCode: 'AALIS_SLACK_EVENT_MALFORMED',
      secrets: [SLACK_BOT_TOKEN, SLACK_APP_TOKEN],
      close: () => slack.close(),
    };
  },
};
