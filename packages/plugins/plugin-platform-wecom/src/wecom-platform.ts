// @aalis/plugin-platform-wecom: WeCom intelligent bots (企业微信智能机器人) in API mode — group @ messages and single
// chats through the bot's encrypted callback: the URL check (GET with echostr), messages (POST, AES-256-CBC JSON with
// a SHA1 msg_signature) answered at once with a stream that shows her thinking, her reply put into that stream when
// WeCom next asks for it (msgtype `stream` callbacks), or sent through the message's response_url once the stream's
// window has passed. People and owners are their WeCom userid (`owners: [{ platform: wecom, userId: <userid> }]`).
// One process per deployment listens (a database lease): the callback URL must lead to it.
import type { IncomingMessage as HttpRequest, ServerResponse } from 'node:http';
import '@aalis/api-agent';
import { type Receipt, StoredReceipts } from '@aalis/api-gateway';
import { definePlugin, describeError } from '@aalis/core';
import {
  deliverToRoom,
  fetchFileAttachment,
  type InboundFile,
  InboundOrder,
  keepListening,
  listenWhileHeld,
  RoomMemory,
  readCallbackBody,
  reportPlatformState,
  roomAdapterUses,
  roomInbound,
  roomRegistration,
  runConnection,
  stateError,
  wireRoomTurns,
} from '@aalis/platform-room';
import type { OutgoingMessage } from '@aalis/schema-message';
import { splitMessage } from '@aalis/util-text-normalize';
import { wecomConfigSchema } from './wecom-config.js';
import { WecomCrypto } from './wecom-crypto.js';
import { wecomErrors } from './wecom-errors.js';
import { readWecomMessage, WECOM_MESSAGE_TYPES, type WecomMessage } from './wecom-inbound.js';
import { WecomStreams } from './wecom-streams.js';

/** The platform id (IncomingMessage.platform, owners' `platform`). */
export const WECOM_PLATFORM = 'wecom';

const PLUGIN_NAME = '@aalis/plugin-platform-wecom';
const RETRY_MS = 1_000;
/** What onCallback answers for a message whose input could not be stored. */
const NOT_STORED = Symbol('not stored');

