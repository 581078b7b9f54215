// @aalis/plugin-platform-onebot: QQ through a OneBot v11 implementation (NapCat, Lagrange, go-cqhttp) over its
// universal WebSocket, or over HTTP (its API, and events POSTed to the host, each answered once stored). Group chats are multi-party rooms, private chats direct rooms; an @-mention of her or a
// reply to one of her messages addresses her; replies go back as segment arrays, a group reply quoting the
// message that addressed her, long ones split at the platform's limit.
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { type Receipt, receiveStored, StoredReceipts } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { tools } from '@aalis/api-tools';
import { type Disposer, definePlugin, type i18n, optional, textRef } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  ensureRoomSession,
  InboundOrder,
  inboundContent,
  inboundLimits,
  ownerRequestsOptions,
  RoomMemory,
  roomAdapterUses,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { onebotConfigSchema } from './onebot-config.js';
import { OneBotConnection } from './onebot-connection.js';
import { onebotErrors } from './onebot-errors.js';
import { type ForwardedSend, OneBotForwarding } from './onebot-forwarding.js';
import { OneBotHttpConnection } from './onebot-http-connection.js';
import { OneBotLeaseRunner, onebotInstanceId, onebotLeaseName } from './onebot-lease.js';
import { onebotPoke, POKE_TRIGGER } from './onebot-poke.js';
import { OneBotRequests } from './onebot-requests.js';
import { buildSegments, parseSegments, type SegmentLabels, toSegments } from './onebot-segments.js';
import './onebot-texts.js';

/** The platform id (IncomingMessage.platform, owners' `platform`) and settings-layer type. */
export const ONEBOT_PLATFORM = 'onebot';

/** The longest wait for a look-up made while reading an inbound message (get_msg, get_group_info). */
const LOOKUP_TIMEOUT_MS = 5_000;

