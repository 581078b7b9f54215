// @aalis/plugin-platform-telegram: Telegram through the Bot API. Long polling with getUpdates (the offset kept in
// the database, so a restart neither answers twice nor skips; it moves only past updates whose input is stored),
// getMe for her username, the host's commands registered with setMyCommands. Groups are multi-party rooms, private chats direct rooms; a mention of her, a
// command aimed at her or a reply to her message addresses her. Replies go out as Telegram HTML (plain text when
// Telegram rejects the markup), quoting the message that addressed her in groups, split at the limit; a typing
// indicator runs while a turn does; 429s are waited out.
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import type { Receipt } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import type { PlatformState } from '@aalis/api-platform';
import { tools } from '@aalis/api-tools';
import { AalisError, definePlugin, describeError, optional, textRef, translate } from '@aalis/core';
import {
  type ChatType,
  deliverToRoom,
  holdConnection,
  type InboundFile,
  InboundOrder,
  ownerRequestsOptions,
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
import type { OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { TelegramApi } from './telegram-api.js';
import { telegramConfigSchema } from './telegram-config.js';
import { telegramErrors } from './telegram-errors.js';
import {
  chatOfRoomKey,
  displayNameOf,
  type InboundLabels,
  type InboundTelegramFile,
  type Me,
  readMessage,
  roomKeyOf,
  startPayloadOf,
  type TelegramMessage,
  topicOf,
} from './telegram-inbound.js';
import { type ChatMemberUpdate, TelegramInvitations } from './telegram-invitations.js';
import { markdownToTelegramHtml } from './telegram-markdown.js';
import { memoryOffsetStore, type OffsetStore, offsetStoreOf } from './telegram-offset-store.js';
import './telegram-texts.js';
import { UpdateOffset } from './telegram-update-offset.js';

/** The platform id (IncomingMessage.platform, owners' `platform`) and settings-layer type. */
export const TELEGRAM_PLATFORM = 'telegram';

/** Telegram's typing indicator lasts about five seconds; it is renewed while the turn runs. */
const TYPING_RENEW_MS = 4_500;

/** The longest pause between two tries while Telegram refuses the token (the pause doubles up to it). */
const TOKEN_RETRY_MAX_MS = 10 * 60_000;

/** The shortest time between two getUpdates calls that brought nothing. */
const MIN_POLL_INTERVAL_MS = 1_000;

/** The longest pause before fetching again an update whose input could not be stored (from retryDelayMs, doubling). */
const UNSTORED_RETRY_MAX_MS = 30_000;

/**
 * How long the offset waits at an update whose input cannot be stored before it moves past it (logged as
 * AALIS_TELEGRAM_UPDATE_NOT_STORED): the database is usually back within minutes; one that never accepts the input
 * must not hold every later message back (held-replies.md holds a reply as long).
 */
const UNSTORED_GIVE_UP_MS = 10 * 60_000;

interface Update {
  update_id: number;
  message?: TelegramMessage;
  my_chat_member?: ChatMemberUpdate;
}

export default definePlugin({
  name: '@aalis/plugin-platform-telegram',
  uses: {
    ...roomAdapterUses,
    hooks: optional(hooks),
    commands: optional(commands),
    authority: optional(authority),
    tools: optional(tools),
  },
  config: telegramConfigSchema,
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
      authority,
      tools,
    } = context;
    const settings = config.use;
    const log = logger.use;
    const t = (key: string, params?: Record<string, string | number>) => i18n.use.t(textRef(key, params));
    // The live state the console lists (admin.platforms).
    const state = reportPlatformState(platform, {
      id: TELEGRAM_PLATFORM,
      plugin: '@aalis/plugin-platform-telegram',
      endpoint: settings.apiRoot,
    });
    const missingToken = () => telegramErrors.AALIS_TELEGRAM_TOKEN_MISSING();
    if (!requireSettings(state, log, 'Telegram', { token: settings.token }, missingToken)) return;
    const api = new TelegramApi({
      apiRoot: settings.apiRoot,
      token: settings.token,
      timeoutMs: settings.apiTimeoutMs,
      onRateLimited: (method, seconds) => log.warn(`Telegram: rate limited on ${method}; waiting ${seconds} s`),
    });
    const offsets = Promise.resolve<OffsetStore>(storage.available ? offsetStoreOf(storage.use) : memoryOffsetStore());
    offsets.catch(() => {}); // reported where the poller awaits it
    const memory = new RoomMemory(TELEGRAM_PLATFORM);
    const inbound = new InboundOrder();
    const labels: InboundLabels = {
      sticker: (emoji) => t('telegram.sticker', { emoji }),
      document: (name) => t('telegram.document', { name }),
      voice: t('telegram.voice'),
      video: t('telegram.video'),
      location: t('telegram.location'),
    };
    const stopping = new AbortController();
    let me: Me | undefined;
    const registration = roomRegistration(platform, { id: TELEGRAM_PLATFORM });
    const room = roomInbound(context, { platform: TELEGRAM_PLATFORM, label: 'Telegram' });
    const typing = new Map<string, ReturnType<typeof setInterval>>();

    // A refused token (401) does not heal by asking again every few seconds: it is said once, as an error naming
    // the key to set, and tried again at doubling pauses (up to TOKEN_RETRY_MAX_MS) without a line each time.
    let refusals = 0;
    async function waitAfterRefusal(method: string, error: AalisError, signal: AbortSignal): Promise<void> {
      const delay = Math.min(TOKEN_RETRY_MAX_MS, settings.retryDelayMs * 2 ** refusals);
      if (refusals === 0) log.error(error.message, { code: error.code, method });
      else log.debug(`Telegram: ${method}: the token is still refused; trying again in ${delay} ms`);
      refusals += 1;
      state.set({
        status: 'refused',
        configKey: state.configKey('token'),
        error: stateError(error),
        nextAttemptAt: Date.now() + delay,
      });
      await pause(delay, signal);
    }
    function accepted(): void {
      if (refusals > 0) log.info('Telegram: the bot token is accepted again');
      refusals = 0;
    }

    async function login(): Promise<Me> {
      for (;;) {
        try {
          const result = await api.call<{ id: number; username?: string }>('getMe', {}, { signal: stopping.signal });
          accepted();
          log.info(`Telegram: logged in as @${result.username ?? result.id}`);
          return { id: result.id, ...(result.username ? { username: result.username } : {}) };
        } catch (error) {
          if (stopping.signal.aborted) throw error;
          if (isTokenRefusal(error)) {
            await waitAfterRefusal('getMe', error, stopping.signal);
            continue;
          }
          log.warn(`Telegram: getMe failed; retrying in ${settings.retryDelayMs} ms`, { error: describeError(error) });
          state.set(retrying(error, 'getMe'));
          await pause(settings.retryDelayMs, stopping.signal);
        }
      }
    }

    function hostHasCommand(name: string): boolean {
      return (
        commands.available &&
        commands.use.list({ isOwner: true, level: Number.MAX_SAFE_INTEGER }).some((c) => c.name === name)
      );
    }

    async function registerCommands(): Promise<void> {
      if (!settings.registerCommands || !commands.available) return;
      // Telegram accepts lowercase letters, digits and '_' (1–32); commands named otherwise are left out.
      const list = commands.use
        .list({ isOwner: false, level: 0 })
        .filter((command) => /^[a-z0-9_]{1,32}$/.test(command.name))
        .slice(0, 100)
        .map((command) => ({
          command: command.name,
          description: (translate(command.description, i18n.use.locale) || command.name).slice(0, 256),
        }));
      try {
        await api.call('setMyCommands', { commands: list }, { signal: stopping.signal });
      } catch (error) {
        log.warn('Telegram: setMyCommands failed', { error: describeError(error) });
      }
    }

    async function poll(): Promise<void> {
      me = await login();
      registration.register(String(me.id));
      await registerCommands();
      const botId = String(me.id);
      // Every process may send (replies go out from whichever process runs the turn), but one process per deployment
      // polls: the database's lease decides which; another takes over if it dies.
      await holdConnection({
        leases: storage.available ? storage.use.leases() : undefined,
        name: `platform:telegram:${botId}`,
        stopping: stopping.signal,
        standby: () => state.set({ status: 'standby' }),
        hold: async (held) => {
          await pollWhile(botId, held);
          if (!stopping.signal.aborted) log.warn('Telegram: lost the polling lease; waiting to take it again');
        },
      });
    }

    const invitations = new TelegramInvitations({
      ...ownerRequestsOptions({
        platform: TELEGRAM_PLATFORM,
        owners: () => (authority.available ? authority.use.owners() : []),
        sessionManager,
        gateway,
        storage,
        logger: log,
      }),
      rules: settings.invitations,
      call: (method, params) => api.call(method, params, { signal: stopping.signal }),
      t: (text) => i18n.use.t(text),
      logger: log,
    });
    if (tools.available) tools.use.register(invitations.tool());

    async function pollWhile(botId: string, held: AbortSignal): Promise<void> {
      const store = await offsets;
      const offset = new UpdateOffset(await store.load(botId));
      /** The update the offset is held at because its input could not be stored: since when, how often. */
      let unstored: { updateId: number; since: number; tries: number } | undefined;
      while (!held.aborted) {
        let updates: Update[];
        const asked = Date.now();
        try {
          updates = await api.call<Update[]>(
            'getUpdates',
            {
              ...(offset.next !== undefined ? { offset: offset.next } : {}),
              timeout: settings.pollTimeoutSeconds,
              allowed_updates: ['message', 'my_chat_member'],
            },
            { signal: held, extraTimeoutMs: settings.pollTimeoutSeconds * 1000 },
          );
          accepted();
          state.set({ status: 'connected' });
        } catch (error) {
          if (held.aborted) return;
          if (isTokenRefusal(error)) {
            await waitAfterRefusal('getUpdates', error, held).catch(() => {});
            continue;
          }
          log.warn(`Telegram: getUpdates failed; polling again in ${settings.retryDelayMs} ms`, {
            error: describeError(error),
          });
          state.set(retrying(error, 'getUpdates'));
          await pause(settings.retryDelayMs, held).catch(() => {});
          continue;
        }
        // An empty answer that came sooner than a poll interval (short polling, pollTimeoutSeconds 0, or a server
        // that does not hold the request) waits out the rest of it instead of asking again at once.
        const early = MIN_POLL_INTERVAL_MS - (Date.now() - asked);
        if ((!Array.isArray(updates) || updates.length === 0) && early > 0) {
          await pause(early, held).catch(() => {});
          continue;
        }
        // Every update is read (a chat's in order, chats side by side) and the offset moves only past those whose
        // input is stored: the batch's receipts come at the agent's acknowledgement, not at the end of the turns.
        const batch: { updateId: number; receipt: Promise<Receipt>; chat?: string }[] = [];
        for (const update of Array.isArray(updates) ? updates : []) {
          if (typeof update?.update_id !== 'number') {
            malformed('an update without update_id');
            continue;
          }
          if (offset.isStored(update.update_id)) continue;
          if (!update.message && !update.my_chat_member) {
            // Only message and my_chat_member are asked for (allowed_updates): anything else is unexpected.
            const kinds = Object.keys(update).filter((key) => key !== 'update_id');
            malformed(`an update of an unexpected kind (${kinds.join(', ').slice(0, 80) || 'empty'})`, 'debug');
          }
          if (update.my_chat_member) {
            void invitations
              .handle(update.my_chat_member)
              .catch((error: unknown) =>
                log.error('Telegram: a membership update could not be handled', { error: describeError(error) }),
              );
          }
          const message = update.message;
          const chat = String(message?.chat?.id);
          const receipt: Promise<Receipt> = message
            ? inbound
                .run(chat, () => receive(message))
                .catch((error: unknown) => {
                  log.error('Telegram: an update could not be handed to the gateway', { error: describeError(error) });
                  return 'failed' as const;
                })
            : Promise.resolve('handled');
          batch.push({ updateId: update.update_id, receipt, ...(message ? { chat } : {}) });
        }
        const settled = offset.settle(
          await Promise.all(batch.map(async ({ updateId, receipt }) => ({ updateId, receipt: await receipt }))),
        );
        if (settled.unstored === undefined) unstored = undefined;
        else {
          if (unstored?.updateId !== settled.unstored) {
            unstored = { updateId: settled.unstored, since: Date.now(), tries: 0 };
          }
          unstored.tries += 1;
          const chat = batch.find((entry) => entry.updateId === unstored?.updateId)?.chat ?? '?';
          if (Date.now() - unstored.since >= UNSTORED_GIVE_UP_MS) {
            // Bounded: an input that cannot be stored for this long (or never can) no longer holds every chat back.
            const error = telegramErrors.AALIS_TELEGRAM_UPDATE_NOT_STORED({
              updateId: unstored.updateId,
              chat,
              minutes: Math.round(UNSTORED_GIVE_UP_MS / 60_000),
            });
            log.error(error.message, { code: error.code });
            offset.skip(unstored.updateId);
            unstored = undefined;
          } else {
            log.warn('Telegram: a message could not be stored; its update is not confirmed and is fetched again', {
              updateId: unstored.updateId,
              chat,
              tries: unstored.tries,
            });
          }
        }
        if (settled.changed) {
          try {
            if (offset.next !== undefined) await store.save(botId, offset.next, offset.storedAbove);
          } catch (error) {
            // The offset Telegram is asked from is the one in memory; the kept one catches up at the next save.
            log.warn('Telegram: the update offset could not be kept', { error: describeError(error) });
          }
        }
        if (unstored) {
          const delay = Math.min(UNSTORED_RETRY_MAX_MS, settings.retryDelayMs * 2 ** (unstored.tries - 1));
          await pause(delay, held).catch(() => {});
        }
      }
    }

    function malformed(reason: string, level: 'warn' | 'debug' = 'warn'): void {
      const error = telegramErrors.AALIS_TELEGRAM_UPDATE_MALFORMED({ reason });
      log[level](error.message, { code: error.code });
    }

    /** Reads a message and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(received: TelegramMessage): Promise<Receipt> {
      if (typeof received?.chat?.id !== 'number' || typeof received.from?.id !== 'number') {
        malformed('a message without chat.id or from.id');
        return 'handled';
      }
      if (!me || received.from.id === me.id) return 'handled';
      const chatType: ChatType | undefined =
        received.chat.type === 'private'
          ? 'private'
          : received.chat.type === 'group' || received.chat.type === 'supergroup'
            ? 'group'
            : undefined;
      if (!chatType) return 'handled'; // channels are not conversations
      // Each topic of a forum supergroup is its own room: its own session, venue and replies in the topic.
      const { threadId, topicName, message } = chatType === 'group' ? topicOf(received) : { message: received };
      if (!message.from) return 'handled';
      const chatId = roomKeyOf(received.chat.id, threadId);
      const read = readMessage(message, me, labels);
      // Telegram's /start is a greeting, not one of the host's commands (unless a plugin registers one named so):
      // it reaches her as an ordinary input, a deep link's payload kept as text.
      const start = startPayloadOf(read.text);
      if (start && !hostHasCommand('start')) {
        read.text = start.payload === '' ? t('telegram.start') : `${t('telegram.start')} ${start.payload}`;
      }
      const addressed =
        chatType === 'private' ||
        read.addressed ||
        (message.reply_to_message !== undefined && memory.isHers(chatId, String(message.reply_to_message.message_id)));
      // Each document, audio file or voice note: getFile, then its download URL (a failed one becomes a note).
      const inboundFiles = (list: readonly InboundTelegramFile[]) =>
        Promise.all(
          list.map(async (file): Promise<InboundFile> => {
            const described = {
              type: file.type,
              ...(file.name ? { name: file.name } : {}),
              ...(file.mimeType ? { mimeType: file.mimeType } : {}),
            };
            try {
              const found = await api.call<{ file_path?: string }>(
                'getFile',
                { file_id: file.fileId },
                { signal: stopping.signal },
              );
              if (found.file_path)
                return { ...described, url: api.fileUrl(found.file_path), shownUrl: api.shownFileUrl(found.file_path) };
              return { ...described, unavailable: 'getFile gave no file_path' };
            } catch (error) {
              log.warn('Telegram: getFile failed for an inbound file', { error: describeError(error) });
              return { ...described, unavailable: `getFile failed: ${describeError(error)}` };
            }
          }),
        );
      const images: ({ url: string; shownUrl?: string } | { unavailable: string })[] = [];
      if (read.photo) {
        try {
          const file = await api.call<{ file_path?: string }>(
            'getFile',
            { file_id: read.photo },
            { signal: stopping.signal },
          );
          if (file.file_path)
            images.push({ url: api.fileUrl(file.file_path), shownUrl: api.shownFileUrl(file.file_path) });
        } catch (error) {
          log.warn('Telegram: getFile failed for an inbound photo', { error: describeError(error) });
          images.push({ unavailable: `getFile failed: ${describeError(error)}` });
        }
      }
      const files = await inboundFiles(read.files ?? []);
      const title =
        chatType === 'private'
          ? displayNameOf(message.from)
          : threadId === undefined
            ? message.chat.title
            : topicName && `${message.chat.title ?? chatId} / ${topicName}`;
      return room.receive({
        chatType,
        chatId,
        ...(title ? { title } : {}),
        userId: String(message.from.id),
        displayName: displayNameOf(message.from),
        text: read.text,
        images,
        files,
        messageId: String(message.message_id),
        ...(message.reply_to_message ? { replyTo: String(message.reply_to_message.message_id) } : {}),
        addressed,
        timestamp: typeof message.date === 'number' ? message.date * 1000 : Date.now(),
      });
    }

    async function send(chatId: string, text: string, replyTo: string | undefined): Promise<void> {
      const base = {
        ...chatOfRoomKey(chatId),
        ...(replyTo !== undefined
          ? { reply_parameters: { message_id: Number(replyTo), allow_sending_without_reply: true } }
          : {}),
      };
      let sent: { message_id?: number };
      try {
        sent = await api.call('sendMessage', { ...base, text: markdownToTelegramHtml(text), parse_mode: 'HTML' });
      } catch (error) {
        // Telegram refused the markup ("can't parse entities"): the same text, plain.
        if (!(AalisError.isInstance(error) && error.statusCode === 400)) throw error;
        log.debug('Telegram: the HTML version was refused; sending plain text', { error: describeError(error) });
        sent = await api.call('sendMessage', { ...base, text });
      }
      if (sent?.message_id !== undefined) memory.sent(chatId, String(sent.message_id));
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: TELEGRAM_PLATFORM,
        label: 'Telegram',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_TELEGRAM_API_FAILED',
        send: async (target, replyTo) => {
          const pieces = splitMessage(message.content, settings.maxMessageLength);
          for (const [index, piece] of pieces.entries()) {
            await send(target.chatId, piece, index === 0 ? replyTo : undefined);
          }
          for (const attachment of message.attachments ?? []) {
            if (attachment.type === 'image' && attachment.url) {
              await api.call('sendPhoto', { ...chatOfRoomKey(target.chatId), photo: attachment.url });
            } else if (attachment.type === 'audio' && (attachment.data || attachment.url)) {
              // A voice reply (Ogg/Opus) is a voice message; other audio goes as an audio file.
              const voice = attachment.mimeType === 'audio/ogg';
              const file = attachment.data
                ? new File(
                    [Buffer.from(attachment.data, 'base64')],
                    attachment.name ?? (voice ? 'voice.ogg' : 'audio'),
                    {
                      type: attachment.mimeType ?? 'application/octet-stream',
                    },
                  )
                : attachment.url;
              await api.call(voice ? 'sendVoice' : 'sendAudio', {
                ...chatOfRoomKey(target.chatId),
                [voice ? 'voice' : 'audio']: file,
              });
            }
          }
        },
      });
    }

    function startTyping(sessionId: string): void {
      const target = parseRoomSessionId(TELEGRAM_PLATFORM, sessionId);
      if (!target || typing.has(sessionId)) return;
      const tick = () =>
        void api
          .call('sendChatAction', { ...chatOfRoomKey(target.chatId), action: 'typing' })
          .catch((error: unknown) => log.debug('Telegram: sendChatAction failed', { error: describeError(error) }));
      tick();
      const timer = setInterval(tick, TYPING_RENEW_MS);
      timer.unref?.();
      typing.set(sessionId, timer);
    }

    function stopTyping(sessionId: string): void {
      clearInterval(typing.get(sessionId));
      typing.delete(sessionId);
    }

    wireRoomTurns({
      platform: TELEGRAM_PLATFORM,
      events: events.use,
      hooks: hooks.use,
      memory,
      deliver,
      turnStarted: (context) => {
        if (context.inputs.some((input) => input.message.platform === TELEGRAM_PLATFORM))
          startTyping(context.sessionId);
      },
      turnEnding: (context) => stopTyping(context.sessionId),
    });
    /** The state while waiting out a failed call: reconnecting at the next try, with the failure in words. */
    function retrying(error: unknown, method: string): Omit<PlatformState, 'since' | 'endpoint'> {
      const coded = AalisError.isInstance(error)
        ? error
        : telegramErrors.AALIS_TELEGRAM_UNREACHABLE({
            method,
            apiRoot: settings.apiRoot,
            reason: describeError(error),
          });
      return { status: 'reconnecting', error: stateError(coded), nextAttemptAt: Date.now() + settings.retryDelayMs };
    }

    runConnection(lifecycle.use, {
      label: 'Telegram',
      logger: log,
      stopping,
      state,
      run: poll,
      stop: () => {
        for (const sessionId of [...typing.keys()]) stopTyping(sessionId);
        registration.unregister();
      },
    });
  },
});

function isTokenRefusal(error: unknown): error is AalisError {
  return AalisError.isInstance(error) && error.code === 'AALIS_TELEGRAM_TOKEN_REJECTED';
}
