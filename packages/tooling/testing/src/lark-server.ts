// Test-only: Feishu/Lark's OpenAPI and long connection over real HTTP and a real WebSocket, as open.feishu.cn speaks
// them. HTTP: the tenant_access_token (app_id + app_secret), the long connection's endpoint (POST /callback/ws/endpoint
// with AppID + AppSecret: a one-time URL and the ClientConfig the client must follow), bot/v3/info, contact/v3/users,
// im/v1/files uploads, im/v1/messages create and reply (an audio message names an uploaded opus file; the tenant
// token as Bearer; business errors as {code, msg}; 429 with x-ogw-ratelimit-reset when asked to). The socket speaks
// the pbbp2 Frame of the SDK's ws client (protobuf, encoded here with protobufjs from the field numbers): a ping
// (control frame) is answered with a pong carrying ClientConfig, events go out as data frames (type=event,
// message_id, sum/seq — split into several when large — trace_id) and the client's answer frame (same headers,
// payload {code}) acknowledges them; what was not acknowledged is sent again on the next connection, as Lark
// redelivers.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { type WebSocket, WebSocketServer } from 'ws';
import { multipartParts } from './multipart-parts.js';

const root = protobuf.Root.fromJSON({
  nested: {
    pbbp2: {
      nested: {
        Header: {
          fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } },
        },
        Frame: {
          fields: {
            SeqID: { type: 'uint64', id: 1 },
            LogID: { type: 'uint64', id: 2 },
            service: { type: 'int32', id: 3 },
            method: { type: 'int32', id: 4 },
            headers: { rule: 'repeated', type: 'Header', id: 5 },
            payloadEncoding: { type: 'string', id: 6 },
            payloadType: { type: 'string', id: 7 },
            payload: { type: 'bytes', id: 8 },
            LogIDNew: { type: 'string', id: 9 },
          },
        },
      },
    },
  },
});
const Frame = root.lookupType('pbbp2.Frame');

/** Frame.method: control (ping/pong) or data (events). */
const CONTROL = 0;
const DATA = 1;

export interface LarkFrame {
  SeqID: number;
  LogID: number;
  service: number;
  method: number;
  headers: { key: string; value: string }[];
  payload?: Uint8Array;
}

export function encodeLarkFrame(frame: LarkFrame): Uint8Array {
  return Frame.encode(Frame.create(frame)).finish();
}

export function decodeLarkFrame(bytes: Uint8Array): LarkFrame {
  const decoded = Frame.toObject(Frame.decode(bytes), { longs: Number, bytes: Uint8Array, defaults: true });
  return decoded as LarkFrame;
}

export interface LarkCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  authorized: boolean;
}

export interface LarkSent {
  messageId: string;
  chatId: string;
  msgType: string;
  content: string;
  /** The message it replies to (the reply API), if any. */
  parentId?: string;
  replyInThread?: boolean;
  /** performance.now() on arrival. */
  at: number;
}

/** A file she uploaded with im/v1/files (an audio message names it by file_key). */
export interface LarkFile {
  fileKey: string;
  fileType: string;
  fileName: string;
  durationMs?: number;
  bytes: Buffer;
}

export interface LarkMessageOptions {
  chatId: string;
  chatType: 'group' | 'p2p';
  /** The sender's open_id. */
  openId: string;
  /** The message_type and its content object (sent as the JSON string Lark sends). */
  messageType?: string;
  content: Record<string, unknown>;
  mentions?: { key: string; openId: string; name: string }[];
  messageId?: string;
  parentId?: string;
  threadId?: string;
}