export default definePlugin({
  name: PLUGIN_NAME,
  uses: {
    ...roomAdapterUses,
  },
  config: wecomConfigSchema,
  apply(context) {
    const { config, logger, events, lifecycle, hooks, platform } = context;
    const settings = config.use;
    const log = logger.use;
    // The live state the console lists (admin.platforms); `since` moves only when the status does.
    const state = reportPlatformState(platform, {
      id: WECOM_PLATFORM,
      plugin: PLUGIN_NAME,
    });
    if (settings.token === '' || settings.encodingAESKey.length !== 43) {
      const key = settings.token === '' ? 'token' : 'encodingAESKey';
      state.set({ status: 'stopped', configKey: state.configKey(key) });
      log.warn(
        settings.token === ''
          ? 'WeCom: plugins.platform-wecom.token is not set; not listening'
          : 'WeCom: plugins.platform-wecom.encodingAESKey must be the 43 characters of the bot’s EncodingAESKey; not listening',
      );
      return;
    }
    const crypto = new WecomCrypto(settings.token, settings.encodingAESKey);
    const path = settings.path.startsWith('/') ? settings.path : `/${settings.path}`;
    const streams = new WecomStreams(settings.streamWindowMs);
    const memory = new RoomMemory(WECOM_PLATFORM);
    const inbound = new InboundOrder();
    const stopping = new AbortController();
    /** The messages each turn answers (its streams are closed when it ends without a reply). */
    const turnMessages = new Map<string, string[]>();
    /**
     * Messages already read, by msgid: WeCom delivers one again when the answer was slow or not 200 (a callback is
     * answered only once its input is stored, else 503 so that WeCom delivers it again).
     */
    const receipts = new StoredReceipts();
    const registration = roomRegistration(platform, { id: WECOM_PLATFORM, quoting: false });
    const room = roomInbound(context, { platform: WECOM_PLATFORM, label: 'WeCom' });

    const logCoded = (error: Error & { code: string }) => log.warn(error.message, { code: error.code });

    async function fetchEncrypted(url: string, limits: { maxBytes: number; timeoutMs: number }): Promise<Buffer> {
      const attachment = await fetchFileAttachment(url, { ...limits, type: 'file', shownUrl: '(WeCom file)' });
      return crypto.openFile(Buffer.from(attachment.data ?? '', 'base64'));
    }

    /** Reads a message and hands it to the gateway; resolves once it is stored (or needs no storing). */
    async function receive(read: NonNullable<ReturnType<typeof readWecomMessage>>): Promise<Receipt> {
      const images: ({ url: string; shownUrl: string } | { unavailable: string })[] = [];
      for (const url of read.imageUrls) {
        try {
          const plain = await fetchEncrypted(url, {
            maxBytes: settings.image.maxBytes,
            timeoutMs: settings.image.fetchTimeoutMs,
          });
          images.push({ url: `base64://${plain.toString('base64')}`, shownUrl: '(WeCom image)' });
        } catch (error) {
          images.push({ unavailable: describeError(error) });
        }
      }
      const files: InboundFile[] = [];
      for (const url of read.fileUrls) {
        try {
          const plain = await fetchEncrypted(url, {
            maxBytes: settings.file.maxBytes,
            timeoutMs: settings.file.fetchTimeoutMs,
          });
          files.push({ type: 'file', url: `base64://${plain.toString('base64')}`, shownUrl: '(WeCom file)' });
        } catch (error) {
          files.push({ type: 'file', unavailable: describeError(error) });
        }
      }
      const incoming = await room.incoming({
        chatType: read.chatType,
        chatId: read.chatId,
        userId: read.userId,
        text: read.text,
        images,
        files,
        messageId: read.messageId,
        addressed: read.addressed,
        timestamp: Date.now(),
      });
      const receipt = await room.store(incoming);
      // Kept as room context (held back, muted) or handled without a turn (a command): no turn of its own will
      // answer it, so its stream stops showing her thinking once a notice or an answer had its chance.
      if (receipt === 'handled' || (receipt === 'stored' && incoming.triggerType === 'ambient')) {
        streams.idle(read.messageId);
      }
      return receipt;
    }

    const streamReply = (stream: { id: string; finished: boolean; content: string }) =>
      JSON.stringify({
        msgtype: 'stream',
        stream: { id: stream.id, finish: stream.finished, content: stream.content },
      });

    /**
     * Handles one decrypted callback; resolves with the plaintext reply (undefined: an empty answer), or NOT_STORED
     * when the message's input could not be stored (answered 503: WeCom delivers it again).
     */
    async function onCallback(message: WecomMessage): Promise<string | typeof NOT_STORED | undefined> {
      if (message.msgtype === 'stream') {
        const stream = message.stream?.id ? streams.get(message.stream.id) : undefined;
        if (!stream) {
          logCoded(wecomErrors.AALIS_WECOM_EVENT_MALFORMED({ reason: 'a stream refresh for an unknown stream' }));
          return undefined;
        }
        if (stream.idle && !stream.finished) streams.finish(stream, '');
        if (stream.finished && stream.content !== '') memory.sent(stream.chatId, stream.msgId);
        return streamReply(stream);
      }
      if (message.msgtype === 'event') {
        log.debug(`WeCom: event ${String(message.event?.eventtype ?? '?')}`);
        return undefined;
      }
      if (!WECOM_MESSAGE_TYPES.has(String(message.msgtype))) {
        logCoded(wecomErrors.AALIS_WECOM_EVENT_UNKNOWN({ type: String(message.msgtype).slice(0, 80) }));
        return undefined;
      }
      const read = readWecomMessage(message);
      if (!read) {
        logCoded(
          wecomErrors.AALIS_WECOM_EVENT_MALFORMED({
            reason: `a ${String(message.msgtype)} message without msgid, sender, chat or its content`,
          }),
        );
        return undefined;
      }
      // WeCom delivers a message again when the answer was slow: the same stream answers it, read once (a stream
      // whose reading failed is discarded, so one that is there was stored or is being stored).
      const again = streams.forMessage(read.messageId);
      if (again && !receipts.has(read.messageId)) return streamReply(again);
      let first = false;
      const receipt = await receipts.once(
        read.messageId,
        () => {
          first = true;
          // Opened before the gateway runs: an answer given while the input is being stored (a command's, a
          // flow-control notice) goes into this message's stream, or its response_url, not another message's.
          // Only a message that addresses her gets a stream (her thinking).
          if (read.addressed) streams.open(read.chatId, read.messageId, read.responseUrl);
          else if (read.responseUrl) streams.keepResponseUrl(read.chatId, read.messageId, read.responseUrl);
          return inbound.run(`${read.chatType}:${read.chatId}`, () => receive(read));
        },
        (error) => log.error('WeCom: a message failed', { error: describeError(error) }),
      );
      if (receipt === 'failed') {
        if (first) streams.discard(read.messageId);
        return NOT_STORED;
      }
      const opened = streams.forMessage(read.messageId);
      return opened ? streamReply(opened) : undefined;
    }

    async function handle(request: HttpRequest, response: ServerResponse): Promise<void> {
      const url = new URL(request.url ?? '/', 'http://callback');
      if (url.pathname !== path) {
        response.writeHead(404).end();
        return;
      }
      const signature = url.searchParams.get('msg_signature') ?? '';
      const timestamp = url.searchParams.get('timestamp') ?? '';
      const nonce = url.searchParams.get('nonce') ?? '';
      if (request.method === 'GET') {
        const echostr = url.searchParams.get('echostr') ?? '';
        if (!crypto.verify(signature, timestamp, nonce, echostr)) {
          logCoded(wecomErrors.AALIS_WECOM_SIGNATURE_INVALID({ what: 'URL check' }));
          response.writeHead(403).end();
          return;
        }
        let plain: string;
        try {
          plain = crypto.open(echostr);
        } catch (error) {
          logCoded(wecomErrors.AALIS_WECOM_DECRYPT_FAILED({ reason: describeError(error) }));
          response.writeHead(400).end();
          return;
        }
        log.info('WeCom: the callback URL was verified');
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(plain);
        return;
      }
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      const body = await readCallbackBody(request, settings.maxBodyBytes);
      if (body === undefined) {
        logCoded(wecomErrors.AALIS_WECOM_BODY_TOO_LARGE({ limit: settings.maxBodyBytes }));
        response.writeHead(413).end();
        return;
      }
      let ciphertext: unknown;
      try {
        ciphertext = (JSON.parse(body.toString('utf8')) as { encrypt?: unknown }).encrypt;
      } catch {
        ciphertext = undefined;
      }
      if (typeof ciphertext !== 'string' || ciphertext === '') {
        logCoded(wecomErrors.AALIS_WECOM_EVENT_MALFORMED({ reason: 'the body is not JSON with an encrypt field' }));
        response.writeHead(400).end();
        return;
      }
      if (!crypto.verify(signature, timestamp, nonce, ciphertext)) {
        logCoded(wecomErrors.AALIS_WECOM_SIGNATURE_INVALID({ what: 'message' }));
        response.writeHead(403).end();
        return;
      }
      let message: WecomMessage;
      try {
        const parsed: unknown = JSON.parse(crypto.open(ciphertext));
        if (typeof parsed !== 'object' || parsed === null) throw new Error('not a JSON object');
        message = parsed as WecomMessage;
      } catch (error) {
        logCoded(wecomErrors.AALIS_WECOM_DECRYPT_FAILED({ reason: describeError(error) }));
        response.writeHead(400).end();
        return;
      }
      const reply = await onCallback(message);
      if (reply === NOT_STORED) {
        log.warn('WeCom: a message could not be stored; answered 503 so that WeCom delivers it again');
        response.writeHead(503).end();
        return;
      }
      if (reply === undefined) {
        response.writeHead(200).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(crypto.seal(reply)));
    }

    function listen(held: AbortSignal): Promise<void> {
      return listenWhileHeld({
        host: settings.host,
        port: settings.port,
        held,
        handle,
        logger: log,
        failed: 'WeCom: a callback failed',
        listenFailed: (error) => {
          const failure = wecomErrors.AALIS_WECOM_LISTEN_FAILED({
            address: `${settings.host}:${settings.port}`,
            reason: describeError(error),
          });
          log.error(failure.message, { code: failure.code });
          state.set({
            status: 'reconnecting',
            configKey: state.configKey('port'),
            error: stateError(failure),
            nextAttemptAt: Date.now() + RETRY_MS,
          });
        },
        listening: (port) => {
          state.endpoint = `http://${settings.host}:${port}${path}`;
          state.set({ status: 'connected' });
          registration.register();
          log.info(`WeCom: listening for callbacks on ${state.endpoint}`);
        },
      });
    }

    const listenLoop = () =>
      keepListening(context, {
        state,
        name: `platform:wecom:${settings.path}:${settings.port}`,
        stopping: stopping.signal,
        retryMs: RETRY_MS,
        listen,
      });

    async function postResponseUrl(url: string, content: string): Promise<void> {
      for (let attempt = 0; ; attempt++) {
        let status = 0;
        let errcode = 0;
        let errmsg = '';
        try {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ msgtype: 'markdown', markdown: { content } }),
            signal: AbortSignal.timeout(settings.apiTimeoutMs),
          });
          status = response.status;
          const body = (await response.json().catch(() => ({}))) as { errcode?: number; errmsg?: string };
          errcode = Number(body.errcode ?? 0);
          errmsg = String(body.errmsg ?? '');
        } catch (error) {
          throw wecomErrors.AALIS_WECOM_SEND_FAILED({ reason: `response_url unreachable: ${describeError(error)}` });
        }
        // 45009: the API's rate limit; waited out once.
        if ((status === 429 || errcode === 45009) && attempt === 0) {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          continue;
        }
        if (status >= 400 || errcode !== 0) {
          throw wecomErrors.AALIS_WECOM_SEND_FAILED(
            { reason: `response_url answered ${status} ${errcode} ${errmsg}`.trim() },
            { statusCode: status, isRetryable: status >= 500 },
          );
        }
        return;
      }
    }

    async function deliver(message: OutgoingMessage): Promise<void> {
      await deliverToRoom({
        platform: WECOM_PLATFORM,
        label: 'WeCom',
        message,
        memory,
        logger: log,
        events: events.use,
        fallbackCode: 'AALIS_WECOM_SEND_FAILED',
        send: async (target, replyTo) => {
          const answering = replyTo ?? turnMessages.get(message.turnId ?? '')?.at(-1);
          const pieces = splitMessage(message.content, settings.maxMessageLength).filter(
            (piece) => piece.trim() !== '',
          );
          if (pieces.length === 0) return;
          const stream = streams.target(target.chatId, answering);
          let rest = pieces;
          if (stream) {
            streams.finish(stream, pieces[0] ?? '');
            rest = pieces.slice(1);
          }
          for (const piece of rest) {
            const url = streams.takeResponseUrl(target.chatId, answering);
            if (!url) {
              throw wecomErrors.AALIS_WECOM_SEND_FAILED({
                reason:
                  'no stream or response_url of this chat is left (WeCom bots answer messages, they cannot start a conversation)',
              });
            }
            await postResponseUrl(url, piece);
          }
        },
      });
    }

    wireRoomTurns({
      platform: WECOM_PLATFORM,
      events: events.use,
      hooks: hooks.use,
      memory,
      deliver,
      turnStarted: (context) => {
        const ids = context.inputs
          .map((input) => input.message)
          .filter((message) => message?.platform === WECOM_PLATFORM && message.messageId !== undefined)
          .map((message) => message?.messageId as string);
        if (ids.length > 0) turnMessages.set(context.turnId, ids);
      },
      turnEnded: (context) => {
        // Streams of the turn's messages that got no reply are closed, so WeCom stops showing her thinking.
        for (const msgId of turnMessages.get(context.turnId) ?? []) {
          const stream = streams.forMessage(msgId);
          if (stream && !stream.finished) streams.finish(stream, '');
        }
        turnMessages.delete(context.turnId);
      },
    });
    runConnection(lifecycle.use, {
      label: 'WeCom',
      logger: log,
      stopping,
      state,
      run: listenLoop,
      stop: () => registration.unregister(),
    });
  },
});
