// @aalis/plugin-platform-satori: every chat platform a Satori server bridges (Koishi's adapters, Chronocat and
// others) through the Satori protocol — the event socket (<endpoint>/events: IDENTIFY with the token and the last
// event's sn, READY with the logins, PING every pingIntervalMs, EVENT) and the HTTP API (message.create). Each bridged
// platform's channels are rooms: a direct channel a private chat, the rest groups; an `at` of her, a quote of her
// message or her name addresses her. People are `<platform>:<user id>` on platform `satori` (owners too). One process
// per deployment holds the socket (a database lease); every process can send.
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { tools } from '@aalis/api-tools';
import { AalisError, definePlugin, describeError, optional } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  ensureRoomSession,
  holdConnection,
  InboundOrder,
  ownerRequestsOptions,
  RoomMemory,
  reconnectWhile,
  reportPlatformState,
  requireSettings,
  roomAdapterUses,
  roomInbound,
  roomRegistration,
  stateError,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { Attachment, OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { WebSocket } from 'ws';
import { SatoriApi, type SatoriLogin } from './satori-api.js';
import { satoriConfigSchema } from './satori-config.js';
import { readContent, writeContent } from './satori-elements.js';
import { SatoriRequests } from './satori-requests.js';
import { satoriErrors } from './satori-texts.js';

/** The platform id of every bridged chat (IncomingMessage.platform, owners' `platform`). */
export const SATORI_PLATFORM = 'satori';

/** The gateway's opcodes (Satori protocol). */
const Opcode = { EVENT: 0, PING: 1, PONG: 2, IDENTIFY: 3, READY: 4, META: 5 } as const;

/** Satori's channel type of a direct (private) channel. */
const DIRECT_CHANNEL = 1;

const MAX_RETRY_MS = 60_000;

interface WireLogin {
  sn?: number;
  platform?: string;
  self_id?: string;
  user?: { id?: string; name?: string };
}

interface WireEvent {
  sn?: number;
  /** Before Satori 1.1 events named their login by these two. */
  platform?: string;
  self_id?: string;
  login?: WireLogin;
  type?: string;
  timestamp?: number;
  channel?: { id?: string; type?: number; name?: string };
  guild?: { id?: string; name?: string };
  user?: { id?: string; name?: string; nick?: string };
  member?: { nick?: string; name?: string };
  message?: { id?: string; content?: string; quote?: { id?: string } };
}

function loginOf(wire: WireLogin | undefined): SatoriLogin | undefined {
  const platformName = wire?.platform;
  const userId = wire?.user?.id ?? wire?.self_id;
  return platformName && userId ? { platform: platformName, userId: String(userId) } : undefined;
}

/** `<bridged platform>:<channel id>`: the room's chat id (channel ids are only unique within a platform). */
function chatIdOf(platformName: string, channelId: string): string {
  return `${platformName}:${channelId}`;
}

function splitChatId(chatId: string): { platform: string; channelId: string } | undefined {
  const colon = chatId.indexOf(':');
  return colon > 0 ? { platform: chatId.slice(0, colon), channelId: chatId.slice(colon + 1) } : undefined;
}

export default definePlugin({
  name: '@aalis/plugin-platform-satori',
  uses: {
    ...roomAdapterUses,
    authority: optional(authority),
    tools: optional(tools),
  },
  config: satoriConfigSchema,
  apply(context) {
    const {
      config,
      logger,
      events,
      i18n,
      lifecycle,
      gateway,
      hooks,
      sessionManager,
      platform,
      storage,
      authority,
      tools,
    } = context;
    const settings = config.use;
    const log = logger.use;
    const endpoint = settings.endpoint.replace(/\/+$/, '');
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: SATORI_PLATFORM,
      plugin: PLUGIN_NAME,
      endpoint,
    });
    const missingEndpoint = () => satoriErrors.AALIS_SATORI_ENDPOINT_MISSING();
    if (!requireSettings(state, log, 'Satori', { endpoint: settings.endpoint }, missingEndpoint)) return;
    const api = new SatoriApi({ endpoint, token: settings.token, timeoutMs: settings.apiTimeoutMs });
    const memory = new RoomMemory(SATORI_PLATFORM);
    const inbound = new InboundOrder();
    const stopping = new AbortController();
    /** Her account on each bridged platform, from READY (or the meta API in a process without the socket). */
    const logins = new Map<string, SatoriLogin>();
    let lastSn: number | undefined;
    const registration = roomRegistration(platform, { id: SATORI_PLATFORM });
    const room = roomInbound(context, { platform: SATORI_PLATFORM, label: 'Satori' });

    function remember(wire: WireLogin | undefined): void {
      const login = loginOf(wire);
      if (!login) return;
      logins.set(login.platform, login);
      registration.register(`${login.platform}:${login.userId}`);
    }

    async function loginFor(platformName: string): Promise<SatoriLogin | undefined> {
      const known = logins.get(platformName);
      if (known) return known;
      // A process without the socket learns the logins from the server's meta.
      try {
        const meta = await api.call<{ logins?: WireLogin[] }>('meta', {}, { platform: platformName, userId: '' });
        for (const wire of meta?.logins ?? []) remember(wire);
      } catch (error) {
        log.debug('Satori: meta failed', { error: describeError(error) });
      }
      return logins.get(platformName);
    }

    /** Friend requests and invitations, put to the owners in their private chats with her. */
    const requests = new SatoriRequests({
      ...ownerRequestsOptions({
        platform: SATORI_PLATFORM,
        owners: () => (authority.available ? authority.use.owners() : []),
        sessionManager,
        gateway,
        storage,
        logger: log,
      }),
      // An owner is '<platform>:<user id>'; her private chat with them is a direct channel of its own id.
      ownerSession: async (owner) => {
        const where = splitChatId(owner);
        const login = where ? await loginFor(where.platform) : undefined;
        let channelId = where?.channelId;
        if (where && login) {
          const channel = await api
            .call<{ id?: string }>('user.channel.create', { user_id: where.channelId }, login)
            .catch((error: unknown) =>
              log.warn('Satori: no direct channel with an owner', { error: describeError(error) }),
            );
          if (channel?.id) channelId = String(channel.id);
        }
        return ensureRoomSession({
          sessionManager: sessionManager.available ? sessionManager.use : undefined,
          platform: SATORI_PLATFORM,
          chatType: 'private',
          chatId: where ? chatIdOf(where.platform, channelId ?? where.channelId) : owner,
          logger: log,
        });
      },
      rules: settings.requests,
      call: (method, body, login) => api.call(method, body, login),
      t: (text) => i18n.use.t(text),
      logger: log,
    });
    if (tools.available) tools.use.register(requests.tool());

    async function receive(event: WireEvent): Promise<void> {
      const login =
        loginOf(event.login) ??
        (event.platform && event.self_id ? { platform: event.platform, userId: event.self_id } : undefined);
      const channelId = event.channel?.id;
      const userId = event.user?.id;
      const message = event.message;
      if (!login || !channelId || !userId || !message?.id || typeof message.content !== 'string') {
        const error = satoriErrors.AALIS_SATORI_EVENT_MALFORMED({
          reason: 'a message-created event without login, channel, user or message',
        });
        log.warn(error.message, { code: error.code });
        return;
      }
      if (String(userId) === login.userId) return; // her own message, echoed back
      const chatType: ChatType = event.channel?.type === DIRECT_CHANNEL ? 'private' : 'group';
      const chatId = chatIdOf(login.platform, String(channelId));
      const read = readContent(message.content, login.userId);
      const quoteId = message.quote?.id ?? read.quoteId;
      const addressed =
        chatType === 'private' || read.mentionsHer || (quoteId !== undefined && memory.isHers(chatId, String(quoteId)));
      const displayName = event.member?.nick || event.user?.nick || event.user?.name;
      const incoming = await room.incoming({
        chatType,
        chatId,
        title: chatType === 'private' ? displayName : (event.guild?.name ?? event.channel?.name),
        userId: `${login.platform}:${userId}`,
        displayName,
        text: read.text,
        images: read.images.map((url) => ({ url })),
        files: read.files,
        messageId: String(message.id),
        replyTo: quoteId !== undefined ? String(quoteId) : undefined,
        addressed,
        timestamp: typeof event.timestamp === 'number' ? event.timestamp : Date.now(),
      });
      // Handed over, not awaited: the chat's next message must reach the gateway before this turn ends (to join it).
      void room.store(incoming);
    }

    function onEvent(event: WireEvent): void {
      if (typeof event.sn === 'number') lastSn = event.sn;
      if (event.login && (event.type === 'login-added' || event.type === 'login-updated')) remember(event.login);
      if (SatoriRequests.handles(event.type)) {
        const login =
          loginOf(event.login) ??
          (event.platform && event.self_id ? { platform: event.platform, userId: event.self_id } : undefined);
        void (login ? requests.handle(event, login) : Promise.resolve(false))
          .then((handled) => {
            if (handled) return;
            const error = satoriErrors.AALIS_SATORI_EVENT_MALFORMED({
              reason: `a ${event.type} event without login, user, guild or message id`,
            });
            log.warn(error.message, { code: error.code });
          })
          .catch((error: unknown) =>
            log.error('Satori: a request could not be handled', { error: describeError(error) }),
          );
        return;
      }
      if (event.type !== 'message-created') return;
      const chat = event.login?.platform ?? event.platform ?? '';
      void inbound
        .run(chatIdOf(chat, String(event.channel?.id ?? '')), () => receive(event))
        .catch((error: unknown) => log.error('Satori: an event failed', { error: describeError(error) }));
    }

    /** One connection of the event socket, until it closes. Resolves true when READY came (a healthy session). */
    function connectOnce(held: AbortSignal): Promise<boolean> {
      return new Promise((resolve) => {
        const url = `${endpoint.replace(/^http/, 'ws')}/events`;
        const socket = new WebSocket(url, { handshakeTimeout: settings.apiTimeoutMs });
        let ready = false;
        let opened = false;
        let failure = '';
        let answered = Date.now();
        const ping = setInterval(() => {
          if (Date.now() - answered > settings.pingIntervalMs * 2) {
            log.warn('Satori: the event socket stopped answering pings; reconnecting');
            socket.terminate();
            return;
          }
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: Opcode.PING, body: {} }));
        }, settings.pingIntervalMs);
        ping.unref?.();
        const stop = () => socket.close(1000);
        held.addEventListener('abort', stop, { once: true });
        socket.on('open', () => {
          opened = true;
          socket.send(
            JSON.stringify({
              op: Opcode.IDENTIFY,
              body: {
                ...(settings.token ? { token: settings.token } : {}),
                ...(lastSn !== undefined ? { sn: lastSn } : {}),
              },
            }),
          );
        });
        socket.on('message', (data) => {
          answered = Date.now();
          let payload: { op?: number; body?: unknown };
          try {
            payload = JSON.parse(String(data));
          } catch {
            const error = satoriErrors.AALIS_SATORI_EVENT_MALFORMED({ reason: 'not JSON' });
            log.warn(error.message, { code: error.code });
            return;
          }
          if (payload.op === Opcode.READY) {
            ready = true;
            state.set({ status: 'connected' });
            const logins = (payload.body as { logins?: WireLogin[] } | undefined)?.logins ?? [];
            for (const wire of logins) remember(wire);
            log.info(
              `Satori: connected; logins ${
                [...logins]
                  .map((wire) => loginOf(wire))
                  .filter(Boolean)
                  .map((login) => `${login!.platform}:${login!.userId}`)
                  .join(', ') || '(none yet)'
              }`,
            );
          } else if (payload.op === Opcode.EVENT && typeof payload.body === 'object' && payload.body !== null) {
            onEvent(payload.body as WireEvent);
          }
        });
        socket.on('error', (error) => {
          failure = describeError(error);
          log.debug('Satori: socket error', { error: failure });
        });
        socket.on('close', (code, reason) => {
          clearInterval(ping);
          held.removeEventListener('abort', stop);
          if (!ready && !held.aborted) {
            // Closed before READY: the server refused the IDENTIFY (its token) or is not a Satori server.
            // Never opened: the server is not there (refused, DNS, TLS), not a refused token.
            lastFailure = opened
              ? {
                  refused: true,
                  error: satoriErrors.AALIS_SATORI_TOKEN_REJECTED({
                    reason: `${code} ${reason.toString() || 'closed before READY'}`,
                  }),
                }
              : {
                  refused: false,
                  error: satoriErrors.AALIS_SATORI_UNREACHABLE({ endpoint, reason: failure || `${code}` }),
                };
            if (opened) log.error(lastFailure.error.message, { code: lastFailure.error.code });
            else log.warn(lastFailure.error.message, { code: lastFailure.error.code });
          } else {
            lastFailure = ready ? undefined : lastFailure;
          }
          resolve(ready);
        });
      });
    }

    /** Why the last connection ended before READY (undefined: it was healthy, or it closed after READY). */
    let lastFailure: { refused: boolean; error: AalisError } | undefined;

    function connectLoop(): Promise<void> {
      return holdConnection({
        leases: storage.available ? storage.use.leases() : undefined,
        name: `platform:satori:${endpoint}`,
        stopping: stopping.signal,
        standby: () => state.set({ status: 'standby' }),
        hold: (held) =>
          reconnectWhile(held, {
            attempt: connectOnce,
            healthy: (healthy) => healthy,
            baseMs: settings.retryDelayMs,
            maxMs: MAX_RETRY_MS,
            closed: (_healthy, delay) => {
              log.info(`Satori: the event socket closed; reconnecting in ${delay} ms`);
              const nextAttemptAt = Date.now() + delay;
              if (lastFailure?.refused) {
                state.set({
                  status: 'refused',
                  configKey: state.configKey('token'),
                  error: stateError(lastFailure.error),
                  nextAttemptAt,
                });
              } else {
                const error = lastFailure?.error ?? satoriErrors.AALIS_SATORI_CONNECTION_LOST({ endpoint });
                state.set({ status: 'reconnecting', error: stateError(error), nextAttemptAt });
              }
            },
          }),
      });
    }

    /** The voice as a data: URL in an <audio> element; a voice that cannot go is logged, the text has left. */
    async function sendVoice(
      channelId: string,
      login: SatoriLogin,
      attachment: Attachment,
      chatId: string,
    ): Promise<void> {
      const src = `data:${attachment.mimeType ?? 'audio/ogg'};base64,${attachment.data}`;
      try {
        const sent = await api.call<{ id?: string }[]>(
          'message.create',
          { channel_id: channelId, content: `<audio src="${src}"/>` },
          login,
        );
        for (const created of Array.isArray(sent) ? sent : []) {
          if (created?.id !== undefined) memory.sent(chatId, String(created.id));
        }
      } catch (error) {
        log.warn('Satori: a voice reply was not sent (the text was)', { channelId, error: describeError(error) });
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: SATORI_PLATFORM,
        label: 'Satori',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_SATORI_API_FAILED',
        send: async (target, replyTo) => {
          const where = splitChatId(target.chatId);
          const login = where ? await loginFor(where.platform) : undefined;
          if (!where || !login) {
            throw satoriErrors.AALIS_SATORI_API_FAILED({
              method: 'message.create',
              status: 0,
              reason: `no login for ${target.chatId}`,
            });
          }
          const pieces = splitMessage(message.content, settings.maxMessageLength);
          for (const [index, piece] of pieces.entries()) {
            const sent = await api.call<{ id?: string }[]>(
              'message.create',
              { channel_id: where.channelId, content: writeContent(piece, index === 0 ? replyTo : undefined) },
              login,
            );
            for (const created of Array.isArray(sent) ? sent : []) {
              if (created?.id !== undefined) memory.sent(target.chatId, String(created.id));
            }
          }
          for (const attachment of message.attachments ?? []) {
            if (attachment.type === 'image' && attachment.url) {
              await api.call(
                'message.create',
                { channel_id: where.channelId, content: `<img src="${attachment.url.replace(/"/g, '&quot;')}"/>` },
                login,
              );
            } else if (attachment.type === 'audio' && attachment.data) {
              // A voice (a voice reply) as Satori's audio element, alone in its message after the text: the bridges
              // send it as the platform's voice message (QQ's record, Telegram's voice …), converting as they need.
              await sendVoice(where.channelId, login, attachment, target.chatId);
            }
          }
        },
      });
    }

    wireRoomTurns({ platform: SATORI_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    const connecting = connectLoop().catch((error: unknown) => {
      if (!stopping.signal.aborted && !AalisError.isInstance(error))
        log.error('Satori: stopped', { error: describeError(error) });
    });
    lifecycle.use.onDispose(async () => {
      stopping.abort();
      registration.unregister();
      await connecting;
    });
  },
});

const PLUGIN_NAME = '@aalis/plugin-platform-satori';