export interface LarkServer {
  /** The base URL to configure as domain: http://127.0.0.1:<port> */
  readonly domain: string;
  readonly appId: string;
  readonly calls: LarkCall[];
  readonly sent: LarkSent[];
  /** Files she uploaded (im/v1/files), by file_key. */
  readonly files: ReadonlyMap<string, LarkFile>;
  /** Event ids the client answered (with their answer's code). */
  readonly acks: { eventId: string; code: number }[];
  readonly bot: { openId: string; name: string };
  /** How many long connections opened and pinged (reconnects count). */
  connections(): number;
  /** Sends an im.message.receive_v1 event, or queues it until a connection opens; returns the message id. */
  message(options: LarkMessageOptions): { messageId: string; sentAt: number };
  /** Sends an event frame with this JSON body as it is (unknown types, missing fields). */
  event(body: unknown): string;
  /** Sends a raw binary frame (bytes that are not a Frame) on every live connection. */
  raw(bytes: Uint8Array): void;
  /** Terminates every live connection at once. */
  dropSockets(): void;
  /**
   * Sends every event not answered with code 200 yet again on the live connections, as Lark retries; returns their
   * event ids.
   */
  redeliver(): string[];
  /** The next `times` endpoint requests (POST /callback/ws/endpoint) answer with HTTP `status`. */
  refuseConnections(status: number, times: number): void;
  /**
   * The next `times` calls of `route` ('im.message.create', 'im.message.reply', 'im.message.*' for whichever of the
   * two comes first, …) answer with HTTP `status`.
   */
  failNext(route: string, status: number, times?: number): void;
  /** The next call of `route` is refused with Lark's business error (HTTP 400, {code, msg}). */
  refuseNext(route: string, code: number, msg: string): void;
  /** The next `times` calls of `route` are rate limited (HTTP 429, code 99991400, x-ogw-ratelimit-reset). */
  rateLimitNext(route: string, times?: number, resetSeconds?: number): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let nextId = 0;
const newId = (prefix: string) => {
  nextId += 1;
  return `${prefix}_${Date.now().toString(16)}${String(nextId).padStart(6, '0')}`;
};

export async function startLarkServer({
  appId,
  appSecret,
  users = {},
  clientConfig = { PingInterval: 1, ReconnectCount: -1, ReconnectInterval: 0.05, ReconnectNonce: 0.02 },
  fragmentBytes = 32 * 1024,
}: {
  appId: string;
  appSecret: string;
  /** open_id → name (contact/v3/users). */
  users?: Record<string, string>;
  /** What the endpoint and each pong tell the client (seconds; the real service says 120 / -1 / 120 / 30). */
  clientConfig?: { PingInterval: number; ReconnectCount: number; ReconnectInterval: number; ReconnectNonce: number };
  /** Event payloads larger than this are sent as several frames (sum/seq). */
  fragmentBytes?: number;
}): Promise<LarkServer> {
  const bot = { openId: 'ou_aalis_bot_0001', name: 'Aalis' };
  const tenantToken = `t-${randomUUID()}`;
  const serviceId = 33554678;
  const calls: LarkCall[] = [];
  const sent: LarkSent[] = [];
  const files = new Map<string, LarkFile>();
  const acks: { eventId: string; code: number }[] = [];
  const tickets = new Set<string>();
  const unacked = new Map<string, Uint8Array[]>();
  const live = new Set<WebSocket>();
  const failures = new Map<string, { status: number; times: number }>();
  const refusals = new Map<string, { code: number; msg: string }>();
  const rateLimits = new Map<string, { times: number; reset: number }>();
  let endpointRefusals = { status: 503, times: 0 };
  /** Messages the server knows (hers and the events' ones), for replies and im/v1/messages/:id. */
  const known = new Map<string, { chatId: string; sender: { id: string; id_type: string; sender_type: string } }>();
  let opened = 0;
  let seq = 0;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        response.end(JSON.stringify(value));
      };
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      let body: Record<string, unknown> = {};
      /** The multipart upload's file (im/v1/files). */
      let upload: { name: string; bytes: Buffer } | undefined;
      const type = String(request.headers['content-type'] ?? '');
      if (type.startsWith('multipart/form-data')) {
        // Parts read as bytes: the SDK sends the file as a part without a filename, which a FormData reader takes
        // for text.
        for (const part of multipartParts(Buffer.concat(chunks), type)) {
          if (part.name === 'file') upload = { name: part.filename ?? 'file', bytes: part.bytes };
          else body[part.name] = part.bytes.toString('utf8');
        }
      } else {
        try {
          const raw = Buffer.concat(chunks).toString('utf8');
          body = raw === '' ? {} : JSON.parse(raw);
        } catch {
          return reply(400, { code: 9499, msg: 'Bad Request: body is not JSON' });
        }
      }
      const authorized = request.headers.authorization === `Bearer ${tenantToken}`;
      const path = url.pathname;
      const route = routeOf(request.method ?? 'GET', path);
      /** A failure armed for the route, or for 'im.message.*' (whichever of create and reply comes next). */
      const armed = <T>(map: Map<string, T>): [string, T] | undefined => {
        for (const key of [route, route.startsWith('im.message.') ? 'im.message.*' : '']) {
          const value = map.get(key);
          if (value !== undefined) return [key, value];
        }
        return undefined;
      };
      calls.push({ method: request.method ?? 'GET', path: `${path}${url.search}`, body, authorized });

