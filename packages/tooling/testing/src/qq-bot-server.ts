// Test-only: QQ's bot platform over real HTTP and a real WebSocket, as bots.qq.com and api.sgroup.qq.com speak it:
// POST /app/getAppAccessToken ({ appId, clientSecret } → { access_token, expires_in }), GET /gateway ({ url }), the
// gateway at /websocket (op 10 Hello with the heartbeat interval, op 2 Identify checked against the token and the
// GROUP_AND_C2C_EVENT intent, READY, op 1 heartbeats answered by op 11, op 0 dispatches with growing `s`, op 6 Resume
// replaying what was missed then RESUMED, op 7 Reconnect on request), and the v2 message API
// (POST /v2/groups/{group_openid}/messages, /v2/users/{openid}/messages, …/files: file_type 1 image, 3 voice in SILK;
// a msg_type 7 message names an uploaded file_info) with its passive-reply rules: a msg_id must be a message the bot
// received, each msg_seq used once, at most 5 replies per message.
import { createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface QqBotCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** The chat the call was for: `group:<group_openid>` or `user:<openid>`. */
  chat?: string;
}

export interface QqBotSent {
  id: string;
  chat: string;
  body: Record<string, unknown>;
  /** When the server received it (performance.now()). */
  at: number;
}

/** A rich-media file she uploaded (…/files): 1 image, 3 voice; the bytes when it came as file_data. */
export interface QqBotFile {
  fileType: number;
  bytes?: Buffer;
}

export interface QqMessageOptions {
  userId: string;
  /** The sender's name (author.username). */
  name?: string;
  content: string;
  messageId?: string;
  /** The message this one quotes (message_reference). */
  quoteId?: string;
  attachments?: { content_type: string; url: string; filename?: string }[];
}

