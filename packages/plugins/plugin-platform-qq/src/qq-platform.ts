// @aalis/plugin-platform-qq: QQ's official bots (QQ Open Platform, bot API v2) — group @ messages and C2C (private)
// chats over the WebSocket gateway: op 10 Hello, op 2 Identify (or op 6 Resume with the session and the last seq
// after a drop), op 1 heartbeats acknowledged by op 11, op 0 dispatches, op 7 Reconnect, op 9 Invalid Session. Replies
// are passive (the received message's msg_id and a msg_seq, within QQ's window and count; qq-passive-replies.ts).
// People and owners are their openid for this bot (`owners: [{ platform: qq, userId: <openid> }]`). One process per
// deployment holds the gateway (a database lease); every process can send. The wire is written here on `ws`
// (docs/decisions/platform-qq.md says why no SDK).
import '@aalis/api-agent';
import type { IncomingMessage as HttpRequest, ServerResponse } from 'node:http';
import { type Receipt, StoredReceipts } from '@aalis/api-gateway';
import { media } from '@aalis/api-media';
import { type AalisError, definePlugin, describeError, optional } from '@aalis/core';
import {
  type ConnectOutcome,
  deliverToRoom,
  InboundOrder,
  keepConnected,
  keepListening,
  listenWhileHeld,
  RoomMemory,
  readCallbackBody,
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
import { WebSocket } from 'ws';
import { QqApi } from './qq-api.js';
import { qqConfigSchema } from './qq-config.js';
import { qqErrors } from './qq-errors.js';
import { type QqMessageEvent, readQqMessage } from './qq-inbound.js';
import { PassiveReplies } from './qq-passive-replies.js';
import { QqWebhookSignature } from './qq-webhook-signature.js';

/** The platform id (IncomingMessage.platform, owners' `platform`). */
export const QQ_PLATFORM = 'qq';

const PLUGIN_NAME = '@aalis/plugin-platform-qq';

/** The gateway's opcodes. */
export const QqOpcode = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const;

/** GROUP_AND_C2C_EVENT (1 << 25): group @ messages, C2C messages and the robot's group/friend events. */
export const QQ_INTENTS = 1 << 25;

/** Close codes after which the session cannot be resumed (a new Identify follows). */
const NO_RESUME = new Set([
  4006, 4007, 4008, 4009, 4900, 4901, 4902, 4903, 4904, 4905, 4906, 4907, 4908, 4909, 4910, 4911, 4912, 4913,
]);
/** The token was refused. */
const TOKEN_INVALID = 4004;
/** The bot is offline or banned on the platform: waiting longer does not help, but the console may fix it. */
const BOT_BLOCKED = new Set([4914, 4915]);

/** Events that are not messages but expected on this intent: read and left alone. */
const QUIET_EVENTS = new Set([
  'READY',
  'RESUMED',
  'GROUP_ADD_ROBOT',
  'GROUP_DEL_ROBOT',
  'GROUP_MSG_REJECT',
  'GROUP_MSG_RECEIVE',
  'FRIEND_ADD',
  'FRIEND_DEL',
  'C2C_MSG_REJECT',
  'C2C_MSG_RECEIVE',
  'INTERACTION_CREATE',
]);
const MESSAGE_EVENTS = new Set(['GROUP_AT_MESSAGE_CREATE', 'GROUP_MESSAGE_CREATE', 'C2C_MESSAGE_CREATE']);

const MAX_RETRY_MS = 60_000;
const MAX_FRAME_BYTES = 1024 * 1024;
const DEFAULT_API = 'https://api.sgroup.qq.com';
const SANDBOX_API = 'https://sandbox.api.sgroup.qq.com';

interface GatewayPayload {
  op?: number;
  d?: unknown;
  s?: number;
  t?: string;
  id?: string;
}

export default definePlugin({
  name: PLUGIN_NAME,
  uses: {
    ...roomAdapterUses,
    media: optional(media),
  },
  config: qqConfigSchema,
  apply(context) {
    const { config, logger, events, lifecycle, hooks, platform, media } = context;
    const settings = config.use;
    const log = logger.use;
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const apiBase = (settings.apiBase || (settings.sandbox ? SANDBOX_API : DEFAULT_API)).replace(/\/+$/, '');
    const state = reportPlatformState(platform, {
      id: QQ_PLATFORM,
      plugin: PLUGIN_NAME,
      endpoint: shownEndpoint(apiBase) ?? '(invalid URL)',
    });
    if (!requireSettings(state, log, 'QQ', { appId: settings.appId, clientSecret: settings.clientSecret })) return;
    const api = new QqApi({
      appId: settings.appId,
      clientSecret: settings.clientSecret,
      tokenUrl: settings.tokenUrl,
      apiBase,
      timeoutMs: settings.apiTimeoutMs,
    });
    const memory = new RoomMemory(QQ_PLATFORM);
    const passive = new PassiveReplies();
    const inbound = new InboundOrder();
    // Webhook deliveries are answered once stored; QQ's redelivery of one already stored is not stored again.
    const receipts = new StoredReceipts();
    const stopping = new AbortController();
    let selfId: string | undefined;
    const signature = new QqWebhookSignature(settings.clientSecret);
    const webhookPath = settings.webhook.path.startsWith('/') ? settings.webhook.path : `/${settings.webhook.path}`;
    const registration = roomRegistration(platform, { id: QQ_PLATFORM });
    const room = roomInbound(context, { platform: QQ_PLATFORM, label: 'QQ' });
    /** What a dropped connection resumes with. */
    let session: { id: string; seq: number | undefined } | undefined;

    function logCoded(error: AalisError, level: 'warn' | 'error' = 'warn'): void {
      log[level](error.message, { code: error.code });
    }

    /** Reads a message event and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(type: string, event: QqMessageEvent): Promise<Receipt> {
      const read = readQqMessage(type, event, selfId);
      if (!read) {
        logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: `${type} without id, chat, author or content` }));
        return 'handled';
      }
      if (read.userId === selfId) return 'handled';
      passive.receivedMessage(read.chatType, read.chatId, read.messageId);
      const addressed =
        read.chatType === 'private' ||
        read.mentionsHer ||
        (read.quoteId !== undefined && memory.isHers(read.chatId, read.quoteId));
      return room.receive({
        chatType: read.chatType,
        chatId: read.chatId,
        title: read.chatType === 'private' ? read.displayName : undefined,
        userId: read.userId,
        displayName: read.displayName,
        text: read.text,
        images: read.images,
        files: read.files,
        messageId: read.messageId,
        replyTo: read.quoteId,
        addressed,
        timestamp: read.timestamp,
      });
    }

    /** One dispatch; resolves with whether its input was stored (`failed`: QQ must deliver it again). */
    function onDispatch(type: string | undefined, data: unknown): Promise<Receipt> {
      if (type === undefined) {
        logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'a dispatch without a type' }));
        return Promise.resolve('handled');
      }
      if (MESSAGE_EVENTS.has(type)) {
        if (typeof data !== 'object' || data === null) {
          logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: `${type} without data` }));
          return Promise.resolve('handled');
        }
        const event = data as QqMessageEvent;
        const chat = type === 'C2C_MESSAGE_CREATE' ? event.author?.user_openid : event.group_openid;
        const key = `${type === 'C2C_MESSAGE_CREATE' ? 'private' : 'group'}:${chat ?? ''}`;
        return receipts.once(
          typeof event.id === 'string' ? event.id : undefined,
          () => inbound.run(key, () => receive(type, event)),
          (error) => log.error('QQ: an event failed', { error: describeError(error) }),
        );
      }
      if (QUIET_EVENTS.has(type)) {
        log.debug(`QQ: ${type}`);
        return Promise.resolve('handled');
      }
      logCoded(qqErrors.AALIS_QQ_EVENT_UNKNOWN({ type: type.slice(0, 80) }));
      return Promise.resolve('handled');
    }

    /**
     * One gateway connection, until it closes: whether it got READY/RESUMED, failed, or the bot was refused (a throw:
     * the gateway's address could not be fetched).
     */
    async function connectOnce(held: AbortSignal): Promise<ConnectOutcome> {
      const token = await api.accessToken();
      const url = (await api.call<{ url?: string }>('GET', '/gateway'))?.url ?? '';
      if (!url) throw qqErrors.AALIS_QQ_API_FAILED({ method: 'GET', path: '/gateway', status: 200, reason: 'no url' });
      return new Promise((resolve) => {
        const socket = new WebSocket(url, { handshakeTimeout: settings.apiTimeoutMs, maxPayload: MAX_FRAME_BYTES });
        let outcome: ConnectOutcome = 'failed';
        let heartbeat: ReturnType<typeof setInterval> | undefined;
        let acknowledged = true;
        const stop = () => socket.close(1000);
        held.addEventListener('abort', stop, { once: true });
        const send = (payload: GatewayPayload) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
        };
        socket.on('message', (data, isBinary) => {
          const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).length;
          if (isBinary) {
            logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'a binary frame' }));
            return;
          }
          let payload: GatewayPayload;
          try {
            payload = JSON.parse(String(data)) as GatewayPayload;
          } catch {
            logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: `not JSON (${size} bytes)` }));
            return;
          }
          if (typeof payload !== 'object' || payload === null) {
            logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'not an object' }));
            return;
          }
          if (typeof payload.s === 'number' && session) session.seq = payload.s;
          switch (payload.op) {
            case QqOpcode.HELLO: {
              const interval = Number((payload.d as { heartbeat_interval?: number } | undefined)?.heartbeat_interval);
              const every = Number.isFinite(interval) && interval >= 100 ? interval : 41_250;
              heartbeat = setInterval(() => {
                if (!acknowledged) {
                  log.warn('QQ: the gateway stopped acknowledging heartbeats; reconnecting');
                  socket.terminate();
                  return;
                }
                acknowledged = false;
                send({ op: QqOpcode.HEARTBEAT, d: session?.seq ?? null });
              }, every);
              heartbeat.unref?.();
              if (session) {
                send({
                  op: QqOpcode.RESUME,
                  d: { token: `QQBot ${token}`, session_id: session.id, seq: session.seq ?? 0 },
                });
              } else {
                send({
                  op: QqOpcode.IDENTIFY,
                  d: {
                    token: `QQBot ${token}`,
                    intents: QQ_INTENTS,
                    shard: [0, 1],
                    properties: { $os: process.platform, $browser: 'aalis', $device: 'aalis' },
                  },
                });
              }
              break;
            }
            case QqOpcode.HEARTBEAT_ACK:
              acknowledged = true;
              break;
            case QqOpcode.HEARTBEAT:
              send({ op: QqOpcode.HEARTBEAT, d: session?.seq ?? null });
              break;
            case QqOpcode.RECONNECT:
              log.info('QQ: the gateway asked for a reconnect');
              socket.close(4000);
              break;
            case QqOpcode.INVALID_SESSION:
              log.info('QQ: the gateway said the session is invalid; identifying anew');
              session = undefined;
              socket.close(4000);
              break;
            case QqOpcode.DISPATCH: {
              if (payload.t === 'READY') {
                const ready = payload.d as
                  | { session_id?: string; user?: { id?: string; username?: string } }
                  | undefined;
                if (!ready?.session_id) {
                  logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'READY without session_id' }));
                  break;
                }
                session = { id: ready.session_id, seq: payload.s };
                selfId = ready.user?.id ?? selfId;
                outcome = 'ready';
                state.set({ status: 'connected' });
                registration.register(selfId);
                log.info(`QQ: connected as ${ready.user?.username ?? '?'} (${selfId ?? '?'})`);
              } else if (payload.t === 'RESUMED') {
                outcome = 'ready';
                state.set({ status: 'connected' });
                log.info('QQ: the gateway session resumed');
              }
              void onDispatch(payload.t, payload.d);
              break;
            }
            default:
              logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: `unknown op ${String(payload.op)}` }));
          }
        });
        socket.on('error', (error) => {
          const tooLarge = /max payload|too big/i.test(describeError(error));
          if (tooLarge) logCoded(qqErrors.AALIS_QQ_MESSAGE_TOO_LARGE({ size: '>', limit: MAX_FRAME_BYTES }));
          else log.debug('QQ: socket error', { error: describeError(error) });
        });
        socket.on('close', (code) => {
          clearInterval(heartbeat);
          held.removeEventListener('abort', stop);
          if (NO_RESUME.has(code)) session = undefined;
          if (code === TOKEN_INVALID) {
            // A token refused by the gateway is fetched anew; refused twice in a row it is the credentials.
            api.dropToken();
            session = undefined;
          }
          if (BOT_BLOCKED.has(code)) {
            const error = qqErrors.AALIS_QQ_CREDENTIALS_REJECTED({
              reason: `the gateway closed with ${code} (the bot is offline or banned)`,
            });
            logCoded(error, 'error');
            state.set({ status: 'refused', configKey: state.configKey('appId'), error: stateError(error) });
            resolve('refused');
            return;
          }
          resolve(outcome);
        });
      });
    }

    const connectLoop = () =>
      keepConnected(context, {
        label: 'QQ',
        state,
        name: `platform:qq:${settings.appId}`,
        stopping: stopping.signal,
        attempt: connectOnce,
        refusedKey: (error) => (qqErrors.AALIS_QQ_CREDENTIALS_REJECTED.is(error) ? 'clientSecret' : undefined),
        what: 'the gateway connection',
      });

    /** Webhook mode: one callback (op 13 the URL check, op 0 a dispatch), answered as QQ expects. */
    async function handleCallback(request: HttpRequest, response: ServerResponse): Promise<void> {
      const reply = (status: number, value?: unknown) => {
        if (value === undefined) response.writeHead(status).end();
        else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      if (new URL(request.url ?? '/', 'http://callback').pathname !== webhookPath) return reply(404);
      if (request.method !== 'POST') return reply(405);
      const bytes = await readCallbackBody(request, settings.webhook.maxBodyBytes);
      if (bytes === undefined) {
        logCoded(
          qqErrors.AALIS_QQ_MESSAGE_TOO_LARGE({
            size: `> ${settings.webhook.maxBodyBytes}`,
            limit: settings.webhook.maxBodyBytes,
          }),
        );
        return reply(413);
      }
      const body = bytes.toString('utf8');
      const timestamp = String(request.headers['x-signature-timestamp'] ?? '');
      const signed = String(request.headers['x-signature-ed25519'] ?? '');
      let payload: GatewayPayload;
      try {
        payload = JSON.parse(body) as GatewayPayload;
        if (typeof payload !== 'object' || payload === null) throw new Error('not an object');
      } catch {
        logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'a callback body that is not a JSON object' }));
        return reply(400);
      }
      // The URL check proves the secret by signing what QQ sends; every event must carry QQ's own signature.
      if (payload.op === 13) {
        const check = payload.d as { plain_token?: unknown; event_ts?: unknown } | undefined;
        if (typeof check?.plain_token !== 'string' || typeof check.event_ts !== 'string') {
          logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: 'a URL check without plain_token or event_ts' }));
          return reply(400);
        }
        log.info('QQ: the webhook address was checked');
        return reply(200, {
          plain_token: check.plain_token,
          signature: signature.sign(`${check.event_ts}${check.plain_token}`),
        });
      }
      if (!signature.verify(timestamp, body, signed)) {
        logCoded(qqErrors.AALIS_QQ_SIGNATURE_INVALID());
        return reply(401);
      }
      if (payload.op !== QqOpcode.DISPATCH) {
        logCoded(qqErrors.AALIS_QQ_EVENT_MALFORMED({ reason: `unknown op ${String(payload.op)}` }));
        return reply(200, { op: 12 });
      }
      // Acknowledged only once stored: an input that could not be stored is answered 503, so QQ delivers it again.
      if ((await onDispatch(payload.t, payload.d)) === 'failed') {
        log.warn('QQ: an event could not be stored; answered 503 so that QQ delivers it again');
        return reply(503);
      }
      // op 12: the HTTP callback's acknowledgement.
      return reply(200, { op: 12 });
    }

    function listenWebhook(held: AbortSignal): Promise<void> {
      return listenWhileHeld({
        host: settings.webhook.host,
        port: settings.webhook.port,
        held,
        handle: handleCallback,
        logger: log,
        failed: 'QQ: a callback failed',
        listenFailed: (error) => {
          const failure = qqErrors.AALIS_QQ_LISTEN_FAILED({
            address: `${settings.webhook.host}:${settings.webhook.port}`,
            reason: describeError(error),
          });
          logCoded(failure, 'error');
          state.set({
            status: 'reconnecting',
            configKey: state.configKey('webhook.port'),
            error: stateError(failure),
            nextAttemptAt: Date.now() + MAX_RETRY_MS / 60,
          });
        },
        listening: (port) => {
          const address = `http://${settings.webhook.host}:${port}${webhookPath}`;
          state.set({ status: 'connected', endpoint: address });
          registration.register();
          log.info(`QQ: listening for webhook callbacks on ${address}`);
        },
      });
    }

    const webhookLoop = () =>
      keepListening(context, {
        state,
        name: `platform:qq:${settings.appId}`,
        stopping: stopping.signal,
        retryMs: MAX_RETRY_MS / 60,
        listen: listenWebhook,
      });

    /** Sends one message to the chat, passive when a received message can still be answered. */
    async function post(
      chatType: 'group' | 'private',
      chatId: string,
      body: Record<string, unknown>,
      replyTo: string | undefined,
    ): Promise<string | undefined> {
      const base =
        chatType === 'group' ? `/v2/groups/${encodeURIComponent(chatId)}` : `/v2/users/${encodeURIComponent(chatId)}`;
      const reply = passive.next(chatId, replyTo);
      const sent = await api.call<{ id?: string }>('POST', `${base}/messages`, {
        ...body,
        ...(reply ? { msg_id: reply.msgId, msg_seq: reply.seq } : {}),
      });
      if (sent?.id) memory.sent(chatId, String(sent.id));
      return sent?.id;
    }

    async function sendText(chatType: 'group' | 'private', chatId: string, text: string, replyTo: string | undefined) {
      if (settings.markdown) {
        try {
          await post(chatType, chatId, { msg_type: 2, markdown: { content: text } }, replyTo);
          return;
        } catch (error) {
          // No Markdown permission (or a text QQ's Markdown refuses): the same words as plain text.
          log.info(`QQ: Markdown was refused (${describeError(error)}); sending plain text`);
        }
      }
      await post(chatType, chatId, { msg_type: 0, content: text }, replyTo);
    }

    async function sendImage(
      chatType: 'group' | 'private',
      chatId: string,
      image: { url?: string; data?: string },
      replyTo: string | undefined,
    ) {
      const base =
        chatType === 'group' ? `/v2/groups/${encodeURIComponent(chatId)}` : `/v2/users/${encodeURIComponent(chatId)}`;
      const uploaded = await api.call<{ file_info?: string }>('POST', `${base}/files`, {
        file_type: 1,
        ...(image.url && /^https?:/.test(image.url) ? { url: image.url } : { file_data: image.data ?? '' }),
        srv_send_msg: false,
      });
      if (!uploaded?.file_info) return;
      await post(chatType, chatId, { msg_type: 7, content: ' ', media: { file_info: uploaded.file_info } }, replyTo);
    }

    /**
     * A voice (a voice reply) as QQ's voice message, after the text: QQ takes voices in SILK only, so media.voiceAs
     * encodes the Ogg/Opus (silk-wasm), which is uploaded as rich media (file_type 3, file_data) and sent as msg_type 7
     * naming its file_info, passive like the text. Without the media service nothing can encode it: no voice. The
     * text has left already: a voice that cannot go is logged, never a failed delivery.
     */
    async function sendVoice(
      chatType: 'group' | 'private',
      chatId: string,
      attachment: Attachment,
      replyTo: string | undefined,
    ) {
      try {
        const silk = media.available ? await media.use.voiceAs?.(attachment, 'silk') : undefined;
        if (!silk) return;
        const base =
          chatType === 'group' ? `/v2/groups/${encodeURIComponent(chatId)}` : `/v2/users/${encodeURIComponent(chatId)}`;
        const uploaded = await api.call<{ file_info?: string }>('POST', `${base}/files`, {
          file_type: 3,
          file_data: Buffer.from(silk.bytes).toString('base64'),
          srv_send_msg: false,
        });
        if (!uploaded?.file_info) throw new Error('the upload answered no file_info');
        await post(chatType, chatId, { msg_type: 7, content: ' ', media: { file_info: uploaded.file_info } }, replyTo);
      } catch (error) {
        log.warn('QQ: a voice reply was not sent (the text was)', { chatId, error: describeError(error) });
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: QQ_PLATFORM,
        label: 'QQ',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_QQ_API_FAILED',
        send: async (target, replyTo) => {
          for (const piece of splitMessage(message.content, settings.maxMessageLength)) {
            if (piece.trim() === '') continue;
            await sendText(target.chatType, target.chatId, piece, replyTo);
          }
          for (const attachment of message.attachments ?? []) {
            if (attachment.type === 'image' && (attachment.url || attachment.data)) {
              await sendImage(target.chatType, target.chatId, attachment, replyTo);
            } else if (attachment.type === 'audio' && attachment.data) {
              await sendVoice(target.chatType, target.chatId, attachment, replyTo);
            }
          }
        },
      });
    }

    wireRoomTurns({ platform: QQ_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    runConnection(lifecycle.use, {
      label: 'QQ',
      logger: log,
      stopping,
      state,
      run: settings.mode === 'webhook' ? webhookLoop : connectLoop,
      stop: () => registration.unregister(),
    });
  },
});
