// @aalis/plugin-platform-lark: Feishu (open.feishu.cn) and Lark (open.larksuite.com) through the maintained
// @larksuiteoapi/node-sdk — the long connection (WSClient: the endpoint asked with the app's credentials, protobuf
// frames over WebSocket, pings at the interval the server names, event frames answered with their result) and the
// OpenAPI (Client: the tenant_access_token it keeps, bot/v3/info, im/v1/messages create and reply, contact/v3/users).
// Group and private chats are rooms with the behaviour every room adapter has (@aalis/platform-room); a topic (thread)
// is a session of its own. In a group an @ of her (or @all), a reply to one of her messages or her name addresses her;
// a private chat always does. People are open_ids on platform `lark` (owners too). Her replies are rich text (a post
// with a Markdown element), a card or plain text (replyAs), plain text when the rich form is refused, split at
// maxMessageLength; a group reply quotes the message that addressed her (the reply API). One process per deployment
// holds the long connection (a database lease); every process can send.
import { setTimeout as pause } from 'node:timers/promises';
import '@aalis/api-agent';
import { type Receipt, StoredReceipts } from '@aalis/api-gateway';
import { media } from '@aalis/api-media';
import { AalisError, definePlugin, describeError, type Logger, optional, setBounded } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  holdConnection,
  InboundOrder,
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
import * as lark from '@larksuiteoapi/node-sdk';
import { larkConfigSchema } from './lark-config.js';
import { type LarkMention, readLarkContent, writeLarkContent } from './lark-content.js';
import { larkErrors } from './lark-errors.js';
import { larkHttpInstance } from './lark-http-instance.js';

/** IncomingMessage.platform and the owners' `platform`. */
export const LARK_PLATFORM = 'lark';

const MAX_RETRY_MS = 60_000;
/** Lark's business code for "request trigger frequency limit". */
const RATE_LIMITED = 99991400;
/** Business codes of a refused message content (invalid parameter, card content), which plain text may pass. */
const CONTENT_REFUSALS = /code (230001|230099|11310|11246)\b/;
/** Business codes of refused app credentials (invalid app_id / app_secret, app not enabled). */
const CREDENTIAL_CODES = new Set([10003, 10014, 99991663, 99991664, 99991661, 99991668, 514]);

/** The message event of the long connection, as the SDK hands it over (header fields and the event merged). */
export interface LarkMessageEvent {
  event_id?: string;
  sender?: { sender_id?: { open_id?: string; user_id?: string }; sender_type?: string };
  message?: {
    message_id?: string;
    root_id?: string;
    parent_id?: string;
    thread_id?: string;
    chat_id?: string;
    chat_type?: string;
    message_type?: string;
    content?: string;
    create_time?: string;
    mentions?: LarkMention[];
  };
}

/** The room a message is in: its chat, and the topic (thread) when it is in one (topics are sessions). */
export function larkChatId(chatId: string, threadId: string | undefined): string {
  return threadId ? `${chatId}/${threadId}` : chatId;
}

export function splitLarkChatId(chatId: string): { chatId: string; threadId?: string } {
  const slash = chatId.indexOf('/');
  return slash === -1 ? { chatId } : { chatId: chatId.slice(0, slash), threadId: chatId.slice(slash + 1) };
}

/** The SDK's `domain`: its own names for the two services, or a base URL. */
export function larkDomain(domain: string): lark.Domain | string {
  if (domain === 'feishu') return lark.Domain.Feishu;
  if (domain === 'lark') return lark.Domain.Lark;
  return domain.replace(/\/+$/, '');
}

function baseUrl(domain: string): string {
  if (domain === 'feishu') return 'https://open.feishu.cn';
  if (domain === 'lark') return 'https://open.larksuite.com';
  return domain.replace(/\/+$/, '');
}

/** What an SDK call's failure says: the HTTP status, Lark's business code and message, the wait it names. */
function failureOf(error: unknown): { status?: number; code?: number; reason: string; resetSeconds?: number } {
  const response = (error as { response?: { status?: number; headers?: Record<string, unknown>; data?: unknown } })
    ?.response;
  const data = (response?.data ?? {}) as { code?: number; msg?: string };
  const reset = Number(response?.headers?.['x-ogw-ratelimit-reset'] ?? Number.NaN);
  return {
    ...(response?.status !== undefined ? { status: response.status } : {}),
    ...(typeof data.code === 'number' ? { code: data.code } : {}),
    reason:
      typeof data.code === 'number'
        ? `code ${data.code}${data.msg ? ` ${data.msg}` : ''}`
        : response?.status !== undefined
          ? `HTTP ${response.status}`
          : describeError(error),
    ...(Number.isFinite(reset) ? { resetSeconds: reset } : {}),
  };
}

