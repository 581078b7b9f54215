// The conformance driver for plugin-platform-discord over the Discord gateway and REST server of @aalis/testing: each
// group is a text channel of one guild, a private chat the DM channel between her and the person.
import {
  DISCORD_RATE_LIMITS,
  type DiscordChannelFixture,
  type DiscordServer,
  type DiscordUser,
  startDiscordServer,
} from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

export const DISCORD_TOKEN = 'MTIwMDAw.discord-secret-token';
export const DISCORD_USERS: Record<ConformanceUser, DiscordUser> = {
  alice: { id: '1100000000000000011', username: 'alice', global_name: 'Alice' },
  bob: { id: '1100000000000000012', username: 'bob', global_name: 'Bob' },
};
const GUILD = '1000000000000000100';
const DISCORD_BOT_ID = '1200000000000000001';
/** Her managed role in the test guild. */
export const DISCORD_ROLE = '1000000000000000777';

export interface DiscordConformanceServer extends ConformanceServer {
  readonly discord: DiscordServer;
  /** The guild's channels (groups by key, added on first use; threads may be added by a test). */
  readonly channels: DiscordChannelFixture[];
  /** The channel id of a group key. */
  channelOf(group: string): string;
}

export const conformanceDriver: PlatformConformanceDriver<DiscordConformanceServer> = {
  name: 'discord',
  cannot: {
    'owner-request':
      'Discord bots have no friends (the API has no friend requests for bots); a server adds her by the OAuth2 install, no request she answers',
  },
  // Each turn makes two requests (typing, the message): 20 turns a second keep under the global 50 with a margin
  // (at exactly 25 a second, a second's window now and then held its 51st request until the next), and 30 channels
  // in turn give each one send every 1.5 s, within its 5 per 5 s.
  sendLimits: {
    text: `Discord: ${DISCORD_RATE_LIMITS.perChannel.limit} messages per channel per ${DISCORD_RATE_LIMITS.perChannel.windowMs / 1000} s, ${DISCORD_RATE_LIMITS.globalPerSecond} requests per second per bot (a turn: typing + message)`,
    channels: 30,
    minRoundMs: 50,
  },
  async start() {
    const channels: DiscordChannelFixture[] = [];
    const discord = await startDiscordServer({
      token: DISCORD_TOKEN,
      guilds: [
        {
          id: GUILD,
          name: 'Test guild',
          channels,
          roles: [{ id: DISCORD_ROLE, name: 'Aalis', botId: DISCORD_BOT_ID }],
        },
      ],
      bot: { id: DISCORD_BOT_ID, username: 'Aalis', bot: true },
      heartbeatIntervalMs: 1_000,
    });
    const groups = new Map<string, string>();
    let nextChannel = 1_000_000_000_000_000_200n;
    const channelOf = (group: string) => {
      let id = groups.get(group);
      if (!id) {
        nextChannel += 1n;
        id = String(nextChannel);
        groups.set(group, id);
        channels.push({ id, name: group });
        // A channel made after READY is announced as Discord does.
        discord.dispatch('CHANNEL_CREATE', { id, type: 0, guild_id: GUILD, name: group });
      }
      return id;
    };
    const channelFor = (chat: ConformanceChat) =>
      chat.kind === 'group' ? channelOf(chat.group) : discord.dmChannel(DISCORD_USERS[chat.user]);
    const chatOf = (channelId: string): ConformanceChat => {
      for (const [group, id] of groups) if (id === channelId) return { kind: 'group', group };
      for (const user of ['alice', 'bob'] as const) {
        if (discord.dmChannel(DISCORD_USERS[user]) === channelId) return { kind: 'private', user };
      }
      return { kind: 'group', group: `channel:${channelId}` };
    };
    return {
      discord,
      channels,
      channelOf,
      section: 'platform-discord',
      settings: () => ({ token: DISCORD_TOKEN, apiBase: discord.apiUrl, retryDelayMs: 20 }),
      owner: () => ({ platform: 'discord', userId: DISCORD_USERS.alice.id }),
      account: (user) => DISCORD_USERS[user].id,
      sessionId: (chat) =>
        chat.kind === 'group' ? `discord:group:${channelOf(chat.group)}` : `discord:private:${channelFor(chat)}`,
      connections: () => discord.identified() + discord.resumed(),
      replaysMissedEvents: true,
      async deliver(message) {
        const at = performance.now();
        const { id } = discord.message({
          channelId: channelFor(message.chat),
          author: DISCORD_USERS[message.from],
          content: `${message.mention ? `<@${discord.bot.id}> ` : ''}${message.text}`,
          ...(message.mention ? { mentions: [discord.bot] } : {}),
          ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        });
        return { id, at };
      },
      sent: () =>
        discord.sent.map((sent) => ({
          id: sent.id,
          chat: chatOf(sent.channelId),
          text: sent.content,
          ...(sent.replyTo ? { quote: sent.replyTo } : {}),
          at: sent.at,
        })),
      voices: () =>
        discord.sent
          .filter((sent) => sent.flags !== undefined && (sent.flags & (1 << 13)) !== 0 && sent.files?.length === 1)
          .map((sent) => ({
            chat: chatOf(sent.channelId),
            format: 'ogg-opus' as const,
            bytes: sent.files![0]!.bytes,
            durationMs: Number(sent.attachments?.[0]?.duration_secs) * 1000,
          })),
      dropConnection: () => discord.dropSockets(),
      refuseConnections: (status, times) => discord.refuseSockets(status, times),
      failNextSend: (kind) =>
        discord.failNext(
          /^POST \/channels\/\d+\/messages$/,
          kind === 'refused'
            ? { status: 403, code: 50007, message: 'Cannot send messages to this user' }
            : { status: 500, message: 'Internal Server Error' },
        ),
      async sendMalformed() {
        discord.raw('not json at all');
        discord.raw(JSON.stringify({ op: 0, t: 'MESSAGE_CREATE', s: null }));
        discord.dispatch('MESSAGE_CREATE', { id: '1', channel_id: channelOf('g-malformed') });
        discord.dispatch('SOMETHING_NEW', { anything: true });
        discord.message({
          channelId: channelOf('g-malformed'),
          author: DISCORD_USERS.bob,
          content: 'x'.repeat(200_000),
        });
      },
      malformedCode: 'AALIS_DISCORD_EVENT_MALFORMED',
      secrets: [DISCORD_TOKEN],
      close: () => discord.close(),
    };
  },
};
