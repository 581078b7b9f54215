// @aalis/plugin-platform-discord: Discord through its gateway (a WebSocket: HELLO, IDENTIFY, heartbeats, RESUME after
// a drop — @discordjs/ws) and its REST API (@discordjs/rest: rate limits and retry_after honoured, 5xx retried).
// Guild channels and threads are group rooms (a thread is its own session), a DM channel a private room; a mention
// of her or a reply to one of her messages addresses her in a guild. The host's commands are registered as slash
// commands; using one runs it like the same text typed, answered in the interaction. One process per deployment holds
// the gateway connection (a database lease); every process can send.
import '@aalis/api-agent';
import { createHash } from 'node:crypto';
import { commands } from '@aalis/api-commands';
import { media } from '@aalis/api-media';
import { AalisError, definePlugin, describeError, optional, setBounded, translate } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  ensureRoomSession,
  InboundOrder,
  parseRoomSessionId,
  pause,
  RoomMemory,
  reportPlatformState,
  requireSettings,
  roomAdapterUses,
  roomInbound,
  roomRegistration,
  runConnection,
  stateError,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { Attachment, OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { DiscordAPIError, HTTPError, type RawFile, REST, RESTEvents } from '@discordjs/rest';
import { type SessionInfo, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import {
  type APIEmbed,
  type APIGatewayBotInfo,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
  GatewayIntentBits,
  Routes,
} from 'discord-api-types/v10';
import { discordConfigSchema } from './discord-config.js';
import { readMessage, toDiscordMarkdown, type WireAttachment, type WireUser } from './discord-content.js';
import { discordErrors } from './discord-texts.js';
import { StoppableShardingStrategy, stoppableIdentifyThrottler } from './stoppable-sharding-strategy.js';

/** The platform id of every Discord chat (IncomingMessage.platform, owners' `platform`). */
export const DISCORD_PLATFORM = 'discord';
const PLUGIN_NAME = '@aalis/plugin-platform-discord';

const MAX_RETRY_MS = 60_000;
/** Discord's typing indicator lasts ten seconds; it is renewed while the turn runs. */
const TYPING_RENEW_MS = 8_000;
/** The largest file uploaded with a message (Discord's limit for a bot in a server without boosts). */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** MessageFlags.IsVoiceMessage. */
const IS_VOICE_MESSAGE = 1 << 13;
/** "Cannot send voice messages in this channel". */
const VOICE_MESSAGES_REFUSED = 50173;
/** A voice to send as a voice message: audio whose bytes travel with it (a voice reply). */
const isVoice = (attachment: Attachment) =>
  attachment.type === 'audio' && (attachment.data !== undefined || attachment.url?.startsWith('data:') === true);
/** An interaction token is valid for 15 minutes. */
const INTERACTION_TTL_MS = 15 * 60_000;
/** Close codes after which the gateway client does not reconnect by itself. */
const TOKEN_CLOSE_CODES = new Set([4004]);
const INTENT_CLOSE_CODES = new Set([4013, 4014]);
const GIVE_UP_CLOSE_CODES = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
const KNOWN_EVENTS = new Set<string>(Object.values(GatewayDispatchEvents));
/** How many RESUMEs a session the gateway client gave up on is still tried (see updateSessionInfo). */
const MAX_KEPT_RESUMES = 3;

interface WireMessage {
  id?: string;
  channel_id?: string;
  guild_id?: string;
  author?: WireUser;
  member?: { nick?: string | null };
  content?: string;
  timestamp?: string;
  mentions?: WireUser[];
  mention_roles?: string[];
  attachments?: WireAttachment[];
  sticker_items?: { name?: string }[];
  message_reference?: { message_id?: string };
  referenced_message?: { author?: WireUser } | null;
  webhook_id?: string;
}

interface WireInteraction {
  id?: string;
  type?: number;
  token?: string;
  channel_id?: string;
  guild_id?: string;
  member?: { user?: WireUser; nick?: string | null };
  user?: WireUser;
  data?: { name?: string; options?: { name?: string; value?: unknown }[] };
}

interface PendingInteraction {
  token: string;
  answered: boolean;
  expires: number;
}

/** A REST failure as our coded error: status and Discord's code and message, never the URL (it can hold a token). */
function apiError(route: string, error: unknown): AalisError {
  if (AalisError.isInstance(error)) return error;
  if (error instanceof DiscordAPIError) {
    if (error.status === 401)
      return discordErrors.AALIS_DISCORD_TOKEN_REJECTED({ reason: `HTTP 401 on ${route}` }, { statusCode: 401 });
    return discordErrors.AALIS_DISCORD_API_FAILED(
      { route, status: error.status, reason: `${error.code} ${error.message}`.slice(0, 300) },
      { statusCode: error.status, isRetryable: error.status >= 500 },
    );
  }
  if (error instanceof HTTPError) {
    return discordErrors.AALIS_DISCORD_API_FAILED(
      { route, status: error.status, reason: error.name },
      { statusCode: error.status, isRetryable: error.status >= 500 },
    );
  }
  return discordErrors.AALIS_DISCORD_API_FAILED(
    { route, status: 0, reason: describeError(error) },
    { isRetryable: true },
  );
}

export default definePlugin({
  name: PLUGIN_NAME,
  uses: {
    ...roomAdapterUses,
    commands: optional(commands),
    media: optional(media),
  },
  config: discordConfigSchema,
  apply(context) {
    const {
      config,
      logger,
      events,
      i18n,
      lifecycle,
      gateway,
      hooks,
      commands,
      sessionManager,
      platform,
      storage,
      media,
    } = context;
    const settings = config.use;
    const log = logger.use;
    const apiBase = settings.apiBase.replace(/\/+$/, '');
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: DISCORD_PLATFORM,
      plugin: PLUGIN_NAME,
      endpoint: apiBase,
    });
    const missingToken = () => discordErrors.AALIS_DISCORD_TOKEN_MISSING();
    if (!requireSettings(state, log, 'Discord', { token: settings.token }, missingToken)) return;
    const rest = new REST({ api: apiBase, version: '10', timeout: settings.apiTimeoutMs, retries: 3 }).setToken(
      settings.token,
    );
    // Both kinds of wait are logged: a bucket the client knows is empty (rateLimited), and a 429 Discord answered
    // (its retry_after is waited out by the client before it tries again).
    rest.on(RESTEvents.RateLimited, (info) =>
      log.warn(`Discord: rate limited on ${info.method.toUpperCase()} ${info.route}; waiting ${info.retryAfter} ms`),
    );
    rest.on(RESTEvents.Response, (request, response) => {
      if (response.status !== 429) return;
      const seconds = Number(response.headers.get('retry-after'));
      log.warn(
        `Discord: rate limited on ${request.method.toUpperCase()} ${request.route}; waiting ${
          Number.isFinite(seconds) ? Math.round(seconds * 1000) : '?'
        } ms`,
      );
    });
    const memory = new RoomMemory(DISCORD_PLATFORM);
    const inbound = new InboundOrder();
    const stopping = new AbortController();
    const typing = new Map<string, ReturnType<typeof setInterval>>();
    /** Names of guilds and channels (threads too) seen on the gateway, for session titles; bounded. */
    /** Guild and channel names (and a channel's guild and parent) by key, the oldest forgotten past 5,000. */
    const names = new Map<string, string>();
    const rememberName = (key: string, value: string) => setBounded(names, key, value, 5_000);
    /** Her managed roles, one per guild (bounded by the guilds she is in). */
    const ownRoles = new Set<string>();
    const interactions = new Map<string, PendingInteraction>();
    const turnInteractions = new Map<string, string>();
    let me: { id: string; username: string } | undefined;
    let applicationId: string | undefined;
    let registeredCommands = '';
    const registration = roomRegistration(platform, { id: DISCORD_PLATFORM });
    const room = roomInbound(context, { platform: DISCORD_PLATFORM, label: 'Discord' });
    let sessionInfo: SessionInfo | null = null;
    let keptResumes = 0;

    function malformed(reason: string, level: 'warn' | 'debug' = 'warn'): void {
      const error = discordErrors.AALIS_DISCORD_EVENT_MALFORMED({ reason });
      log[level](error.message, { code: error.code });
    }

    function onDispatch(payload: GatewayDispatchPayload) {
      const type = String((payload as { t?: unknown }).t ?? '');
      const data = (payload as { d?: unknown }).d;
      if (!KNOWN_EVENTS.has(type)) {
        malformed(`unknown event type ${type.slice(0, 64) || '(none)'}`, 'debug');
        return;
      }
      if (typeof data !== 'object' || data === null) {
        malformed(`${type} without data`);
        return;
      }
      const d = data as Record<string, unknown>;
      switch (type) {
        case GatewayDispatchEvents.Ready:
          return onReady(d);
        case GatewayDispatchEvents.Resumed:
          state.set({ status: 'connected' });
          log.info('Discord: resumed the gateway session');
          return;
        case GatewayDispatchEvents.GuildCreate:
        case GatewayDispatchEvents.GuildUpdate:
          if (typeof d.id === 'string' && typeof d.name === 'string') rememberName(`guild:${d.id}`, d.name);
          for (const role of (Array.isArray(d.roles) ? d.roles : []) as {
            id?: unknown;
            tags?: { bot_id?: unknown };
          }[]) {
            // Her managed role: Discord makes one per bot and guild, tagged with the bot's id.
            if (me && typeof role?.id === 'string' && role.tags?.bot_id === me.id) ownRoles.add(role.id);
          }
          for (const channel of [
            ...(Array.isArray(d.channels) ? d.channels : []),
            ...(Array.isArray(d.threads) ? d.threads : []),
          ] as Record<string, unknown>[])
            rememberChannel(channel);
          return;
        case GatewayDispatchEvents.ChannelCreate:
        case GatewayDispatchEvents.ChannelUpdate:
        case GatewayDispatchEvents.ThreadCreate:
        case GatewayDispatchEvents.ThreadUpdate:
          return rememberChannel(d);
        case GatewayDispatchEvents.MessageCreate: {
          const message = d as WireMessage;
          if (
            typeof message.id !== 'string' ||
            typeof message.channel_id !== 'string' ||
            typeof message.author?.id !== 'string' ||
            typeof message.content !== 'string'
          ) {
            malformed('a MESSAGE_CREATE without id, channel_id, author or content');
            return;
          }
          void inbound
            .run(message.channel_id, () => receive(message))
            .catch((error: unknown) => log.error('Discord: a message failed', { error: describeError(error) }));
          return;
        }
        case GatewayDispatchEvents.InteractionCreate:
          return onInteraction(d as WireInteraction);
        default:
          return;
      }
    }

    function rememberChannel(channel: Record<string, unknown>): void {
      if (typeof channel?.id !== 'string' || typeof channel.name !== 'string') return;
      rememberName(`channel:${channel.id}`, channel.name);
      if (typeof channel.guild_id === 'string') rememberName(`channel-guild:${channel.id}`, channel.guild_id);
      if (typeof channel.parent_id === 'string') rememberName(`channel-parent:${channel.id}`, channel.parent_id);
    }

    function onReady(d: Record<string, unknown>): void {
      const user = d.user as WireUser | undefined;
      if (typeof user?.id !== 'string') {
        malformed('a READY without its user');
        return;
      }
      me = { id: user.id, username: user.username ?? user.id };
      const application = d.application as { id?: string } | undefined;
      applicationId = typeof application?.id === 'string' ? application.id : me.id;
      state.set({ status: 'connected' });
      log.info(`Discord: connected as ${me.username} (${me.id})`);
      registration.register(me.id);
      void registerCommands().catch((error: unknown) =>
        log.warn('Discord: the slash commands could not be registered', { error: apiError('commands', error).message }),
      );
    }

    async function registerCommands(): Promise<void> {
      if (!settings.registerCommands || !commands.available || !applicationId) return;
      const body = commands.use
        .list({ isOwner: false, level: 0 })
        .filter((command) => /^[-_\p{Ll}\p{N}]{1,32}$/u.test(command.name))
        .slice(0, 100)
        .map((command) => {
          const en = (translate(command.description, 'en') || command.name).slice(0, 100);
          const zh = (translate(command.description, 'zh-CN') || command.name).slice(0, 100);
          return {
            name: command.name,
            type: 1,
            description: en,
            description_localizations: { 'zh-CN': zh },
            options: [
              {
                type: 3,
                name: 'arguments',
                description: translate({ key: 'discord.command.argument' }, 'en'),
                description_localizations: { 'zh-CN': translate({ key: 'discord.command.argument' }, 'zh-CN') },
                required: false,
              },
            ],
          };
        });
      const fingerprint = JSON.stringify(body);
      // Registered once per list: a reconnect's READY does not spend the (strictly limited) command route again.
      if (fingerprint === registeredCommands) return;
      await rest.put(Routes.applicationCommands(applicationId), { body });
      registeredCommands = fingerprint;
      log.info(`Discord: registered ${body.length} slash commands`);
    }

    async function receive(message: WireMessage): Promise<void> {
      if (!me) return; // before READY nothing is known about her
      const author = message.author!;
      // Her own messages echo back; other bots are not people (two bots answering each other would never stop).
      if (author.id === me.id || author.bot || message.webhook_id) return;
      const chatId = message.channel_id!;
      const chatType: ChatType = message.guild_id ? 'group' : 'private';
      const read = readMessage(message, me.id, (id) => names.get(`channel:${id}`), ownRoles);
      const quoteId = message.message_reference?.message_id;
      const quotesHer =
        quoteId !== undefined && (memory.isHers(chatId, quoteId) || message.referenced_message?.author?.id === me.id);
      const addressed = chatType === 'private' || read.mentionsHer || quotesHer;
      const stickers = read.stickers.map((name) => i18n.use.t({ key: 'discord.sticker', params: { name } }));
      const displayName = message.member?.nick || author.global_name || author.username || undefined;
      const parsedTime = message.timestamp ? Date.parse(message.timestamp) : Number.NaN;
      const incoming = await room.incoming({
        chatType,
        chatId,
        ...titleOf(chatType, chatId, message.guild_id, displayName),
        userId: author.id!,
        displayName,
        text: [read.text, ...stickers].filter(Boolean).join(' '),
        images: read.images,
        files: read.files,
        messageId: message.id!,
        replyTo: quoteId,
        addressed,
        timestamp: Number.isFinite(parsedTime) ? parsedTime : Date.now(),
      });
      // Handed over, not awaited: the chat's next message must reach the gateway before this turn ends (to join it).
      void room.store(incoming);
    }

    /** A guild room is titled '<guild> #<channel>' ('<guild> #<channel> › <thread>' for a thread). */
    function titleOf(
      chatType: ChatType,
      chatId: string,
      guildId: string | undefined,
      displayName: string | undefined,
    ): { title?: string } {
      if (chatType === 'private') return displayName ? { title: displayName } : {};
      const guild = guildId ? names.get(`guild:${guildId}`) : undefined;
      const channel = names.get(`channel:${chatId}`);
      const parentId = names.get(`channel-parent:${chatId}`);
      const parent = parentId ? names.get(`channel:${parentId}`) : undefined;
      const where = parent ? `#${parent} › ${channel ?? chatId}` : channel ? `#${channel}` : undefined;
      const title = [guild, where].filter(Boolean).join(' ');
      return title ? { title } : {};
    }

    function onInteraction(interaction: WireInteraction): void {
      if (interaction.type !== 2) return; // only application commands (not components or autocomplete)
      const user = interaction.member?.user ?? interaction.user;
      if (
        typeof interaction.id !== 'string' ||
        typeof interaction.token !== 'string' ||
        typeof interaction.channel_id !== 'string' ||
        typeof interaction.data?.name !== 'string' ||
        typeof user?.id !== 'string'
      ) {
        malformed('an INTERACTION_CREATE without id, token, channel, command name or user');
        return;
      }
      const { id, token } = interaction;
      const chatId = interaction.channel_id;
      const now = Date.now();
      for (const [key, pending] of interactions) if (pending.expires < now) interactions.delete(key);
      interactions.set(id, { token, answered: false, expires: now + INTERACTION_TTL_MS });
      const args = (interaction.data.options ?? [])
        .map((option) => (typeof option?.value === 'string' ? option.value : ''))
        .filter(Boolean)
        .join(' ');
      const text = `/${interaction.data.name}${args ? ` ${args}` : ''}`;
      void inbound
        .run(chatId, async () => {
          // Acknowledged at once (Discord allows 3 s): the answer replaces the "thinking" placeholder.
          await rest.post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false });
          const chatType: ChatType = interaction.guild_id ? 'group' : 'private';
          const displayName = interaction.member?.nick || user.global_name || user.username || undefined;
          const sessionId = await ensureRoomSession({
            sessionManager: sessionManager.available ? sessionManager.use : undefined,
            platform: DISCORD_PLATFORM,
            chatType,
            chatId,
            ...titleOf(chatType, chatId, interaction.guild_id, displayName),
            logger: log,
          });
          await gateway.use.receive({
            sessionId,
            platform: DISCORD_PLATFORM,
            venue: chatId,
            sender: { userId: user.id!, ...(displayName ? { displayName } : {}) },
            actor: { platform: DISCORD_PLATFORM, userId: user.id! },
            content: text,
            messageId: id,
            triggerType: 'direct',
            timestamp: now,
          });
          const pending = interactions.get(id);
          if (pending && !pending.answered && ![...turnInteractions.values()].includes(id)) {
            pending.answered = true;
            await rest.patch(Routes.webhookMessage(applicationId ?? me?.id ?? '', token, '@original'), {
              body: { content: i18n.use.t({ key: 'discord.command.done' }) },
              auth: false,
            });
          }
        })
        .catch((error: unknown) =>
          log.warn('Discord: a slash command could not be answered', { error: apiError('interaction', error).message }),
        );
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: DISCORD_PLATFORM,
        label: 'Discord',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_DISCORD_API_FAILED',
        send: async (target, replyTo) => {
          const interactionId =
            (replyTo !== undefined && interactions.has(replyTo) ? replyTo : undefined) ??
            (message.turnId !== undefined ? turnInteractions.get(message.turnId) : undefined) ??
            (message.replyTo !== undefined && interactions.has(message.replyTo) ? message.replyTo : undefined);
          const pieces = splitMessage(toDiscordMarkdown(message.content), settings.maxMessageLength);
          // A voice (a voice reply) goes after the text as a voice message of its own: Discord takes nothing else in one.
          const voices = (message.attachments ?? []).filter(isVoice);
          const { embeds, files, links } = outboundAttachments(
            (message.attachments ?? []).filter((attachment) => !isVoice(attachment)),
          );
          if (links.length > 0) pieces.push(...splitMessage(links.join('\n'), settings.maxMessageLength));
          for (const [index, piece] of pieces.entries()) {
            const last = index === pieces.length - 1;
            await sendPiece(target.chatId, piece, {
              replyTo: index === 0 && interactionId === undefined ? replyTo : undefined,
              interactionId,
              embeds: last ? embeds : [],
              files: last ? files : [],
            });
          }
          if (pieces.length === 0 && (embeds.length > 0 || files.length > 0)) {
            await sendPiece(target.chatId, '', { replyTo: undefined, interactionId, embeds, files });
          }
          for (const voice of voices) await sendVoice(target.chatId, voice);
        },
      });
    }

    /**
     * A voice message (flags IS_VOICE_MESSAGE, one Ogg/Opus attachment with its duration_secs and waveform, no content),
     * the form Discord's clients show with a play button and a waveform. Where Discord refuses one (a channel without
     * voice messages, code 50173) or the voice cannot be measured (no media service), the audio goes as a plain file.
     * The text has left already: a voice that cannot go is logged, never a failed delivery.
     */
    async function sendVoice(chatId: string, attachment: Attachment): Promise<void> {
      const plain = async () => {
        const { files } = outboundAttachments([attachment]);
        if (files.length > 0)
          await sendPiece(chatId, '', { replyTo: undefined, interactionId: undefined, embeds: [], files });
      };
      try {
        const ready = media.available ? await media.use.voiceAs?.(attachment, 'ogg-opus') : undefined;
        if (!ready) return await plain();
        if (ready.bytes.byteLength > MAX_UPLOAD_BYTES) {
          log.warn(
            `Discord: a voice of ${ready.bytes.byteLength} bytes was not uploaded (at most ${MAX_UPLOAD_BYTES})`,
          );
          return;
        }
        const name = 'voice-message.ogg';
        let created: { id?: string } | undefined;
        try {
          created = (await rest.post(Routes.channelMessages(chatId), {
            body: {
              flags: IS_VOICE_MESSAGE,
              attachments: [
                {
                  id: '0',
                  filename: name,
                  duration_secs: ready.durationMs / 1000,
                  waveform: Buffer.from(ready.waveform).toString('base64'),
                },
              ],
            },
            files: [{ name, data: Buffer.from(ready.bytes), contentType: ready.mimeType }],
          })) as { id?: string } | undefined;
        } catch (error) {
          if (error instanceof DiscordAPIError && error.code === VOICE_MESSAGES_REFUSED) {
            log.info('Discord: voice messages are not allowed in this channel; the voice goes as a file', { chatId });
            return await plain();
          }
          throw apiError('POST /channels/{id}/messages (voice message)', error);
        }
        if (typeof created?.id === 'string') memory.sent(chatId, created.id);
      } catch (error) {
        log.warn('Discord: a voice reply was not sent (the text was)', {
          chatId,
          error: AalisError.isInstance(error) ? `${error.code}: ${error.message}` : String(error),
        });
      }
    }

    /**
     * Her attachments as Discord takes them: an http(s) image as an embed, an inline one (base64 or a data: URL) as an
     * uploaded file (at most 10 per message and MAX_UPLOAD_BYTES each), any other http(s) file as a link Discord
     * previews.
     */
    function outboundAttachments(attachments: readonly Attachment[]) {
      const embeds: APIEmbed[] = [];
      const files: RawFile[] = [];
      const links: string[] = [];
      for (const attachment of attachments) {
        const url = attachment.url ?? '';
        if (/^https?:\/\//.test(url)) {
          if (attachment.type === 'image' && embeds.length < 10) embeds.push({ image: { url } });
          else links.push(url);
          continue;
        }
        const inline = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
        const base64 = attachment.data ?? (inline?.[2] ? inline[3] : undefined);
        const bytes =
          base64 !== undefined
            ? Buffer.from(base64, 'base64')
            : inline
              ? Buffer.from(decodeURIComponent(inline[3] ?? ''), 'utf8')
              : undefined;
        if (!bytes) continue;
        const contentType = attachment.mimeType ?? inline?.[1] ?? 'application/octet-stream';
        if (bytes.byteLength > MAX_UPLOAD_BYTES || files.length >= 10) {
          log.warn(
            `Discord: an attachment of ${bytes.byteLength} bytes was not uploaded (at most 10 files of ${MAX_UPLOAD_BYTES} bytes)`,
          );
          continue;
        }
        const extension = contentType.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin';
        files.push({
          name: attachment.name ?? `${attachment.type}-${files.length + 1}.${extension}`,
          data: bytes,
          contentType,
        });
      }
      return { embeds, files, links };
    }

    async function sendPiece(
      chatId: string,
      content: string,
      options: {
        replyTo: string | undefined;
        interactionId: string | undefined;
        embeds: APIEmbed[];
        files?: RawFile[];
      },
    ): Promise<void> {
      // Nobody is pinged by what she writes (no @everyone from a model); a reply still notifies its author.
      const allowed_mentions = { parse: [], replied_user: true };
      const pending = options.interactionId ? interactions.get(options.interactionId) : undefined;
      if (pending && applicationId && pending.expires > Date.now()) {
        const body = { content, allowed_mentions, ...(options.embeds.length > 0 ? { embeds: options.embeds } : {}) };
        try {
          if (!pending.answered) {
            pending.answered = true;
            await rest.patch(Routes.webhookMessage(applicationId, pending.token, '@original'), {
              body,
              auth: false,
              ...(options.files?.length ? { files: options.files } : {}),
            });
          } else {
            await rest.post(Routes.webhook(applicationId, pending.token), {
              body,
              auth: false,
              ...(options.files?.length ? { files: options.files } : {}),
            });
          }
        } catch (error) {
          throw apiError('interaction webhook', error);
        }
        return;
      }
      let created: { id?: string } | undefined;
      try {
        created = (await rest.post(Routes.channelMessages(chatId), {
          body: {
            content,
            allowed_mentions,
            ...(options.embeds.length > 0 ? { embeds: options.embeds } : {}),
            ...(options.replyTo !== undefined
              ? { message_reference: { message_id: options.replyTo, fail_if_not_exists: false } }
              : {}),
          },
          ...(options.files?.length ? { files: options.files } : {}),
        })) as { id?: string } | undefined;
      } catch (error) {
        throw apiError('POST /channels/{id}/messages', error);
      }
      if (typeof created?.id === 'string') memory.sent(chatId, created.id);
    }

    function startTyping(sessionId: string): void {
      const target = parseRoomSessionId(DISCORD_PLATFORM, sessionId);
      if (!target || typing.has(sessionId)) return;
      const tick = () =>
        void rest
          .post(Routes.channelTyping(target.chatId))
          .catch((error: unknown) => log.debug('Discord: typing failed', { error: apiError('typing', error).message }));
      tick();
      const timer = setInterval(tick, TYPING_RENEW_MS);
      timer.unref?.();
      typing.set(sessionId, timer);
    }

    function stopTyping(sessionId: string): void {
      clearInterval(typing.get(sessionId));
      typing.delete(sessionId);
    }

    /** One gateway client until it gives up (a close code it does not recover from) or `held` ends. */
    async function runGateway(held: AbortSignal): Promise<{ ready: boolean; closeCode?: number }> {
      const manager = new (settings.gatewayUrl ? fixedGateway(settings.gatewayUrl) : WebSocketManager)({
        token: settings.token,
        intents:
          GatewayIntentBits.Guilds |
          GatewayIntentBits.GuildMessages |
          GatewayIntentBits.DirectMessages |
          GatewayIntentBits.MessageContent,
        rest,
        shardCount: 1,
        helloTimeout: 30_000,
        readyTimeout: 30_000,
        // Once `held` ends, no shard of this client connects again, even one that was reconnecting at that moment.
        buildStrategy: (client) => new StoppableShardingStrategy(client, held),
        buildIdentifyThrottler: (client) => stoppableIdentifyThrottler(client, held),
        retrieveSessionInfo: () => (held.aborted ? null : sessionInfo),
        updateSessionInfo: (_shardId, info) => {
          if (info) {
            sessionInfo = info;
            keptResumes = 0;
            return;
          }
          // The gateway client forgets the session after a connection attempt that failed on the network (or was
          // answered 5xx), so its next attempt would IDENTIFY afresh and lose what was said meanwhile. The session is
          // kept for a few more RESUME tries; an INVALID_SESSION answer to each of them ends it.
          if (sessionInfo && keptResumes < MAX_KEPT_RESUMES && !held.aborted) {
            keptResumes += 1;
            return;
          }
          sessionInfo = null;
          keptResumes = 0;
        },
      });
      let ready = false;
      let closeCode: number | undefined;
      const ended = new Promise<void>((resolve) => {
        held.addEventListener('abort', () => resolve(), { once: true });
        manager.on(WebSocketShardEvents.Dispatch, (payload) => {
          if ((payload as { t?: string }).t === GatewayDispatchEvents.Ready) ready = true;
          try {
            onDispatch(payload);
          } catch (error) {
            malformed(`an event could not be read: ${describeError(error)}`);
          }
        });
        manager.on(WebSocketShardEvents.Closed, (code) => {
          if (held.aborted) return;
          if (GIVE_UP_CLOSE_CODES.has(code)) {
            closeCode = code;
            resolve();
            return;
          }
          log.info(`Discord: the gateway connection closed (${code}); resuming`);
          state.set({
            status: 'reconnecting',
            error: stateError(discordErrors.AALIS_DISCORD_CONNECTION_LOST({ code })),
            nextAttemptAt: Date.now(),
          });
        });
        manager.on(WebSocketShardEvents.Debug, (message) => log.debug(`Discord gateway: ${message}`));
        manager.on(WebSocketShardEvents.SocketError, (error) =>
          log.debug('Discord: gateway socket error', { error: describeError(error) }),
        );
        manager.on(WebSocketShardEvents.Error, (error) =>
          log.warn('Discord: gateway error', { error: describeError(error) }),
        );
      });
      try {
        await manager.connect();
        await ended;
      } finally {
        await Promise.resolve(manager.destroy({ reason: 'stopping' })).catch(() => {});
      }
      return { ready, ...(closeCode !== undefined ? { closeCode } : {}) };
    }

    async function connectLoop(): Promise<void> {
      const leases = storage.available ? storage.use.leases() : undefined;
      // The lease names the bot by a digest of its token (never the token itself).
      const key = `platform:discord:${createHash('sha256').update(settings.token).digest('hex').slice(0, 16)}`;
      let failures = 0;
      while (!stopping.signal.aborted) {
        let lease = leases ? await leases.tryAcquire(key) : undefined;
        if (leases && !lease) {
          state.set({ status: 'standby' });
          lease = await leases.acquire(key, { signal: stopping.signal });
        }
        if (leases && !lease) return;
        const held = lease ? AbortSignal.any([stopping.signal, lease.lost]) : stopping.signal;
        try {
          while (!held.aborted) {
            let failure: AalisError | undefined;
            let refused = false;
            try {
              const { ready, closeCode } = await runGateway(held);
              if (held.aborted) break;
              if (ready) failures = 0;
              if (closeCode !== undefined) {
                refused = TOKEN_CLOSE_CODES.has(closeCode) || INTENT_CLOSE_CODES.has(closeCode);
                failure = TOKEN_CLOSE_CODES.has(closeCode)
                  ? discordErrors.AALIS_DISCORD_TOKEN_REJECTED({ reason: `gateway close ${closeCode}` })
                  : INTENT_CLOSE_CODES.has(closeCode)
                    ? discordErrors.AALIS_DISCORD_INTENTS_REFUSED({ reason: `gateway close ${closeCode}` })
                    : discordErrors.AALIS_DISCORD_CONNECTION_LOST({ code: closeCode });
              }
            } catch (error) {
              if (held.aborted) break;
              const status = error instanceof DiscordAPIError || error instanceof HTTPError ? error.status : 0;
              refused = status === 401;
              failure = refused
                ? discordErrors.AALIS_DISCORD_TOKEN_REJECTED({ reason: 'HTTP 401 on GET /gateway/bot' })
                : discordErrors.AALIS_DISCORD_UNREACHABLE({
                    apiBase,
                    reason: status ? `HTTP ${status}` : describeError(error),
                  });
            }
            failures += 1;
            const delay = Math.min(MAX_RETRY_MS, settings.retryDelayMs * 2 ** (failures - 1));
            const error = failure ?? discordErrors.AALIS_DISCORD_CONNECTION_LOST({ code: 0 });
            log[refused ? 'error' : 'warn'](`${error.message} (next try in ${delay} ms)`, { code: error.code });
            state.set({
              status: refused ? 'refused' : 'reconnecting',
              ...(refused ? { configKey: state.configKey('token') } : {}),
              error: stateError(error),
              nextAttemptAt: Date.now() + delay,
            });
            await pause(delay, held).catch(() => {});
          }
        } finally {
          await lease?.release().catch(() => {});
        }
      }
    }

    wireRoomTurns({
      platform: DISCORD_PLATFORM,
      events: events.use,
      hooks: hooks.use,
      memory,
      deliver,
      turnStarted: (context) => {
        const mine = context.inputs.filter((input) => input.message.platform === DISCORD_PLATFORM);
        for (const input of mine) {
          const id = input.message.messageId;
          if (id !== undefined && interactions.has(id)) turnInteractions.set(context.turnId, id);
        }
        if (mine.length > 0) startTyping(context.sessionId);
      },
      turnEnding: (context) => stopTyping(context.sessionId),
      turnEnded: (context) => turnInteractions.delete(context.turnId),
    });
    runConnection(lifecycle.use, {
      label: 'Discord',
      logger: log,
      stopping,
      state,
      run: connectLoop,
      stop: () => {
        for (const sessionId of [...typing.keys()]) stopTyping(sessionId);
        registration.unregister();
      },
    });
  },
});

/** A gateway client that connects to `url` instead of asking GET /gateway/bot (a gateway proxy, one shard). */
function fixedGateway(url: string) {
  return class extends WebSocketManager {
    override async fetchGatewayInformation(): Promise<APIGatewayBotInfo> {
      return {
        url,
        shards: 1,
        session_start_limit: { total: 1_000, remaining: 1_000, reset_after: 0, max_concurrency: 1 },
      };
    }
  };
}