      if (path === '/open-apis/auth/v3/tenant_access_token/internal') {
        if (body.app_id !== appId || body.app_secret !== appSecret) {
          return reply(200, { code: 10014, msg: 'app secret invalid' });
        }
        return reply(200, { code: 0, msg: 'ok', tenant_access_token: tenantToken, expire: 7200 });
      }
      if (path === '/callback/ws/endpoint') {
        if (endpointRefusals.times > 0) {
          endpointRefusals.times -= 1;
          return reply(endpointRefusals.status, { code: 1000040343, msg: 'system busy' });
        }
        if (body.AppID !== appId || body.AppSecret !== appSecret) return reply(200, { code: 514, msg: 'auth failed' });
        const ticket = randomUUID();
        tickets.add(ticket);
        const { port } = server.address() as AddressInfo;
        return reply(200, {
          code: 0,
          msg: 'ok',
          data: {
            URL: `ws://127.0.0.1:${port}/ws/v2?fpid=493&aid=552564&device_id=7349${opened}&access_key=${ticket}&service_id=${serviceId}&ticket=${ticket}`,
            ClientConfig: clientConfig,
          },
        });
      }
      if (!authorized) return reply(400, { code: 99991663, msg: 'Invalid access token for authorization.' });
      const limit = armed(rateLimits)?.[1];
      if (limit && limit.times > 0) {
        limit.times -= 1;
        return reply(
          429,
          { code: 99991400, msg: 'request trigger frequency limit' },
          { 'x-ogw-ratelimit-limit': '50', 'x-ogw-ratelimit-reset': String(limit.reset) },
        );
      }
      const failure = armed(failures)?.[1];
      if (failure && failure.times > 0) {
        failure.times -= 1;
        return reply(failure.status, { code: 1000, msg: 'internal error (on purpose)' });
      }
      const [refusalKey, refusal] = armed(refusals) ?? ['', undefined];
      if (refusal) {
        refusals.delete(refusalKey);
        return reply(400, { code: refusal.code, msg: refusal.msg });
      }
      if (route === 'bot.info') {
        return reply(200, {
          code: 0,
          msg: 'ok',
          bot: { activate_status: 2, app_name: bot.name, avatar_url: '', ip_white_list: [], open_id: bot.openId },
        });
      }
      if (route === 'contact.user.get') {
        const id = decodeURIComponent(path.split('/').pop() ?? '');
        const name = users[id];
        if (!name) return reply(400, { code: 41050, msg: 'no user authority error' });
        return reply(200, { code: 0, msg: 'success', data: { user: { open_id: id, name, en_name: name } } });
      }
      if (route === 'im.message.get') {
        const id = decodeURIComponent(path.split('/')[5] ?? '');
        const message = known.get(id);
        if (!message) return reply(400, { code: 230011, msg: 'The message was withdrawn or not found.' });
        return reply(200, {
          code: 0,
          msg: 'success',
          data: { items: [{ message_id: id, chat_id: message.chatId, sender: message.sender, deleted: false }] },
        });
      }
      if (route === 'im.file.create') {
        const fileType = String(body.file_type ?? '');
        if (!['opus', 'mp4', 'pdf', 'doc', 'xls', 'ppt', 'stream'].includes(fileType))
          return reply(400, { code: 234001, msg: `Invalid request param: file_type ${fileType}` });
        if (!upload || upload.bytes.length === 0) return reply(400, { code: 234006, msg: 'The file is empty.' });
        if (upload.bytes.length > 30 * 1024 * 1024) return reply(400, { code: 234006, msg: 'The file exceeds 30 MB.' });
        const fileKey = newId('file_v3');
        files.set(fileKey, {
          fileKey,
          fileType,
          fileName: String(body.file_name ?? upload.name),
          ...(body.duration !== undefined ? { durationMs: Number(body.duration) } : {}),
          bytes: upload.bytes,
        });
        return reply(200, { code: 0, msg: 'success', data: { file_key: fileKey } });
      }
      if (route === 'im.message.create' || route === 'im.message.reply') {
        const parentId = route === 'im.message.reply' ? decodeURIComponent(path.split('/')[5] ?? '') : undefined;
        const parent = parentId ? known.get(parentId) : undefined;
        const chatId = parentId ? parent?.chatId : String(body.receive_id ?? '');
        if (parentId && !parent) return reply(400, { code: 230011, msg: 'The message was withdrawn or not found.' });
        if (!chatId) return reply(400, { code: 230001, msg: 'invalid receive_id' });
        const msgType = String(body.msg_type ?? '');
        const content = typeof body.content === 'string' ? body.content : '';
        try {
          JSON.parse(content);
        } catch {
          return reply(400, { code: 230001, msg: 'Your request contains an invalid request parameter: content' });
        }
        if (!['text', 'post', 'interactive', 'image', 'audio'].includes(msgType)) {
          return reply(400, { code: 230001, msg: `invalid msg_type ${msgType}` });
        }
        if (msgType === 'audio') {
          // An audio message names an opus file uploaded by this app.
          const key = String((JSON.parse(content) as { file_key?: unknown }).file_key ?? '');
          if (files.get(key)?.fileType !== 'opus')
            return reply(400, { code: 230055, msg: `file_key ${key} is not an uploaded opus file` });
        }
        if (Buffer.byteLength(content) > 150 * 1024) return reply(400, { code: 230025, msg: 'message too long' });
        const messageId = newId('om');
        known.set(messageId, { chatId, sender: { id: appId, id_type: 'app_id', sender_type: 'app' } });
        sent.push({
          messageId,
          chatId,
          msgType,
          content,
          ...(parentId ? { parentId } : {}),
          ...(body.reply_in_thread === true ? { replyInThread: true } : {}),
          at: performance.now(),
        });
        return reply(200, {
          code: 0,
          msg: 'success',
          data: {
            message_id: messageId,
            chat_id: chatId,
            msg_type: msgType,
            body: { content },
            sender: { id: appId, id_type: 'app_id', sender_type: 'app' },
            ...(parentId ? { parent_id: parentId, root_id: parentId } : {}),
            create_time: String(Date.now()),
          },
        });
      }
      reply(404, { code: 404, msg: `no route ${request.method} ${path}` });
    });
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/ws/v2' || !tickets.delete(ticket)) {
      // The real service refuses a bad handshake with its status in headers; a plain 403 here.
      socket.end('HTTP/1.1 403 Forbidden\r\nhandshake-status: 514\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws));
  });
  sockets.on('connection', (socket: WebSocket) => {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      let frame: LarkFrame;
      try {
        frame = decodeLarkFrame(new Uint8Array(data));
      } catch {
        return;
      }
      const header = (key: string) => frame.headers.find((entry) => entry.key === key)?.value;
      if (frame.method === CONTROL && header('type') === 'ping') {
        // A connection counts, gets events and what was not answered before, from its first ping on (the client
        // reads frames only once it has set itself up after the handshake).
        if (!live.has(socket)) {
          opened += 1;
          live.add(socket);
          setImmediate(() => {
            for (const frames of unacked.values()) for (const frame of frames) socket.send(frame);
          });
        }
        socket.send(
          encodeLarkFrame({
            SeqID: 0,
            LogID: 0,
            service: serviceId,
            method: CONTROL,
            headers: [{ key: 'type', value: 'pong' }],
            payload: new TextEncoder().encode(JSON.stringify(clientConfig)),
          }),
        );
        return;
      }
      if (frame.method === DATA) {
        const messageId = header('message_id');
        if (!messageId) return;
        let code = 0;
        try {
          code = Number(JSON.parse(new TextDecoder().decode(frame.payload ?? new Uint8Array())).code ?? 0);
        } catch {}
        // An answer with another code than 200 (the SDK's 500 when its handler threw) is not an acknowledgement:
        // the event stays to be delivered again, as Lark retries it.
        if (!unacked.has(messageId)) return;
        acks.push({ eventId: messageId, code });
        if (code === 200) unacked.delete(messageId);
      }
    });
    socket.on('close', () => live.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** Sends an event body as the data frames Lark would (split when large); kept until answered. */
  const deliver = (body: unknown): string => {
    const eventId = (body as { header?: { event_id?: string } })?.header?.event_id ?? randomUUID();
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const parts: Uint8Array[] = [];
    for (let offset = 0; offset < bytes.length || parts.length === 0; offset += fragmentBytes) {
      parts.push(bytes.subarray(offset, offset + fragmentBytes));
    }
    seq += 1;
    const traceId = randomUUID();
    const frames = parts.map((payload, index) =>
      encodeLarkFrame({
        SeqID: seq,
        LogID: seq,
        service: serviceId,
        method: DATA,
        headers: [
          { key: 'type', value: 'event' },
          { key: 'message_id', value: eventId },
          { key: 'sum', value: String(parts.length) },
          { key: 'seq', value: String(index) },
          { key: 'trace_id', value: traceId },
        ],
        payload,
      }),
    );
    unacked.set(eventId, frames);
    for (const socket of live) for (const frame of frames) socket.send(frame);
    return eventId;
  };

  return {
    domain: `http://127.0.0.1:${port}`,
    appId,
    calls,
    sent,
    files,
    acks,
    bot,
    connections: () => opened,
    message(options) {
      const messageId = options.messageId ?? newId('om');
      known.set(messageId, {
        chatId: options.chatId,
        sender: { id: options.openId, id_type: 'open_id', sender_type: 'user' },
      });
      const sentAt = performance.now();
      deliver({
        schema: '2.0',
        header: {
          event_id: randomUUID().replace(/-/g, ''),
          event_type: 'im.message.receive_v1',
          create_time: String(Date.now()),
          token: 'verification-token',
          app_id: appId,
          tenant_key: 'tenant-1',
        },
        event: {
          sender: {
            sender_id: { open_id: options.openId, union_id: `on_${options.openId}`, user_id: options.openId.slice(3) },
            sender_type: 'user',
            tenant_key: 'tenant-1',
          },
          message: {
            message_id: messageId,
            ...(options.parentId ? { root_id: options.parentId, parent_id: options.parentId } : {}),
            ...(options.threadId ? { thread_id: options.threadId } : {}),
            create_time: String(Date.now()),
            update_time: String(Date.now()),
            chat_id: options.chatId,
            chat_type: options.chatType,
            message_type: options.messageType ?? 'text',
            content: JSON.stringify(options.content),
            mentions: (options.mentions ?? []).map((mention) => ({
              key: mention.key,
              id: { open_id: mention.openId, union_id: `on_${mention.openId}`, user_id: mention.openId.slice(3) },
              name: mention.name,
              tenant_key: 'tenant-1',
            })),
            user_agent: 'Mozilla/5.0',
          },
        },
      });
      return { messageId, sentAt };
    },
    event: deliver,
    raw(bytes) {
      for (const socket of live) socket.send(bytes);
    },
    redeliver() {
      for (const frames of unacked.values()) for (const frame of frames) for (const socket of live) socket.send(frame);
      return [...unacked.keys()];
    },
    dropSockets() {
      for (const socket of live) socket.terminate();
      live.clear();
    },
    refuseConnections(status, times) {
      endpointRefusals = { status, times };
    },
    failNext(route, status, times = 1) {
      failures.set(route, { status, times });
    },
    refuseNext(route, code, msg) {
      refusals.set(route, { code, msg });
    },
    rateLimitNext(route, times = 1, resetSeconds = 1) {
      rateLimits.set(route, { times, reset: resetSeconds });
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the Feishu/Lark server');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const socket of sockets.clients) socket.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A request's route name, after the SDK method that calls it. */
function routeOf(method: string, path: string): string {
  if (path === '/open-apis/bot/v3/info') return 'bot.info';
  if (/^\/open-apis\/contact\/v3\/users\/[^/]+$/.test(path)) return 'contact.user.get';
  if (method === 'POST' && path === '/open-apis/im/v1/messages') return 'im.message.create';
  if (method === 'POST' && path === '/open-apis/im/v1/files') return 'im.file.create';
  if (method === 'GET' && /^\/open-apis\/im\/v1\/messages\/[^/]+$/.test(path)) return 'im.message.get';
  if (method === 'POST' && /^\/open-apis\/im\/v1\/messages\/[^/]+\/reply$/.test(path)) return 'im.message.reply';
  return `${method} ${path}`;
}
