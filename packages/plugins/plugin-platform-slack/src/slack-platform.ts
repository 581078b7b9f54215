// @aalis/plugin-platform-slack: Slack through Socket Mode (@slack/socket-mode: apps.connections.open with the app
// token, the socket's hello, events_api envelopes acknowledged once their input is stored, pings both ways) and the Web API
// (@slack/web-api with the bot token: auth.test, chat.postMessage, users.info). Channels, group DMs and DMs are rooms
// with the behaviour every room adapter has (@aalis/platform-room); a thread is its own session and is answered in
// the thread. In a channel an <@her> mention, an app_mention, a message in a thread she started or her name addresses
// her; a DM always does. People are Slack user ids on platform `slack` (owners too). Her replies are converted to
// mrkdwn (plain text when that fails) and split at maxMessageLength. One process per deployment holds the socket (a
// database lease); every process can send.
import { setTimeout as pause } from 'node:timers/promises';
import '@aalis/api-agent';
import { type Receipt, StoredReceipts } from '@aalis/api-gateway';
import { AalisError, definePlugin, describeError, type Logger, setBounded } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  holdConnection,
  InboundOrder,
  RoomMemory,
  reconnectWhile,
  reportPlatformState,
  requireSettings,
  roomAdapterUses,
  roomInbound,
  roomRegistration,
  runConnection,
  shownEndpoint,
  stateError,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { Attachment, OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { SocketModeClient } from '@slack/socket-mode';
import { LogLevel, type Logger as SlackLogger, WebAPIPlatformError, WebClient } from '@slack/web-api';
import { slackConfigSchema } from './slack-config.js';
import { slackErrors } from './slack-errors.js';
import { slackFetch } from './slack-fetch.js';
import { markdownToMrkdwn, plainMrkdwn, readSlackText } from './slack-mrkdwn.js';

/** IncomingMessage.platform and the owners' `platform`. */
export const SLACK_PLATFORM = 'slack';

const MAX_RETRY_MS = 60_000;

/** Slack's answers that mean the token itself is refused. */
const TOKEN_REFUSALS = /invalid_auth|not_authed|account_inactive|token_revoked|token_expired|not_allowed_token_type/;

/** Message subtypes that are something someone said (the rest are edits, joins, bots' posts …). */
const SAID_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast', 'me_message']);

/** A Slack message or app_mention event, as far as the adapter reads it. */
export interface SlackMessageEvent {
  type?: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  parent_user_id?: string;
  user_profile?: { display_name?: string; real_name?: string; name?: string };
  files?: { name?: string; title?: string; mimetype?: string; url_private_download?: string; url_private?: string }[];
}

/** The room a message is in: its channel, and the thread when it is a reply in one (threads are sessions). */
export function slackChatId(channel: string, threadTs: string | undefined): string {
  return threadTs ? `${channel}/${threadTs}` : channel;
}

export function splitSlackChatId(chatId: string): { channel: string; threadTs?: string } {
  const slash = chatId.indexOf('/');
  return slash === -1 ? { channel: chatId } : { channel: chatId.slice(0, slash), threadTs: chatId.slice(slash + 1) };
}

/** The SDKs' own log lines go to debug (their debug lines, which echo payloads, are dropped). */
function sdkLogger(log: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const write = (...message: unknown[]) => log.debug(`Slack SDK: ${message.map(String).join(' ')}`);
  return {
    debug() {},
    info: write,
    warn: write,
    error: write,
    setLevel(next) {
      level = next;
    },
    getLevel: () => level,
    setName() {},
  };
}

function slackError(error: unknown): string {
  if (error instanceof WebAPIPlatformError) return String(error.data.error);
  return describeError(error);
}

export default definePlugin({
  name: '@aalis/plugin-platform-slack',
  uses: {
    ...roomAdapterUses,
  },
  config: slackConfigSchema,
  apply(context) {
    const { config, logger, events, lifecycle, hooks, platform, storage } = context;
    const settings = config.use;
    const log = logger.use;
    const endpoint = shownEndpoint(settings.apiUrl);
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: SLACK_PLATFORM,
      plugin: '@aalis/plugin-platform-slack',
      endpoint,
    });
    if (!requireSettings(state, log, 'Slack', { botToken: settings.botToken, appToken: settings.appToken })) return;
    const retryConfig = { retries: settings.maxRateLimitRetries, factor: 2, minTimeout: 100, maxTimeout: 5_000 };
    // Calls go through the adapters' shared exchange (slack-fetch.ts), which bounds each call's silence itself.
    const fetch = slackFetch({ timeoutMs: settings.apiTimeoutMs });
    const web = new WebClient(settings.botToken, {
      slackApiUrl: settings.apiUrl,
      fetch,
      retryConfig,
      logger: sdkLogger(log),
    });
    const memory = new RoomMemory(SLACK_PLATFORM);
    const inbound = new InboundOrder();
    // An event Slack delivers twice (message and app_mention, or a redelivery of one not acknowledged) is read once;
    // one that could not be stored is read again when Slack delivers it again.
    const receipts = new StoredReceipts({ limit: 5_000 });
    const names = new Map<string, string>();
    const stopping = new AbortController();
    let self: { userId: string; botId?: string; name?: string; teamId?: string } | undefined;
    const registration = roomRegistration(platform, { id: SLACK_PLATFORM });
    const room = roomInbound(context, { platform: SLACK_PLATFORM, label: 'Slack' });
    /** Why the last socket could not be opened (for the live state). */
    let lastFailure: AalisError | undefined;

    /** Her account (auth.test), asked until Slack answers; a refused bot token is logged once per streak. */
    async function whoAmI(): Promise<typeof self> {
      let failures = 0;
      while (!stopping.signal.aborted) {
        try {
          const answer = await web.auth.test();
          self = {
            userId: String(answer.user_id ?? ''),
            ...(answer.bot_id ? { botId: String(answer.bot_id) } : {}),
            ...(answer.user ? { name: String(answer.user) } : {}),
            ...(answer.team_id ? { teamId: String(answer.team_id) } : {}),
          };
          registration.register(self.userId);
          return self;
        } catch (error) {
          const reason = slackError(error);
          const refused = TOKEN_REFUSALS.test(reason);
          const key = state.configKey('botToken');
          const coded = refused
            ? slackErrors.AALIS_SLACK_TOKEN_REJECTED({ key, reason })
            : slackErrors.AALIS_SLACK_API_FAILED({ method: 'auth.test', reason });
          if (failures === 0) log.error(coded.message, { code: coded.code });
          failures++;
          const delay = Math.min(MAX_RETRY_MS, settings.retryDelayMs * 2 ** failures);
          state.set({
            status: refused ? 'refused' : 'reconnecting',
            nextAttemptAt: Date.now() + delay,
            error: stateError(coded),
            ...(refused ? { configKey: key } : {}),
          });
          await pause(delay, undefined, {
            signal: stopping.signal,
          }).catch(() => {});
        }
      }
      return undefined;
    }

    async function displayName(event: SlackMessageEvent): Promise<string | undefined> {
      const profile = event.user_profile;
      const fromEvent = profile?.display_name || profile?.real_name || profile?.name;
      const userId = event.user ?? '';
      if (fromEvent) {
        names.set(userId, fromEvent);
        return fromEvent;
      }
      const known = names.get(userId);
      if (known !== undefined) return known;
      try {
        const answer = await web.users.info({ user: userId });
        const user = answer.user;
        const name = user?.profile?.display_name || user?.real_name || user?.name;
        if (name) setBounded(names, userId, name, 5_000);
        return name || undefined;
      } catch (error) {
        log.debug('Slack: users.info failed', { error: slackError(error) });
        return undefined;
      }
    }

    function malformed(reason: string): void {
      const error = slackErrors.AALIS_SLACK_EVENT_MALFORMED({ reason });
      log.warn(error.message, { code: error.code });
    }

    /** Reads a message event and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(event: SlackMessageEvent, me: NonNullable<typeof self>): Promise<Receipt> {
      const channel = event.channel as string;
      const ts = event.ts as string;
      const userId = event.user as string;
      const privateChat = event.channel_type === 'im' || (event.channel_type === undefined && channel.startsWith('D'));
      const chatType: ChatType = privateChat ? 'private' : 'group';
      const threadTs = event.thread_ts && event.thread_ts !== ts ? event.thread_ts : undefined;
      const chatId = slackChatId(channel, threadTs);
      const read = readSlackText(event.text ?? '', me.userId, names);
      const inHerThread =
        threadTs !== undefined && (event.parent_user_id === me.userId || memory.isHers(channel, threadTs));
      const addressed = privateChat || read.mentionsHer || event.type === 'app_mention' || inHerThread;
      const auth = { authorization: `Bearer ${settings.botToken}` };
      const images: { url: string; shownUrl: string }[] = [];
      const files: { type: 'file' | 'audio'; url: string; shownUrl: string; name?: string; mimeType?: string }[] = [];
      for (const file of event.files ?? []) {
        const url = file.url_private_download ?? file.url_private;
        if (!url) continue;
        const mime = file.mimetype ?? '';
        if (mime.startsWith('image/')) images.push({ url, shownUrl: url });
        else
          files.push({
            type: mime.startsWith('audio/') ? 'audio' : 'file',
            url,
            shownUrl: url,
            ...(file.name || file.title ? { name: file.name ?? file.title } : {}),
            ...(mime ? { mimeType: mime } : {}),
          });
      }
      const name = await displayName(event);
      return room.receive({
        chatType,
        chatId,
        title: privateChat ? name : undefined,
        userId,
        displayName: name,
        text: read.text,
        images,
        files,
        // Slack's file URLs need the bot token (sent as a header, never in a shown URL).
        headers: auth,
        messageId: ts,
        replyTo: threadTs,
        addressed,
        timestamp: Number.isFinite(Number(ts)) ? Math.round(Number(ts) * 1000) : Date.now(),
      });
    }

    /** One events_api event; resolves with whether its input was stored (`failed`: left unacknowledged). */
    async function onEvent(event: SlackMessageEvent | undefined): Promise<Receipt> {
      const me = self;
      if (!me) return 'failed';
      if (!event || typeof event !== 'object' || typeof event.type !== 'string') {
        malformed('an events_api envelope without an event type');
        return 'handled';
      }
      if (event.type !== 'message' && event.type !== 'app_mention') {
        log.debug(`Slack: a ${event.type} event is not read`);
        return 'handled';
      }
      if (!SAID_SUBTYPES.has(event.subtype)) return 'handled';
      if (event.user === me.userId || (me.botId !== undefined && event.bot_id === me.botId)) return 'handled';
      if (event.bot_id !== undefined && event.user === undefined) return 'handled'; // another app's post
      if (typeof event.channel !== 'string' || typeof event.user !== 'string' || typeof event.ts !== 'string') {
        malformed(`a ${event.type} event without channel, user or ts`);
        return 'handled';
      }
      if (event.text !== undefined && typeof event.text !== 'string') {
        malformed(`a ${event.type} event whose text is not a string`);
        return 'handled';
      }
      // A mention arrives twice (message and app_mention): both get the one receipt of the message.
      return receipts.once(
        `${event.channel}\u0000${event.ts}`,
        () => inbound.run(event.channel as string, () => receive(event, me)),
        (error) => log.error('Slack: an event failed', { error: describeError(error) }),
      );
    }

    /** One Socket Mode connection, until it closes. Resolves true when hello came (a healthy session). */
    function connectOnce(held: AbortSignal): Promise<boolean> {
      const client = new SocketModeClient({
        appToken: settings.appToken,
        autoReconnectEnabled: false,
        clientPingTimeout: settings.pingTimeoutMs,
        serverPingTimeout: settings.serverPingTimeoutMs,
        logger: sdkLogger(log),
        clientOptions: { slackApiUrl: settings.apiUrl, fetch, retryConfig: { retries: 0 } },
      });
      return new Promise((resolve) => {
        let connected = false;
        let settled = false;
        const stop = () => void client.disconnect().catch(() => {});
        const finish = () => {
          if (settled) return;
          settled = true;
          held.removeEventListener('abort', stop);
          client.removeAllListeners();
          client.on('error', () => {});
          resolve(connected);
        };
        held.addEventListener('abort', stop, { once: true });
        client.on('connected', () => {
          connected = true;
          state.set({ status: 'connected' });
          log.info(`Slack: connected as ${self?.name ?? self?.userId ?? '?'} (${self?.userId ?? '?'})`);
        });
        client.on('disconnected', finish);
        client.on('ws_message', (data: unknown, isBinary: boolean) => {
          if (isBinary) return malformed('a binary frame');
          try {
            JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer));
          } catch {
            malformed('a frame that is not JSON');
          }
        });
        client.on('slack_event', (envelope: { ack: () => Promise<void>; type?: string; body?: unknown }) => {
          const ack = () =>
            void envelope
              .ack()
              .catch((error: unknown) => log.debug('Slack: ack failed', { error: describeError(error) }));
          if (envelope.type !== 'events_api') {
            ack();
            if (envelope.type !== 'slash_commands' && envelope.type !== 'interactive') {
              malformed(`an envelope of type ${String(envelope.type)}`);
            }
            return;
          }
          // Acknowledged once its input is stored (within Slack's three seconds: a store takes milliseconds); one
          // that could not be stored is left unacknowledged, so Slack delivers it again.
          void onEvent((envelope.body as { event?: SlackMessageEvent } | undefined)?.event).then((receipt) => {
            if (receipt !== 'failed') ack();
            else log.warn('Slack: an event could not be stored; not acknowledged, so that Slack delivers it again');
          });
        });
        client.start().catch((error: unknown) => {
          if (settled) return; // the socket opened and closed again before hello: already counted
          const reason = slackError(error);
          const refused = TOKEN_REFUSALS.test(reason);
          lastFailure = refused
            ? slackErrors.AALIS_SLACK_TOKEN_REJECTED({ key: state.configKey('appToken'), reason })
            : slackErrors.AALIS_SLACK_API_FAILED({ method: 'apps.connections.open', reason });
          log.warn(lastFailure.message, { code: lastFailure.code });
          void client.disconnect().catch(() => {});
          finish();
        });
      });
    }

    async function connectLoop(): Promise<void> {
      const me = await whoAmI();
      if (!me) return;
      await holdConnection({
        leases: storage.available ? storage.use.leases() : undefined,
        name: `platform:slack:${me.teamId ?? ''}:${me.userId}`,
        stopping: stopping.signal,
        // Another process of the deployment holding the socket shows as standby until this one takes over.
        standby: () => state.set({ status: 'standby' }),
        hold: (held) =>
          reconnectWhile(held, {
            attempt: connectOnce,
            healthy: (healthy) => healthy,
            baseMs: settings.retryDelayMs,
            maxMs: MAX_RETRY_MS,
            closed: (_healthy, delay) => {
              const failure = lastFailure;
              lastFailure = undefined;
              const refused = failure?.code === 'AALIS_SLACK_TOKEN_REJECTED';
              state.set({
                status: refused ? 'refused' : 'reconnecting',
                nextAttemptAt: Date.now() + delay,
                ...(failure ? { error: stateError(failure) } : {}),
                ...(refused ? { configKey: state.configKey('appToken') } : {}),
              });
              log.info(`Slack: the socket closed; reconnecting in ${delay} ms`);
            },
          }),
      });
    }

    async function post(
      channel: string,
      threadTs: string | undefined,
      markdown: string,
      broadcast: boolean,
    ): Promise<string | undefined> {
      let text: string;
      try {
        text = markdownToMrkdwn(markdown);
      } catch (error) {
        log.debug('Slack: the reply could not be converted to mrkdwn; sent as plain text', {
          error: describeError(error),
        });
        text = plainMrkdwn(markdown);
      }
      const sent = await web.chat.postMessage(
        threadTs ? { channel, text, thread_ts: threadTs, reply_broadcast: broadcast } : { channel, text },
      );
      return typeof sent.ts === 'string' ? sent.ts : undefined;
    }

    /**
     * A voice (a voice reply) shared as an audio file where the text went (the thread too): Slack's external upload
     * (files.getUploadURLExternal, the bytes to its upload_url, files.completeUploadExternal), which Slack's clients
     * play inline. Bots cannot post Slack's own voice clips. The text has left already: a voice that cannot go is
     * logged, never a failed delivery.
     */
    async function sendVoice(channel: string, threadTs: string | undefined, attachment: Attachment): Promise<void> {
      const file = Buffer.from(attachment.data ?? '', 'base64');
      const extension = attachment.mimeType === 'audio/ogg' ? 'ogg' : (attachment.mimeType?.split('/')[1] ?? 'bin');
      const name = attachment.name ?? `voice.${extension}`;
      try {
        await web.filesUploadV2(
          threadTs
            ? { channel_id: channel, thread_ts: threadTs, file, filename: name, title: name }
            : { channel_id: channel, file, filename: name, title: name },
        );
      } catch (error) {
        log.warn('Slack: a voice reply was not uploaded (the text was sent)', { channel, error: slackError(error) });
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: SLACK_PLATFORM,
        label: 'Slack',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_SLACK_API_FAILED',
        send: async (target, replyTo) => {
          const { channel, threadTs } = splitSlackChatId(target.chatId);
          // Slack has no quote: a reply to one message goes into its thread and is also shown in the channel
          // ("also send to #channel"), so the channel's conversation reads on. Replies in a thread stay in it.
          const thread = threadTs ?? replyTo;
          const broadcast = threadTs === undefined && replyTo !== undefined;
          try {
            for (const piece of splitMessage(message.content, settings.maxMessageLength)) {
              const ts = await post(channel, thread, piece, broadcast);
              if (ts) memory.sent(channel, ts);
            }
            // A thread she answered in is one she takes part in: what is said there next addresses her.
            if (thread) memory.sent(channel, thread);
            for (const attachment of message.attachments ?? []) {
              if (attachment.type === 'image' && attachment.url) {
                await web.chat.postMessage({
                  channel,
                  text: attachment.url,
                  blocks: [{ type: 'image', image_url: attachment.url, alt_text: attachment.name ?? 'image' }],
                  ...(threadTs ? { thread_ts: threadTs } : {}),
                });
              } else if (attachment.type === 'audio' && attachment.data) {
                await sendVoice(channel, thread, attachment);
              }
            }
          } catch (error) {
            if (AalisError.isInstance(error)) throw error;
            throw slackErrors.AALIS_SLACK_API_FAILED({ method: 'chat.postMessage', reason: slackError(error) });
          }
        },
      });
    }

    wireRoomTurns({ platform: SLACK_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    runConnection(lifecycle.use, {
      label: 'Slack',
      logger: log,
      stopping,
      state,
      run: connectLoop,
      stop: () => registration.unregister(),
    });
  },
});
