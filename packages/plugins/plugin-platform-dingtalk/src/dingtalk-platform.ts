// @aalis/plugin-platform-dingtalk: DingTalk robots in Stream mode — group @ messages and single chats over the
// Stream socket (dingtalk-stream's client: the connection opened at gatewayUrl with the app's credentials, the robot
// message callback acknowledged at once so DingTalk does not deliver it again), answered through the chat's session
// webhook while it is valid and through the robot API after. People and owners are their user id in the
// organisation (`owners: [{ platform: dingtalk, userId: <staff id> }]`). One process per deployment holds the socket
// (a database lease); every process can send.
import '@aalis/api-agent';
import { type Receipt, StoredReceipts } from '@aalis/api-gateway';
import { media } from '@aalis/api-media';
import { type AalisError, definePlugin, describeError, optional, setBounded } from '@aalis/core';
import {
  type ConnectOutcome,
  deliverToRoom,
  type InboundFile,
  InboundOrder,
  keepConnected,
  RoomMemory,
  reportPlatformState,
  requireSettings,
  roomAdapterUses,
  roomInbound,
  roomRegistration,
  runConnection,
  shownEndpoint,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { Attachment, OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import type { DWClientDownStream } from 'dingtalk-stream';
import { WebSocket } from 'ws';
import { DingtalkApi, type DingtalkContent } from './dingtalk-api.js';
import { dingtalkConfigSchema } from './dingtalk-config.js';
import { dingtalkErrors } from './dingtalk-errors.js';
import { type DingtalkRobotMessage, readDingtalkMessage } from './dingtalk-inbound.js';
import { StreamConnection, TOPIC_ROBOT } from './dingtalk-stream-connection.js';

/** The platform id (IncomingMessage.platform, owners' `platform`). */
export const DINGTALK_PLATFORM = 'dingtalk';

const PLUGIN_NAME = '@aalis/plugin-platform-dingtalk';
/** A session webhook this close to its expiry is not used any more. */
const WEBHOOK_MARGIN_MS = 5_000;
/** DingTalk plays voice messages of at most a minute. */
const MAX_VOICE_MS = 60_000;
const MAX_REMEMBERED = 5_000;

interface ChatInfo {
  chatType: 'group' | 'private';
  webhook?: { url: string; expiresAt: number };
  /** For a single chat: the person, whom the API sends to. */
  userId?: string;
}

/** A Markdown message's title (DingTalk shows it in notifications): its first words, without Markdown marks. */
export function markdownTitle(text: string): string {
  const first = text.split('\n').find((line) => line.trim() !== '') ?? '';
  const plain = first.replace(/[#>*_`~[\]()!|-]/g, '').trim();
  return plain.length > 20 ? `${plain.slice(0, 20)}…` : plain || '…';
}

export default definePlugin({
  name: PLUGIN_NAME,
  uses: {
    ...roomAdapterUses,
    media: optional(media),
  },
  config: dingtalkConfigSchema,
  apply(context) {
    const { config, logger, events, lifecycle, hooks, platform, media } = context;
    const settings = config.use;
    const log = logger.use;
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: DINGTALK_PLATFORM,
      plugin: PLUGIN_NAME,
      endpoint: shownEndpoint(settings.gatewayUrl) ?? '(invalid URL)',
    });
    const required = { clientId: settings.clientId, clientSecret: settings.clientSecret };
    if (!requireSettings(state, log, 'DingTalk', required)) return;
    const api = new DingtalkApi({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      robotCode: settings.robotCode || settings.clientId,
      apiBase: settings.apiBase,
      oapiBase: settings.oapiBase,
      timeoutMs: settings.apiTimeoutMs,
    });
    const memory = new RoomMemory(DINGTALK_PLATFORM);
    const inbound = new InboundOrder();
    const stopping = new AbortController();
    const chats = new Map<string, ChatInfo>();
    /** Who sent each message (a group reply @-mentions the person it answers) and its session webhook. */
    const senders = new Map<string, { userId: string; webhook?: { url: string; expiresAt: number } }>();
    /**
     * Messages already read, by msgId: DingTalk delivers again what was not acknowledged (a callback is acknowledged
     * only once its input is stored), and a message stored once is not stored again.
     */
    const receipts = new StoredReceipts();
    let selfId: string | undefined;
    const registration = roomRegistration(platform, { id: DINGTALK_PLATFORM });
    const room = roomInbound(context, { platform: DINGTALK_PLATFORM, label: 'DingTalk' });

    const logCoded = (error: AalisError, level: 'warn' | 'error' = 'warn') =>
      log[level](error.message, { code: error.code });

    const connection = new StreamConnection({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      gatewayUrl: settings.gatewayUrl,
      timeoutMs: settings.apiTimeoutMs,
      onBadFrame: (error) => log.warn(error.message, { code: error.code }),
    });

    async function downloads(read: NonNullable<ReturnType<typeof readDingtalkMessage>>) {
      const images: ({ url: string; shownUrl?: string } | { unavailable: string })[] = [];
      const files: InboundFile[] = [];
      for (const item of read.downloads) {
        let url: string | undefined;
        let reason = '';
        try {
          url = await api.downloadUrl(item.downloadCode);
        } catch (error) {
          reason = describeError(error);
        }
        const shownUrl = '(DingTalk file)';
        if (item.type === 'image') images.push(url ? { url, shownUrl } : { unavailable: reason });
        else {
          const name = item.name ? { name: item.name } : {};
          files.push(
            url ? { type: item.type, url, shownUrl, ...name } : { type: item.type, unavailable: reason, ...name },
          );
        }
      }
      return { images, files };
    }

    /** Reads a robot message and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(message: DingtalkRobotMessage): Promise<Receipt> {
      const read = readDingtalkMessage(message);
      if (!read) {
        logCoded(
          dingtalkErrors.AALIS_DINGTALK_EVENT_MALFORMED({
            reason: `a robot message without conversation, sender, msgId or a readable ${String(message.msgtype ?? 'msgtype')}`,
          }),
        );
        return 'handled';
      }
      if (message.chatbotUserId) selfId = message.chatbotUserId;
      registration.register(selfId);
      const previous = chats.get(read.chatId);
      const chat: ChatInfo = {
        chatType: read.chatType,
        ...((read.webhook ?? previous?.webhook) ? { webhook: read.webhook ?? previous?.webhook } : {}),
        ...(read.chatType === 'private' ? { userId: read.userId } : {}),
      };
      setBounded(chats, read.chatId, chat, MAX_REMEMBERED);
      const sender = { userId: read.userId, ...(read.webhook ? { webhook: read.webhook } : {}) };
      setBounded(senders, read.messageId, sender, MAX_REMEMBERED);
      const addressed =
        read.chatType === 'private' ||
        read.mentionsHer ||
        read.quotesHer ||
        (read.quoteId !== undefined && memory.isHers(read.chatId, read.quoteId));
      return room.receive({
        chatType: read.chatType,
        chatId: read.chatId,
        title: read.chatType === 'private' ? read.displayName : read.title,
        userId: read.userId,
        displayName: read.displayName,
        text: read.text,
        ...(await downloads(read)),
        messageId: read.messageId,
        replyTo: read.quoteId,
        addressed,
        timestamp: read.timestamp,
      });
    }

    connection.on(TOPIC_ROBOT, (downstream: DWClientDownStream) => {
      const messageId = downstream.headers?.messageId;
      const acknowledge = () => {
        if (messageId) connection.acknowledge(messageId);
      };
      let message: DingtalkRobotMessage;
      try {
        const parsed: unknown = JSON.parse(String(downstream.data));
        if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
        message = parsed as DingtalkRobotMessage;
      } catch {
        logCoded(
          dingtalkErrors.AALIS_DINGTALK_EVENT_MALFORMED({ reason: 'the robot message data is not a JSON object' }),
        );
        acknowledge();
        return;
      }
      // Acknowledged once its input is stored; one that could not be stored is left unacknowledged, so DingTalk
      // delivers it again.
      void receipts
        .once(
          typeof message.msgId === 'string' ? message.msgId : undefined,
          () => inbound.run(String(message.conversationId ?? ''), () => receive(message)),
          (error) => log.error('DingTalk: a message failed', { error: describeError(error) }),
        )
        .then((receipt) => {
          if (receipt !== 'failed') acknowledge();
          else
            log.warn('DingTalk: a message could not be stored; not acknowledged, so that DingTalk delivers it again');
        });
    });

    /** One Stream connection, until it closes (a throw: it could not be opened). */
    async function connectOnce(held: AbortSignal): Promise<ConnectOutcome> {
      await connection.getEndpoint();
      state.endpoint = connection.shownEndpoint() ?? state.endpoint;
      return new Promise((resolve) => {
        const socket = connection.open();
        let outcome: ConnectOutcome = 'failed';
        let answered = Date.now();
        const ping = setInterval(() => {
          if (Date.now() - answered > settings.pingIntervalMs * 2) {
            log.warn('DingTalk: the Stream socket stopped answering pings; reconnecting');
            socket.terminate();
            return;
          }
          if (socket.readyState === WebSocket.OPEN) socket.ping();
        }, settings.pingIntervalMs);
        ping.unref?.();
        const stop = () => socket.close(1000);
        held.addEventListener('abort', stop, { once: true });
        socket.on('open', () => {
          outcome = 'ready';
          answered = Date.now();
          state.set({ status: 'connected' });
          log.info(`DingTalk: connected (Stream mode, ${state.endpoint})`);
        });
        socket.on('pong', () => {
          answered = Date.now();
        });
        socket.on('message', () => {
          answered = Date.now();
        });
        socket.on('error', (error) => log.debug('DingTalk: socket error', { error: describeError(error) }));
        socket.on('close', () => {
          clearInterval(ping);
          held.removeEventListener('abort', stop);
          resolve(outcome);
        });
      });
    }

    const connectLoop = () =>
      keepConnected(context, {
        label: 'DingTalk',
        state,
        name: `platform:dingtalk:${settings.clientId}`,
        stopping: stopping.signal,
        attempt: connectOnce,
        refusedKey: (error) =>
          dingtalkErrors.AALIS_DINGTALK_CREDENTIALS_REJECTED.is(error) ? 'clientSecret' : undefined,
        what: 'the Stream connection',
      });

    const usable = (webhook: { url: string; expiresAt: number } | undefined) =>
      webhook && webhook.expiresAt - WEBHOOK_MARGIN_MS > Date.now() ? webhook : undefined;

    async function sendPiece(
      chatId: string,
      chat: ChatInfo | undefined,
      text: string,
      answering: string | undefined,
      at: string | undefined,
    ) {
      // The webhook of the message she answers, else the chat's latest one, else the robot API.
      const webhook = usable(answering ? senders.get(answering)?.webhook : undefined) ?? usable(chat?.webhook);
      const send = async (content: DingtalkContent) => {
        if (webhook) {
          const mention = at ? `@${at} ` : '';
          await api.sendByWebhook(webhook.url, { ...content, text: `${mention}${content.text}` }, at ? [at] : []);
        } else if ((chat?.chatType ?? 'group') === 'private') {
          if (!chat?.userId) {
            throw dingtalkErrors.AALIS_DINGTALK_API_FAILED({
              what: 'oToMessages/batchSend',
              status: 0,
              reason: `no user for ${chatId}`,
            });
          }
          await api.sendByApi({ userId: chat.userId }, content);
        } else {
          await api.sendByApi({ group: chatId }, content);
        }
      };
      if (settings.markdown) {
        try {
          await send({ kind: 'markdown', title: markdownTitle(text), text });
          return;
        } catch (error) {
          if (!dingtalkErrors.AALIS_DINGTALK_API_FAILED.is(error) || (error.statusCode ?? 0) >= 500) throw error;
          log.info(`DingTalk: Markdown was refused (${describeError(error)}); sending plain text`);
        }
      }
      await send({ kind: 'text', text });
    }

    /**
     * A voice (a voice reply) as DingTalk's voice message, after the text: session webhooks carry no audio, so the
     * Ogg/Opus is uploaded to media/upload (type voice) and sent through the robot API as sampleAudio with its length
     * (media.voiceAs measures it; without the media service there is no length and no voice). DingTalk plays voices
     * of at most 60 s. The text has left already: a voice that cannot go is logged, never a failed delivery.
     */
    async function sendVoice(chatId: string, chat: ChatInfo | undefined, attachment: Attachment): Promise<void> {
      try {
        const ready = media.available ? await media.use.voiceAs?.(attachment, 'ogg-opus') : undefined;
        if (!ready) return;
        if (ready.durationMs > MAX_VOICE_MS) {
          log.info(
            `DingTalk: a voice of ${Math.round(ready.durationMs / 1000)} s is longer than DingTalk plays; not sent`,
          );
          return;
        }
        const private_ = (chat?.chatType ?? 'group') === 'private';
        if (private_ && !chat?.userId) return;
        const mediaId = await api.uploadMedia('voice', ready.bytes, 'voice.ogg', ready.mimeType);
        await api.sendAudioByApi(private_ ? { userId: chat!.userId! } : { group: chatId }, mediaId, ready.durationMs);
      } catch (error) {
        log.warn('DingTalk: a voice reply was not sent (the text was)', { chatId, error: describeError(error) });
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: DINGTALK_PLATFORM,
        label: 'DingTalk',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_DINGTALK_API_FAILED',
        send: async (target, replyTo) => {
          const chat = chats.get(target.chatId) ?? { chatType: target.chatType };
          // DingTalk robots cannot quote: a group reply @-mentions the person whose message it answers.
          const at = target.chatType === 'group' && replyTo ? senders.get(replyTo)?.userId : undefined;
          const pieces = splitMessage(message.content, settings.maxMessageLength).filter(
            (piece) => piece.trim() !== '',
          );
          for (const [index, piece] of pieces.entries()) {
            await sendPiece(target.chatId, chat, piece, replyTo, index === 0 ? at : undefined);
          }
          for (const attachment of message.attachments ?? []) {
            if (attachment.type === 'image' && attachment.url && /^https?:/.test(attachment.url)) {
              await sendPiece(target.chatId, chat, `![image](${attachment.url})`, replyTo, undefined);
            } else if (attachment.type === 'audio' && attachment.data) {
              await sendVoice(target.chatId, chat, attachment);
            }
          }
        },
      });
    }

    wireRoomTurns({ platform: DINGTALK_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    runConnection(lifecycle.use, {
      label: 'DingTalk',
      logger: log,
      stopping,
      state,
      run: connectLoop,
      stop: () => registration.unregister(),
      ended: () => connection.removeAllListeners(),
    });
  },
});