export default definePlugin({
  name: '@aalis/plugin-platform-onebot',
  uses: {
    ...roomAdapterUses,
    hooks: optional(hooks),
    authority: optional(authority),
    tools: optional(tools),
  },
  config: onebotConfigSchema,
  apply({
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
  }) {
    const settings = config.use;
    const log = logger.use;
    const t = (text: Parameters<typeof i18n.use.t>[0]) => i18n.use.t(text);
    const memory = new RoomMemory(ONEBOT_PLATFORM);
    const inbound = new InboundOrder();
    // HTTP mode answers an event's POST once its input is stored; a redelivery of one stored is not stored again.
    const receipts = new StoredReceipts();
    const groupNames = new Map<string, string | undefined>();
    /**
     * Temporary (group) private chats (`sub_type: group`): the group a person wrote from, by QQ number, so the reply
     * goes out as send_private_msg with that group_id (how go-cqhttp, NapCat, Lagrange reach a non-friend).
     */
    const tempSources = new Map<string, number | string>();
    // Look-ups that an inbound message waits for (is a quoted message hers?) get less than a send's allowance: an
    // implementation that never answers one must not hold every reply up for apiTimeoutMs.
    const lookupTimeoutMs = Math.min(settings.apiTimeoutMs, LOOKUP_TIMEOUT_MS);
    let selfId: string | undefined;
    let unregister: Disposer | undefined;
    const labels: SegmentLabels = {
      image: t(textRef('onebot.segment.image')),
      face: (id) => t(textRef('onebot.segment.face', { id })),
      record: t(textRef('onebot.segment.record')),
      video: t(textRef('onebot.segment.video')),
      file: (name) => t(textRef('onebot.segment.file', { name })),
      atAll: t(textRef('onebot.segment.atAll')),
      other: (type) => t(textRef('onebot.segment.other', { type })),
    };

    const registerPlatform = () => {
      unregister?.();
      unregister = platform.use.register({
        id: ONEBOT_PLATFORM,
        type: ONEBOT_PLATFORM,
        ...(selfId !== undefined ? { selfId } : {}),
        capabilities: { streaming: false, quoting: true, rooms: true },
      });
    };

    // One connection per deployment: the process holding the lease runs it, the others stand by and hand their sends to
    // it through the hand-over queue of the same name.
    const leaseName = onebotLeaseName(onebotInstanceId(settings));
    const leases = storage.available ? storage.use.leases() : undefined;
    const forwarding = storage.available
      ? new OneBotForwarding({
          queue: storage.use.handOver(),
          name: leaseName,
          sendHere,
          callHere: async ({ action, params }) => {
            await connection.call(action, params);
          },
          logger: log,
        })
      : undefined;

    const onOpen = () => {
      void connection
        .call('get_login_info')
        .then((data) => {
          const info = (data ?? {}) as { user_id?: unknown; nickname?: unknown };
          if (info.user_id === undefined) throw new Error('get_login_info returned no user_id');
          selfId = String(info.user_id);
          log.info(`OneBot: logged in as ${selfId}`);
          registerPlatform();
        })
        .catch((error: unknown) => log.warn('OneBot: get_login_info failed', { error: String(error) }));
    };
    /**
     * One event; a message's receipt says whether its input is stored (HTTP mode answers the event's POST with it;
     * the WebSocket modes have no acknowledgement to give).
     */
    const onEvent = (event: Record<string, unknown>): Promise<Receipt> | undefined => {
      if (event.post_type === 'request' || event.post_type === 'notice') {
        void sideEvent(event).catch((error: unknown) =>
          log.error('OneBot: a request or notice event could not be handled', { error: String(error) }),
        );
        return undefined;
      }
      if (event.post_type !== 'message') {
        // Meta events and her own sent messages are not handled; a kind OneBot v11 does not have is noted.
        if (event.post_type !== 'meta_event' && event.post_type !== 'message_sent') {
          malformed(`an event of an unknown post_type ${String(event.post_type).slice(0, 40)}`, 'debug');
        }
        return undefined;
      }
      const chat = `${String(event.message_type)}:${String(event.message_type === 'group' ? event.group_id : event.user_id)}`;
      // A redelivered message (same account and message_id) gets the first delivery's receipt, not a second input.
      const id = event.message_id === undefined ? undefined : `${String(event.self_id)}:${String(event.message_id)}`;
      return receipts.once(
        id,
        () => inbound.run(chat, () => receive(event)),
        (error) => log.error('OneBot: an inbound message could not be handed to the gateway', { error: String(error) }),
      );
    };
    const connection =
      settings.mode === 'http'
        ? new OneBotHttpConnection({
            url: settings.url,
            listen: settings.reverse,
            ...(settings.accessToken ? { accessToken: settings.accessToken } : {}),
            ...(settings.secret ? { secret: settings.secret } : {}),
            apiTimeoutMs: settings.apiTimeoutMs,
            logger: log,
            onOpen,
            onEvent,
          })
        : new OneBotConnection({
            mode: settings.mode,
            url: settings.url,
            reverse: settings.reverse,
            ...(settings.accessToken ? { accessToken: settings.accessToken } : {}),
            apiTimeoutMs: settings.apiTimeoutMs,
            idleTimeoutMs: settings.idleTimeoutMs,
            reconnect: settings.reconnect,
            logger: log,
            onOpen,
            onEvent,
          });

    const requests = new OneBotRequests({
      ...ownerRequestsOptions({
        platform: ONEBOT_PLATFORM,
        owners: () => (authority.available ? authority.use.owners() : []),
        sessionManager,
        gateway,
        storage,
        logger: log,
      }),
      rules: settings.requests,
      // An owner's answer may be heard by a process that does not run the connection: the holder settles it.
      call: async (action, params) => {
        if (forwarding && !runner.holding) {
          await forwarding.forward({ action, params }, settings.apiTimeoutMs + 2 * (leases?.ttlMs ?? 0));
          return undefined;
        }
        return connection.call(action, params);
      },
      t,
      logger: log,
    });
    if (tools.available) tools.use.register(requests.tool());

    /** Friend requests, group invitations and pokes (a poke at her addresses her like a mention). */
    async function sideEvent(event: Record<string, unknown>): Promise<void> {
      if (event.post_type === 'request') return requests.handle(event);
      const poke = onebotPoke(event, selfId);
      if (!poke) return;
      const room = { platform: ONEBOT_PLATFORM, chatType: poke.chatType, chatId: poke.chatId, logger: log };
      const sessionId = await ensureRoomSession({
        sessionManager: sessionManager.available ? sessionManager.use : undefined,
        ...room,
      });
      await inbound.run(`${poke.chatType}:${poke.chatId}`, async () => {
        void gateway.use
          .receive({
            sessionId,
            platform: ONEBOT_PLATFORM,
            venue: poke.chatId,
            sender: { userId: poke.userId },
            actor: { platform: ONEBOT_PLATFORM, userId: poke.userId },
            content: t(textRef('onebot.poke')),
            triggerType: POKE_TRIGGER,
            timestamp: typeof event.time === 'number' ? event.time * 1000 : Date.now(),
          })
          .catch((error: unknown) =>
            log.error('OneBot: a poke could not be handed to the gateway', { error: String(error) }),
          );
      });
    }

    function malformed(reason: string, level: 'warn' | 'debug' = 'warn'): void {
      const error = onebotErrors.AALIS_ONEBOT_EVENT_MALFORMED({ reason });
      log[level](error.message, { code: error.code });
    }

    /** Reads a message event and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(event: Record<string, unknown>): Promise<Receipt> {
      const messageType = event.message_type;
      const userId = event.user_id === undefined ? undefined : String(event.user_id);
      if ((messageType !== 'group' && messageType !== 'private') || userId === undefined) {
        malformed('a message event without message_type group/private or user_id');
        return 'handled';
      }
      const eventSelf = event.self_id === undefined ? selfId : String(event.self_id);
      if (userId === eventSelf) return 'handled';
      const chatType: ChatType = messageType;
      const chatId = chatType === 'group' ? String(event.group_id ?? '') : userId;
      if (chatId === '') {
        malformed('a group message event without group_id');
        return 'handled';
      }
      const sender = (typeof event.sender === 'object' && event.sender !== null ? event.sender : {}) as {
        nickname?: unknown;
        card?: unknown;
        group_id?: unknown;
      };
      if (chatType === 'private') {
        // go-cqhttp names the source group in sender.group_id, NapCat and Shamrock in the event's group_id.
        const source = event.sub_type === 'group' ? (event.group_id ?? sender.group_id) : undefined;
        if (typeof source === 'number' || (typeof source === 'string' && source !== ''))
          tempSources.set(userId, source);
        else tempSources.delete(userId);
      }
      const displayName = [sender.card, sender.nickname].find((name) => typeof name === 'string' && name !== '') as
        | string
        | undefined;
      const parsed = parseSegments(toSegments(event.message), eventSelf, labels);
      const { content, attachments } = await inboundContent({
        text: parsed.text,
        images: parsed.images.map((url) => ({ url })),
        files: parsed.files,
        ...inboundLimits(settings),
        t,
        logger: log,
      });
      const room = { platform: ONEBOT_PLATFORM, chatType, chatId, logger: log };
      const manager = sessionManager.available ? sessionManager.use : undefined;
      const title = chatType === 'group' ? groupNames.get(chatId) : displayName;
      const sessionId = await ensureRoomSession({ sessionManager: manager, ...room, ...(title ? { title } : {}) });
      // The group's name only titles the session: it is looked up beside the message, never before it.
      if (chatType === 'group' && !groupNames.has(chatId)) {
        void groupName(chatId).then((name) => {
          if (name) void ensureRoomSession({ sessionManager: manager, ...room, title: name });
        });
      }
      const messageId = event.message_id === undefined ? undefined : String(event.message_id);
      const addressed =
        chatType === 'private' ||
        parsed.mentionsSelf ||
        (parsed.replyTo !== undefined && (await repliesToHer(chatType, chatId, parsed.replyTo)));
      const message: IncomingMessage = {
        sessionId,
        platform: ONEBOT_PLATFORM,
        venue: chatId,
        sender: { userId, ...(displayName ? { displayName } : {}) },
        actor: { platform: ONEBOT_PLATFORM, userId },
        content,
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(messageId !== undefined ? { messageId } : {}),
        ...(parsed.replyTo !== undefined ? { replyTo: parsed.replyTo } : {}),
        // Unaddressed group messages are left to the gateway's trigger rules (her names, ambient context).
        ...(addressed ? { triggerType: 'direct' } : {}),
        timestamp: typeof event.time === 'number' ? event.time * 1000 : Date.now(),
      };
      // Resolves once stored, not when its turn ends: the chat's next message must reach the gateway before this
      // turn ends (to join it).
      return receiveStored(gateway.use, events.use, message, (error) =>
        log.error('OneBot: an inbound message could not be handed to the gateway', { error: String(error) }),
      );
    }

    /** A group's name (get_group_info), asked once per group and run; undefined when the implementation cannot say. */
    async function groupName(groupId: string): Promise<string | undefined> {
      if (groupNames.has(groupId)) return groupNames.get(groupId);
      groupNames.set(groupId, undefined);
      let name: string | undefined;
      try {
        const data = (await connection.call(
          'get_group_info',
          { group_id: Number(groupId) || groupId },
          lookupTimeoutMs,
        )) as { group_name?: unknown };
        if (typeof data?.group_name === 'string' && data.group_name !== '') name = data.group_name;
      } catch (error) {
        log.debug('OneBot: get_group_info failed', { error: String(error) });
      }
      groupNames.set(groupId, name);
      return name;
    }

    /** Whether the quoted message is hers: remembered when she sent it, else asked of the implementation. */
    async function repliesToHer(chatType: ChatType, chatId: string, messageId: string): Promise<boolean> {
      if (memory.isHers(chatId, messageId)) return true;
      if (selfId === undefined) return false;
      try {
        const data = (await connection.call(
          'get_msg',
          { message_id: Number(messageId) || messageId },
          lookupTimeoutMs,
        )) as {
          sender?: { user_id?: unknown };
          user_id?: unknown;
        };
        const author = data?.sender?.user_id ?? data?.user_id;
        return author !== undefined && String(author) === selfId;
      } catch (error) {
        log.debug('OneBot: could not look up a quoted message', { chatType, error: String(error) });
        return false;
      }
    }

    /** Sends a message to its chat on this process's connection. */
    async function sendHere({ message, target, replyTo }: ForwardedSend): Promise<void> {
      const images = (message.attachments ?? [])
        .filter((attachment) => attachment.type === 'image')
        .map((attachment) => attachment.url ?? (attachment.data ? `base64://${attachment.data}` : ''))
        .filter((file) => file !== '');
      // A voice (a voice reply) goes as a record segment, alone in its message as QQ requires; the implementation
      // (go-cqhttp, NapCat, Lagrange) converts the Ogg/Opus to SILK itself.
      const records = (message.attachments ?? [])
        .filter((attachment) => attachment.type === 'audio')
        .map((attachment) => attachment.url ?? (attachment.data ? `base64://${attachment.data}` : ''))
        .filter((file) => file !== '');
      const pieces = splitMessage(message.content, settings.maxMessageLength);
      if (pieces.length === 0 && images.length === 0 && records.length === 0) return;
      const action = target.chatType === 'group' ? 'send_group_msg' : 'send_private_msg';
      const idKey = target.chatType === 'group' ? 'group_id' : 'user_id';
      const count = pieces.length === 0 && images.length === 0 ? 0 : Math.max(pieces.length, 1);
      const messages = [
        ...Array.from({ length: count }, (_, index) =>
          buildSegments({
            text: pieces[index] ?? '',
            ...(index === 0 && replyTo !== undefined ? { replyTo } : {}),
            ...(index === count - 1 ? { images } : {}),
          }),
        ),
        ...records.map((file) => [{ type: 'record', data: { file } }]),
      ];
      for (const segments of messages) {
        const tempSource = target.chatType === 'private' ? tempSources.get(target.chatId) : undefined;
        const data = (await connection.call(action, {
          [idKey]: Number(target.chatId) || target.chatId,
          ...(tempSource !== undefined ? { group_id: tempSource } : {}),
          message: segments,
        })) as { message_id?: unknown } | undefined;
        if (data?.message_id !== undefined) memory.sent(target.chatId, String(data.message_id));
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: ONEBOT_PLATFORM,
        label: 'OneBot',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_ONEBOT_API_FAILED',
        send: async (target, replyTo) => {
          const send: ForwardedSend = { message, target, ...(replyTo !== undefined ? { replyTo } : {}) };
          // The turn ran on a process without the connection: the holder sends it.
          if (forwarding && !runner.holding) {
            const pieces = Math.max(1, splitMessage(message.content, settings.maxMessageLength).length);
            const ttlMs = leases?.ttlMs ?? 0;
            return forwarding.forward(send, settings.apiTimeoutMs * (pieces + 1) + 2 * ttlMs);
          }
          await sendHere(send);
        },
      });
    }

    wireRoomTurns({ platform: ONEBOT_PLATFORM, events: events.use, hooks: hooks.use, memory, deliver });
    const runner = new OneBotLeaseRunner({
      leases,
      name: leaseName,
      connection,
      logger: log,
      retryMs: settings.reconnect.maxMs,
      onHolding: (holding) => forwarding?.setHolding(holding),
    });
    registerPlatform();
    platform.use.reportState({
      id: ONEBOT_PLATFORM,
      type: ONEBOT_PLATFORM,
      plugin: '@aalis/plugin-platform-onebot',
      current: () => {
        const since = runner.standingBySince;
        return since === undefined ? connection.state : { status: 'standby', since, endpoint: connection.endpoint };
      },
    });
    runner.start();
    lifecycle.use.onDispose(async () => {
      unregister?.();
      await runner.stop();
    });
  },
});