export interface QqBotServer {
  /** Configure as plugins.platform-qq.tokenUrl. */
  readonly tokenUrl: string;
  /** Configure as plugins.platform-qq.apiBase. */
  readonly apiBase: string;
  readonly calls: QqBotCall[];
  /** The messages she sent, in order, with the ids the server gave them. */
  readonly sent: QqBotSent[];
  /** Her uploads (…/files), by the file_info a msg_type 7 message names. */
  readonly files: ReadonlyMap<string, QqBotFile>;
  /** How many Identify (new sessions) and Resume the gateway accepted. */
  identified(): number;
  resumed(): number;
  /** Heartbeats received. */
  heartbeats(): number;
  /** A group message that @-mentions her (GROUP_AT_MESSAGE_CREATE); returns its id. */
  groupAt(groupId: string, message: QqMessageOptions): string;
  /** A group message she is not mentioned in (GROUP_MESSAGE_CREATE, bots with the all-messages permission). */
  groupMessage(groupId: string, message: QqMessageOptions): string;
  /** A private message (C2C_MESSAGE_CREATE). */
  c2c(message: QqMessageOptions): string;
  /** Any dispatch (kept for resume). */
  dispatch(type: string, data: unknown): void;
  /** A raw frame on every live socket (malformed input). */
  raw(text: string): void;
  /** Closes every live gateway socket abruptly (the adapter should resume). */
  dropSockets(): void;
  /** Sends op 7 Reconnect on every live socket. */
  askReconnect(): void;
  /** From now on events are POSTed to the bot's webhook at `url`, signed with ed25519 (webhook mode). */
  useWebhook(url: string): void;
  /** The op 13 URL check: whether the bot signed plain_token with the key of its secret. */
  checkWebhook(): Promise<boolean>;
  /** POSTs a raw body to the webhook with these headers (bad input); resolves with the status. */
  postWebhook(body: string, headers?: Record<string, string>): Promise<number>;
  /** The HTTP statuses the bot answered webhook events with, in order (an event not answered 2xx is POSTed again). */
  webhookStatuses(): number[];
  /** The next `times` calls whose path ends with `pathSuffix` answer with this status. */
  failNext(pathSuffix: string, status: number, times?: number, headers?: Record<string, string>): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** How many times an event is POSTed to a webhook that does not answer 2xx (the first delivery included). */
const WEBHOOK_ATTEMPTS = 4;

/** Tencent's SILK ("#!SILK_V3", QQ's behind a 0x02 byte). */
const isSilk = (bytes: Buffer) =>
  bytes.subarray(0, 9).toString('latin1') === '#!SILK_V3' ||
  bytes.subarray(0, 10).toString('latin1') === '\u0002#!SILK_V3';

let nextId = 5_000;

export async function startQqBotServer({
  appId,
  clientSecret,
  botId = 'bot-openid',
  botName = 'Aalis',
  heartbeatIntervalMs = 30_000,
}: {
  appId: string;
  clientSecret: string;
  botId?: string;
  botName?: string;
  heartbeatIntervalMs?: number;
}): Promise<QqBotServer> {
  const calls: QqBotCall[] = [];
  const sent: QqBotSent[] = [];
  const files = new Map<string, QqBotFile>();
  const tokens = new Set<string>();
  const events: { s: number; t: string; d: unknown }[] = [];
  const received = new Map<string, { chat: string; seqs: Set<number> }>();
  const failures = new Map<string, { status: number; times: number; headers: Record<string, string> }>();
  const live = new Set<WebSocket>();
  const sessions = new Map<string, number>();
  let identifications = 0;
  let resumes = 0;
  let heartbeatCount = 0;
  let seq = 0;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(value));
      };
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return reply(400, { code: 40000, message: 'invalid json' });
      }
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (request.method === 'POST' && path === '/app/getAppAccessToken') {
        if (body.appId !== appId || body.clientSecret !== clientSecret) {
          return reply(200, { code: 100016, message: 'invalid appid or secret' });
        }
        nextId += 1;
        const token = `token-${nextId}`;
        tokens.add(token);
        return reply(200, { access_token: token, expires_in: '7200' });
      }
      const auth = String(request.headers.authorization ?? '');
      if (
        !auth.startsWith('QQBot ') ||
        !tokens.has(auth.slice('QQBot '.length)) ||
        request.headers['x-union-appid'] !== appId
      ) {
        return reply(401, { code: 11241, message: 'token not exist or expire' });
      }
      const chatMatch = /^\/v2\/(groups|users)\/([^/]+)\/(messages|files)$/.exec(path);
      const chat = chatMatch
        ? `${chatMatch[1] === 'groups' ? 'group' : 'user'}:${decodeURIComponent(chatMatch[2]!)}`
        : undefined;
      calls.push({ method: request.method ?? 'GET', path, body, ...(chat ? { chat } : {}) });
      for (const [suffix, failure] of failures) {
        if (path.endsWith(suffix) && failure.times > 0) {
          failure.times -= 1;
          return reply(failure.status, { code: 500000, message: 'failing on purpose' }, failure.headers);
        }
      }
      if (request.method === 'GET' && path === '/gateway') {
        const { port } = server.address() as AddressInfo;
        return reply(200, { url: `ws://127.0.0.1:${port}/websocket` });
      }
      if (request.method !== 'POST' || !chatMatch || !chat) return reply(404, { code: 404, message: 'not found' });
      if (chatMatch[3] === 'files') {
        // 1 image, 3 voice (SILK only, as QQ takes it).
        if (
          (body.file_type !== 1 && body.file_type !== 3) ||
          (typeof body.url !== 'string' && typeof body.file_data !== 'string')
        ) {
          return reply(400, { code: 40034, message: 'file_type or url missing' });
        }
        const bytes = typeof body.file_data === 'string' ? Buffer.from(body.file_data, 'base64') : undefined;
        if (body.file_type === 3 && bytes && !isSilk(bytes))
          return reply(400, { code: 850026, message: 'voice must be silk' });
        const fileInfo = `info-${++nextId}`;
        files.set(fileInfo, { fileType: body.file_type, ...(bytes ? { bytes } : {}) });
        return reply(200, { file_uuid: `f-${nextId}`, file_info: fileInfo, ttl: 3600 });
      }
      const msgType = Number(body.msg_type ?? 0);
      if (msgType === 0 && (typeof body.content !== 'string' || body.content === '')) {
        return reply(400, { code: 40034, message: 'content empty' });
      }
      if (msgType === 2) return reply(400, { code: 304003, message: 'markdown not allowed' });
      if (msgType === 7 && !files.has(String((body.media as { file_info?: unknown } | undefined)?.file_info)))
        return reply(400, { code: 40034, message: 'media.file_info invalid' });
      if (body.msg_id !== undefined) {
        const original = received.get(String(body.msg_id));
        if (!original || original.chat !== chat) return reply(400, { code: 40034006, message: 'msg_id invalid' });
        const msgSeq = Number(body.msg_seq ?? 1);
        if (original.seqs.has(msgSeq)) return reply(400, { code: 40054005, message: 'msg_seq duplicated' });
        if (original.seqs.size >= 5) return reply(400, { code: 22009, message: 'passive reply limit reached' });
        original.seqs.add(msgSeq);
      }
      nextId += 1;
      const id = `sent-${nextId}`;
      sent.push({ id, chat, body, at: performance.now() });
      return reply(200, { id, timestamp: new Date().toISOString() });
    });
  });

  const sockets = new WebSocketServer({ server, path: '/websocket' });
  sockets.on('connection', (socket) => {
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: heartbeatIntervalMs } }));
    socket.on('message', (data) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(String(data));
      } catch {
        return;
      }
      const d = (typeof payload.d === 'object' && payload.d !== null ? payload.d : {}) as Record<string, unknown>;
      const tokenOk = typeof d.token === 'string' && d.token.startsWith('QQBot ') && tokens.has(d.token.slice(6));
      if (payload.op === 2) {
        if (!tokenOk) return socket.close(4004, 'invalid token');
        if (typeof d.intents !== 'number' || (d.intents & (1 << 25)) === 0)
          return socket.close(4013, 'invalid intents');
        identifications += 1;
        live.add(socket);
        const sessionId = `session-${identifications}`;
        sessions.set(sessionId, seq);
        socket.send(
          JSON.stringify({
            op: 0,
            s: seq,
            t: 'READY',
            d: { version: 1, session_id: sessionId, user: { id: botId, username: botName, bot: true }, shard: [0, 1] },
          }),
        );
      } else if (payload.op === 6) {
        if (!tokenOk) return socket.close(4004, 'invalid token');
        if (typeof d.session_id !== 'string' || !sessions.has(d.session_id))
          return socket.close(4006, 'invalid session');
        resumes += 1;
        live.add(socket);
        const after = Number(d.seq ?? 0);
        for (const event of events) {
          if (event.s > after) socket.send(JSON.stringify({ op: 0, s: event.s, t: event.t, d: event.d }));
        }
        socket.send(JSON.stringify({ op: 0, s: seq, t: 'RESUMED', d: '' }));
      } else if (payload.op === 1) {
        heartbeatCount += 1;
        socket.send(JSON.stringify({ op: 11 }));
      }
    });
    socket.on('close', () => live.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  // Webhook mode's key: ed25519 from the secret repeated to a 32-byte seed (QQ's scheme).
  let seed = clientSecret;
  while (seed.length < 32) seed += clientSecret;
  const privateKey = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed.slice(0, 32))]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  let webhook: string | undefined;
  const statuses: number[] = [];
  const postWebhook = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(webhook ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bot-appid': appId, ...headers },
      body,
    });
    await response.text();
    return response.status;
  };
  const signed = (body: string) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return {
      'x-signature-timestamp': timestamp,
      'x-signature-ed25519': sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
    };
  };

  const dispatch = (type: string, data: unknown) => {
    seq += 1;
    events.push({ s: seq, t: type, d: data });
    const payload = JSON.stringify({ op: 0, s: seq, t: type, d: data, id: `${type}:${seq}` });
    if (webhook) {
      // As QQ does: an event not answered 2xx is delivered again (a few times, shortly after).
      const deliver = (attempt: number) =>
        void postWebhook(payload, signed(payload)).then(
          (status) => {
            statuses.push(status);
            if ((status < 200 || status > 299) && attempt < WEBHOOK_ATTEMPTS)
              setTimeout(() => deliver(attempt + 1), 50);
          },
          () => statuses.push(0),
        );
      deliver(1);
      return;
    }
    for (const socket of live) socket.send(payload);
  };
  const message = (type: string, groupId: string | undefined, options: QqMessageOptions): string => {
    nextId += 1;
    const id = options.messageId ?? `ROBOT1.0_${nextId}`;
    received.set(id, { chat: groupId ? `group:${groupId}` : `user:${options.userId}`, seqs: new Set() });
    dispatch(type, {
      id,
      content: type === 'GROUP_AT_MESSAGE_CREATE' ? ` ${options.content}` : options.content,
      timestamp: new Date().toISOString(),
      author: {
        id: options.userId,
        ...(groupId ? { member_openid: options.userId } : { user_openid: options.userId }),
        union_openid: `u-${options.userId}`,
        ...(options.name ? { username: options.name } : {}),
      },
      ...(groupId ? { group_id: groupId, group_openid: groupId } : {}),
      ...(options.attachments ? { attachments: options.attachments } : {}),
      ...(options.quoteId ? { message_reference: { message_id: options.quoteId } } : {}),
    });
    return id;
  };

  return {
    tokenUrl: `${base}/app/getAppAccessToken`,
    apiBase: base,
    calls,
    sent,
    files,
    identified: () => identifications,
    resumed: () => resumes,
    heartbeats: () => heartbeatCount,
    groupAt: (groupId, options) => message('GROUP_AT_MESSAGE_CREATE', groupId, options),
    groupMessage: (groupId, options) => message('GROUP_MESSAGE_CREATE', groupId, options),
    c2c: (options) => message('C2C_MESSAGE_CREATE', undefined, options),
    dispatch,
    raw(text) {
      for (const socket of live) socket.send(text);
    },
    dropSockets() {
      for (const socket of live) socket.terminate();
      live.clear();
    },
    askReconnect() {
      for (const socket of live) socket.send(JSON.stringify({ op: 7 }));
    },
    useWebhook(url) {
      webhook = url;
    },
    async checkWebhook() {
      const plain = randomBytes(10).toString('hex');
      const eventTs = String(Math.floor(Date.now() / 1000));
      const body = JSON.stringify({ op: 13, d: { plain_token: plain, event_ts: eventTs } });
      const response = await fetch(webhook ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signed(body) },
        body,
      });
      const answer = (await response.json().catch(() => ({}))) as { plain_token?: string; signature?: string };
      return (
        answer.plain_token === plain &&
        typeof answer.signature === 'string' &&
        verify(null, Buffer.from(eventTs + plain), publicKey, Buffer.from(answer.signature, 'hex'))
      );
    },
    postWebhook: (body, headers = {}) => postWebhook(body, headers),
    webhookStatuses: () => [...statuses],
    failNext(pathSuffix, status, times = 1, headers = {}) {
      failures.set(pathSuffix, { status, times, headers });
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the QQ bot server');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const socket of sockets.clients) socket.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