export default definePlugin({
  name: '@aalis/plugin-platform-lark',
  uses: {
    ...roomAdapterUses,
    media: optional(media),
  },
  config: larkConfigSchema,
  apply(context) {
    const { config, logger, events, lifecycle, hooks, platform, storage, media } = context;
    const settings = config.use;
    const log = logger.use;
    const base = baseUrl(settings.domain);
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: LARK_PLATFORM,
      plugin: '@aalis/plugin-platform-lark',
      endpoint: base,
    });
    if (!requireSettings(state, log, 'Feishu/Lark', { appId: settings.appId, appSecret: settings.appSecret })) return;
    if (!/^cli_[0-9a-fA-F]{16}$/.test(settings.appId)) {
      const error = larkErrors.AALIS_LARK_APP_ID_INVALID({ appId: settings.appId });
      state.set({
        status: 'stopped',
        configKey: state.configKey('appId'),
        error: stateError(error),
      });
      log.error(error.message, { code: error.code });
      return;
    }
    const sdkLogger = sdkLoggerFor(log, (reason) => malformed(reason));
    const client = new lark.Client({
      appId: settings.appId,
      appSecret: settings.appSecret,
      domain: larkDomain(settings.domain),
      logger: sdkLogger,
      loggerLevel: lark.LoggerLevel.info,
      httpInstance: larkHttpInstance(lark.defaultHttpInstance),
    });
    const memory = new RoomMemory(LARK_PLATFORM);
    const inbound = new InboundOrder();
    // An event delivered again (a frame answered late or with a failure) is read once; one that could not be stored
    // is read again when Lark delivers it again.
    const receipts = new StoredReceipts({ limit: 5_000 });
    const names = new Map<string, string>();
    /** Whether a replied-to message is hers, as asked of the API. */
    const senders = new Map<string, boolean>();
    const stopping = new AbortController();
    let self: { openId: string; name?: string } | undefined;
    const registration = roomRegistration(platform, { id: LARK_PLATFORM });
    const room = roomInbound(context, { platform: LARK_PLATFORM, label: 'Feishu/Lark' });

    function malformed(reason: string): void {
      const error = larkErrors.AALIS_LARK_EVENT_MALFORMED({ reason });
      log.warn(error.message, { code: error.code });
    }

    /** One API call through the SDK: a rate refusal waited out (the reset it names), a 5xx tried once more. */
    async function api<T>(method: string, call: () => Promise<T>): Promise<T> {
      let rateRetries = 0;
      let serverRetried = false;
      for (;;) {
        let answer: T;
        try {
          answer = await call();
        } catch (error) {
          const failure = failureOf(error);
          if ((failure.status === 429 || failure.code === RATE_LIMITED) && rateRetries < settings.maxRateLimitRetries) {
            rateRetries++;
            await pause(Math.min(60, Math.max(0.05, failure.resetSeconds ?? 1)) * 1000, undefined, {
              signal: stopping.signal,
            });
            continue;
          }
          if (failure.status !== undefined && failure.status >= 500 && !serverRetried) {
            serverRetried = true;
            await pause(200, undefined, { signal: stopping.signal });
            continue;
          }
          if (failure.code !== undefined && CREDENTIAL_CODES.has(failure.code)) {
            throw larkErrors.AALIS_LARK_CREDENTIALS_REJECTED(
              { reason: failure.reason },
              { statusCode: failure.status },
            );
          }
          throw larkErrors.AALIS_LARK_API_FAILED(
            { method, reason: failure.reason },
            {
              ...(failure.status !== undefined ? { statusCode: failure.status } : {}),
              isRetryable: (failure.status ?? 0) >= 500,
            },
          );
        }
        const code = (answer as { code?: number } | undefined)?.code;
        if (code === RATE_LIMITED && rateRetries < settings.maxRateLimitRetries) {
          rateRetries++;
          await pause(1_000, undefined, { signal: stopping.signal });
          continue;
        }
        if (typeof code === 'number' && code !== 0) {
          const msg = (answer as { msg?: string }).msg;
          const reason = `code ${code}${msg ? ` ${msg}` : ''}`;
          if (CREDENTIAL_CODES.has(code)) throw larkErrors.AALIS_LARK_CREDENTIALS_REJECTED({ reason });
          throw larkErrors.AALIS_LARK_API_FAILED({ method, reason });
        }
        return answer;
      }
    }

    /** Her account (bot/v3/info), asked until it is answered; refused credentials are logged once per streak. */
    async function whoAmI(): Promise<typeof self> {
      let failures = 0;
      while (!stopping.signal.aborted) {
        try {
          const answer = await api('bot/v3/info', () =>
            client.request<{ code?: number; bot?: { open_id?: string; app_name?: string } }>({
              method: 'GET',
              url: '/open-apis/bot/v3/info',
              timeout: settings.apiTimeoutMs,
            }),
          );
          if (!answer.bot?.open_id)
            throw larkErrors.AALIS_LARK_API_FAILED({ method: 'bot/v3/info', reason: 'no open_id' });
          self = { openId: answer.bot.open_id, ...(answer.bot.app_name ? { name: answer.bot.app_name } : {}) };
          registration.register(self.openId);
          return self;
        } catch (error) {
          if (stopping.signal.aborted) return undefined;
          const coded = AalisError.isInstance(error)
            ? error
            : larkErrors.AALIS_LARK_API_FAILED({ method: 'bot/v3/info', reason: describeError(error) });
          if (failures === 0) log.error(coded.message, { code: coded.code });
          failures++;
          const delay = Math.min(MAX_RETRY_MS, 1_000 * 2 ** failures);
          const refused = coded.code === 'AALIS_LARK_CREDENTIALS_REJECTED';
          state.set({
            status: refused ? 'refused' : 'reconnecting',
            nextAttemptAt: Date.now() + delay,
            error: stateError(coded),
            ...(refused ? { configKey: state.configKey('appSecret') } : {}),
          });
          await pause(delay, undefined, { signal: stopping.signal }).catch(() => {});
        }
      }
      return undefined;
    }

    async function displayName(openId: string): Promise<string | undefined> {
      const known = names.get(openId);
      if (known !== undefined) return known;
      try {
        const answer = await api('contact/v3/users', () =>
          client.contact.user.get({ path: { user_id: openId }, params: { user_id_type: 'open_id' } }),
        );
        const name = answer.data?.user?.name;
        if (name) setBounded(names, openId, name, 5_000);
        return name || undefined;
      } catch (error) {
        log.debug('Feishu/Lark: contact lookup failed', { error: describeError(error) });
        return undefined;
      }
    }

    /**
     * Whether a message is hers: remembered since she sent it, else asked (the event does not say whose the parent
     * is, and what she sent before a restart is not remembered). Answers are kept, bounded.
     */
    async function isHers(chatId: string, messageId: string): Promise<boolean> {
      if (memory.isHers(chatId, messageId)) return true;
      const known = senders.get(messageId);
      if (known !== undefined) return known;
      let hers = false;
      try {
        const answer = await api('im/v1/messages/get', () =>
          client.im.message.get({ path: { message_id: messageId } }),
        );
        const sender = answer.data?.items?.[0]?.sender;
        hers = sender?.sender_type === 'app' && sender.id === settings.appId;
      } catch (error) {
        log.debug('Feishu/Lark: the replied-to message could not be read', { error: describeError(error) });
        return false;
      }
      setBounded(senders, messageId, hers, 5_000);
      if (hers) memory.sent(chatId, messageId);
      return hers;
    }

    async function tenantToken(): Promise<string> {
      return String(await client.tokenManager.getTenantAccessToken());
    }

    /** Reads a message event and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(event: LarkMessageEvent, me: NonNullable<typeof self>): Promise<Receipt> {
      const message = event.message!;
      const openId = event.sender!.sender_id!.open_id!;
      const messageId = message.message_id!;
      let read: ReturnType<typeof readLarkContent>;
      try {
        read = readLarkContent(message.message_type!, message.content!, message.mentions ?? [], me.openId);
      } catch (error) {
        malformed(`${message.message_type} content: ${describeError(error)}`);
        return 'handled';
      }
      const privateChat = message.chat_type === 'p2p';
      const chatType: ChatType = privateChat ? 'private' : 'group';
      const chatId = larkChatId(message.chat_id!, message.thread_id || undefined);
      const parentId = message.parent_id || undefined;
      const addressed =
        privateChat || read.mentionsHer || (parentId !== undefined && (await isHers(message.chat_id!, parentId)));
      // Resources are fetched with the tenant token (a header, never in a shown URL).
      const resourceUrl = (key: string, type: 'image' | 'file') =>
        `${base}/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/resources/${encodeURIComponent(key)}?type=${type}`;
      let headers: Record<string, string> = {};
      if (read.resources.length > 0) {
        try {
          headers = { authorization: `Bearer ${await tenantToken()}` };
        } catch (error) {
          log.warn('Feishu/Lark: no tenant token for fetching resources', { error: describeError(error) });
        }
      }
      const name = await displayName(openId);
      const created = Number(message.create_time);
      return room.receive({
        chatType,
        chatId,
        title: privateChat ? name : undefined,
        userId: openId,
        displayName: name,
        text: read.text,
        images: read.resources
          .filter((resource) => resource.type === 'image')
          .map((resource) => ({
            url: resourceUrl(resource.key, 'image'),
            shownUrl: resourceUrl(resource.key, 'image'),
          })),
        files: read.resources
          .filter((resource) => resource.type !== 'image')
          .map((resource) => ({
            type: resource.type === 'audio' ? ('audio' as const) : ('file' as const),
            url: resourceUrl(resource.key, 'file'),
            shownUrl: resourceUrl(resource.key, 'file'),
            ...(resource.name ? { name: resource.name } : {}),
          })),
        headers,
        messageId,
        replyTo: parentId,
        addressed,
        timestamp: Number.isFinite(created) && created > 0 ? created : Date.now(),
      });
    }

    /** One message event; resolves with whether its input was stored (`failed`: answered 500, delivered again). */
    async function onMessage(event: LarkMessageEvent): Promise<Receipt> {
      const me = self;
      if (!me) return 'failed';
      const message = event?.message;
      const openId = event?.sender?.sender_id?.open_id;
      if (
        !message ||
        typeof message.message_id !== 'string' ||
        typeof message.chat_id !== 'string' ||
        typeof message.message_type !== 'string' ||
        typeof message.content !== 'string' ||
        typeof openId !== 'string'
      ) {
        malformed('an im.message.receive_v1 event without message_id, chat_id, message_type, content or sender');
        return 'handled';
      }
      if (event.sender?.sender_type === 'app' || openId === me.openId) return 'handled';
      const chat = message.chat_id;
      return receipts.once(
        message.message_id,
        () => inbound.run(chat, () => receive(event, me)),
        (error) => log.error('Feishu/Lark: an event failed', { error: describeError(error) }),
      );
    }

    /** The SDK's dispatcher, with every event type it is not told about logged as a coded error. */
    class Dispatcher extends lark.EventDispatcher {
      override async invoke(data: unknown, params?: { needCheck?: boolean }): Promise<unknown> {
        const type = (data as { header?: { event_type?: unknown } } | undefined)?.header?.event_type;
        if (typeof type !== 'string') {
          malformed('an event frame without header.event_type');
          return undefined;
        }
        if (type !== 'im.message.receive_v1') {
          if (!type.startsWith('im.')) malformed(`an event of type ${type}, which is not read`);
          return undefined;
        }
        return super.invoke(data, params);
      }
    }
    const dispatcher = new Dispatcher({ logger: sdkLogger, loggerLevel: lark.LoggerLevel.info }).register({
      // Answered once its input is stored; a throw answers the frame with code 500, and Lark delivers it again.
      'im.message.receive_v1': async (data) => {
        if ((await onMessage(data as unknown as LarkMessageEvent)) === 'failed') {
          log.warn('Feishu/Lark: an event could not be stored; answered 500, so that Lark delivers it again');
          throw new Error('the event could not be stored');
        }
      },
    });

    /** Runs the long connection while the lease is held; resolves when it was lost or the plugin stops. */
    async function connectWhile(held: AbortSignal): Promise<void> {
      let failures = 0;
      while (!held.aborted) {
        let failed: Error | undefined;
        const ws = new lark.WSClient({
          appId: settings.appId,
          appSecret: settings.appSecret,
          domain: larkDomain(settings.domain),
          logger: sdkLogger,
          loggerLevel: lark.LoggerLevel.info,
          handshakeTimeoutMs: settings.handshakeTimeoutMs,
          wsConfig: { pingTimeout: settings.pingTimeoutSeconds },
          onReady: () => {
            failures = 0;
            state.set({ status: 'connected' });
            log.info(`Feishu/Lark: connected as ${self?.name ?? '?'} (${self?.openId ?? '?'})`);
          },
          onReconnecting: () => {
            const next = ws.getReconnectInfo().nextConnectTime;
            state.set({ status: 'reconnecting', ...(next ? { nextAttemptAt: next } : {}) });
            log.info('Feishu/Lark: the long connection closed; reconnecting');
          },
          onReconnected: () => {
            state.set({ status: 'connected' });
            log.info('Feishu/Lark: reconnected');
          },
          onError: (error: Error) => {
            failed = error;
          },
        });
        const stopped = new Promise<void>((resolve) => held.addEventListener('abort', () => resolve(), { once: true }));
        await ws.start({ eventDispatcher: dispatcher });
        // The SDK keeps the connection (and reconnects) by itself; it gives up only on a refusal it cannot retry.
        while (!held.aborted && !failed) {
          await Promise.race([stopped, pause(500)]);
        }
        ws.close({ force: true });
        if (held.aborted) return;
        failures++;
        const delay = Math.min(MAX_RETRY_MS, 1_000 * 2 ** failures);
        const refusedCredentials = /code(?:=|:)\s*(514|403|10003|10014)/.test(describeError(failed));
        const coded = refusedCredentials
          ? larkErrors.AALIS_LARK_CREDENTIALS_REJECTED({ reason: describeError(failed) })
          : larkErrors.AALIS_LARK_API_FAILED({ method: 'callback/ws/endpoint', reason: describeError(failed) });
        log.error(coded.message, { code: coded.code });
        state.set({
          status: refusedCredentials ? 'refused' : 'reconnecting',
          nextAttemptAt: Date.now() + delay,
          error: stateError(coded),
          ...(refusedCredentials ? { configKey: state.configKey('appSecret') } : {}),
        });
        await pause(delay, undefined, { signal: held }).catch(() => {});
      }
    }

    async function connectLoop(): Promise<void> {
      const me = await whoAmI();
      if (!me) return;
      await holdConnection({
        leases: storage.available ? storage.use.leases() : undefined,
        name: `platform:lark:${settings.appId}`,
        stopping: stopping.signal,
        // Another process of the deployment holding the connection shows as standby until this one takes over.
        standby: () => state.set({ status: 'standby' }),
        hold: connectWhile,
      });
    }

    /** Sends one piece: a reply (quoting) or a new message, in the rich form and as plain text when that is refused. */
    async function sendPiece(
      chatId: string,
      threadId: string | undefined,
      markdown: string,
      replyTo: string | undefined,
    ): Promise<string | undefined> {
      const attempt = async (format: 'post' | 'card' | 'text') => {
        const { msgType, content } = writeLarkContent(markdown, format);
        const answer = replyTo
          ? await api('im/v1/messages/reply', () =>
              client.im.message.reply({
                path: { message_id: replyTo },
                data: { msg_type: msgType, content, ...(threadId ? { reply_in_thread: true } : {}) },
              }),
            )
          : await api('im/v1/messages', () =>
              client.im.message.create({
                params: { receive_id_type: 'chat_id' },
                data: { receive_id: chatId, msg_type: msgType, content },
              }),
            );
        return answer.data?.message_id;
      };
      if (settings.replyAs === 'text') return attempt('text');
      try {
        return await attempt(settings.replyAs);
      } catch (error) {
        if (!larkErrors.AALIS_LARK_API_FAILED.is(error) || !CONTENT_REFUSALS.test(error.message)) throw error;
        log.debug(`Feishu/Lark: the ${settings.replyAs} reply was refused; sending it as plain text`, {
          error: describeError(error),
        });
        try {
          return await attempt('text');
        } catch {
          throw error;
        }
      }
    }

    /**
     * A voice (a voice reply) as Lark's audio message, after the text and in its thread: the Ogg/Opus uploaded with
     * im/v1/files (file_type opus, its duration so the client shows the length), then a message of msg_type audio
     * naming its file_key. The text has left already: a voice that cannot go is logged, never a failed delivery.
     */
    async function sendVoice(
      chatId: string,
      threadId: string | undefined,
      attachment: Attachment,
      replyTo: string | undefined,
    ): Promise<string | undefined> {
      try {
        const ready = media.available ? await media.use.voiceAs?.(attachment, 'ogg-opus') : undefined;
        if (!ready && attachment.mimeType !== 'audio/ogg') return undefined;
        const file = ready ? Buffer.from(ready.bytes) : Buffer.from(attachment.data ?? '', 'base64');
        const uploaded = await api('im/v1/files', () =>
          client.im.file.create({
            data: {
              file_type: 'opus',
              file_name: 'voice.opus',
              ...(ready ? { duration: ready.durationMs } : {}),
              file,
            },
          }),
        );
        const fileKey = uploaded?.file_key;
        if (!fileKey) throw new Error('im/v1/files answered without a file_key');
        const content = JSON.stringify({ file_key: fileKey });
        const answer = replyTo
          ? await api('im/v1/messages/reply', () =>
              client.im.message.reply({
                path: { message_id: replyTo },
                data: { msg_type: 'audio', content, ...(threadId ? { reply_in_thread: true } : {}) },
              }),
            )
          : await api('im/v1/messages', () =>
              client.im.message.create({
                params: { receive_id_type: 'chat_id' },
                data: { receive_id: chatId, msg_type: 'audio', content },
              }),
            );
        return answer.data?.message_id;
      } catch (error) {
        log.warn('Feishu/Lark: a voice reply was not sent (the text was)', { chatId, error: describeError(error) });
        return undefined;
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: LARK_PLATFORM,
        label: 'Feishu/Lark',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_LARK_API_FAILED',
        send: async (target, replyTo) => {
          const { chatId, threadId } = splitLarkChatId(target.chatId);
          for (const [index, piece] of splitMessage(message.content, settings.maxMessageLength).entries()) {
            const id = await sendPiece(chatId, threadId, piece, index === 0 ? replyTo : undefined);
            if (id) memory.sent(chatId, id);
          }
          for (const attachment of message.attachments ?? []) {
            if (attachment.type === 'image' && attachment.url) {
              // Lark shows images by image_key only (an upload); a link to it is what can be sent without one.
              const id = await sendPiece(chatId, threadId, attachment.url, undefined);
              if (id) memory.sent(chatId, id);
            } else if (attachment.type === 'audio' && attachment.data) {
              // In a thread the voice replies into it; elsewhere it follows the text (which quoted the message).
              const id = await sendVoice(chatId, threadId, attachment, threadId ? replyTo : undefined);
              if (id) memory.sent(chatId, id);
            }
          }
        },
      });
    }

    wireRoomTurns({ platform: LARK_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    runConnection(lifecycle.use, {
      label: 'Feishu/Lark',
      logger: log,
      stopping,
      state,
      run: connectLoop,
      stop: () => registration.unregister(),
    });
  },
});

/**
 * The SDK's log lines go to debug (its debug and trace lines, which echo event payloads, are dropped); a frame it
 * could not decode or merge is reported as a malformed event.
 */
function sdkLoggerFor(log: Logger, onMalformed: (reason: string) => void) {
  const write = (...message: unknown[]) => {
    const text = message
      .flat()
      .map((part) => (typeof part === 'string' ? part : sdkPart(part)))
      .join(' ');
    if (/failed to handle inbound frame|failed to merge event fragments|invalid pong payload/.test(text)) {
      onMalformed(text.replace(/^\[ws\]\s*/, ''));
      return;
    }
    log.debug(`Feishu/Lark SDK: ${text}`);
  };
  return { error: write, warn: write, info: write, debug() {}, trace() {} };
}

/** An object the SDK logs, as far as it is safe to show: an error's message, Lark's code and msg — never headers. */
function sdkPart(part: unknown): string {
  if (part instanceof Error) return part.message;
  const { code, msg } = (part ?? {}) as { code?: unknown; msg?: unknown };
  if (typeof code === 'number') return `code ${code}${typeof msg === 'string' ? ` ${msg}` : ''}`;
  return typeof part === 'object' ? '(object)' : String(part);
}
