// Test-only: DingTalk's Stream mode and robot APIs over real HTTP and a real WebSocket, as api.dingtalk.com speaks
// them: POST /v1.0/gateway/connections/open (clientId + clientSecret + subscriptions → { endpoint, ticket }), the
// socket at /connect?ticket=… (one use per ticket; SYSTEM ping frames to be answered with their data; CALLBACK
// frames of the robot topic, delivered again on the next connection until acknowledged), the session webhooks the
// messages carry (text and markdown, `at`), POST /v1.0/oauth2/accessToken, the robot API
// (groupMessages/send, oToMessages/batchSend with sampleText, sampleMarkdown and sampleAudio naming an uploaded
// voice, messageFiles/download), the files behind the download codes, and oapi's POST /media/upload (the same
// access token as access_token; a voice is Ogg or AMR of at most 2 MB).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { multipartParts } from './multipart-parts.js';

const TOPIC_ROBOT = '/v1.0/im/bot/messages/get';

export interface DingtalkSent {
  /** The id the server gave it (what a reply to it names as repliedMsg.msgId). */
  id: string;
  /** When the server received it (performance.now()). */
  at: number;
  via: 'webhook' | 'api';
  /** The conversation id (webhooks and group sends) or `user:<id>` (single-chat API sends). */
  chat: string;
  /** Sent through the session webhook of this message (webhooks are per message). */
  answering?: string;
  msgtype: 'text' | 'markdown' | 'audio';
  /** The text ('' for audio). */
  text: string;
  /** sampleAudio: the uploaded voice it names and the duration it gives (milliseconds). */
  audio?: { mediaId: string; durationMs: number; bytes: Buffer };
  title?: string;
  atUserIds?: string[];
}

export interface DingtalkMessageOptions {
  conversationId: string;
  /** A single chat (conversationType '1'); a group otherwise. */
  single?: boolean;
  userId: string;
  nick?: string;
  text?: string;
  atHer?: boolean;
  msgId?: string;
  /** A reply to this message (text.isReplyMsg + repliedMsg); `fromHer` names her as its sender. */
  replyTo?: { msgId: string; fromHer?: boolean };
  /** Sent as a picture message whose download code serves these bytes. */
  picture?: Buffer;
  /** The session webhook has already expired (so the API must be used). */
  webhookExpired?: boolean;
  title?: string;
}

export interface DingtalkStreamServer {
  /** Configure as plugins.platform-dingtalk.gatewayUrl. */
  readonly gatewayUrl: string;
  /** Configure as plugins.platform-dingtalk.apiBase. */
  readonly apiBase: string;
  readonly botId: string;
  readonly sent: DingtalkSent[];
  /** Files uploaded with oapi's media/upload, by media_id. */
  readonly media: ReadonlyMap<string, { type: string; filename: string; bytes: Buffer }>;
  /** Connections opened (reconnects count). */
  connections(): number;
  /** Callbacks acknowledged, by their frame message id. */
  acknowledged(): string[];
  /** Callbacks not acknowledged yet, by their frame message id. */
  unacknowledged(): string[];
  /**
   * Sends every callback not acknowledged yet again on the live sockets, as DingTalk retries one the bot did not
   * acknowledge; returns their frame message ids.
   */
  redeliver(): string[];
  /** Answers to SYSTEM pings (their data). */
  pingAnswers(): string[];
  /** A robot message; returns its msgId. */
  message(options: DingtalkMessageOptions): string;
  /** A SYSTEM ping frame on every live socket. */
  systemPing(data?: string): void;
  raw(text: string): void;
  dropSockets(): void;
  failNext(pathSuffix: string, status: number, times?: number, body?: Record<string, unknown>): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let nextId = 7_000;

export async function startDingtalkStreamServer({
  clientId,
  clientSecret,
  botId = '$:LWCP_v1:$bot',
}: {
  clientId: string;
  clientSecret: string;
  botId?: string;
}): Promise<DingtalkStreamServer> {
  const sent: DingtalkSent[] = [];
  const tickets = new Set<string>();
  const tokens = new Set<string>();
  const files = new Map<string, Buffer>();
  const media = new Map<string, { type: string; filename: string; bytes: Buffer }>();
  const webhooks = new Map<string, { conversationId: string; msgId: string }>();
  const pending = new Map<string, string>();
  const acks: string[] = [];
  const pings: string[] = [];
  const failures = new Map<string, { status: number; times: number; body: Record<string, unknown> }>();
  const live = new Set<WebSocket>();
  let opened = 0;
  const stamp = () => ({ id: `dsent-${++nextId}`, at: performance.now() });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname.startsWith('/files/')) {
        const file = files.get(url.pathname.slice('/files/'.length));
        if (!file) return reply(404, { message: 'gone' });
        response.writeHead(200, { 'content-type': 'image/png' });
        return response.end(file);
      }
      if (request.method === 'POST' && url.pathname === '/media/upload') {
        // oapi answers errcode/errmsg with HTTP 200.
        if (!tokens.has(url.searchParams.get('access_token') ?? ''))
          return reply(200, { errcode: 40014, errmsg: '不合法的access_token' });
        const type = url.searchParams.get('type') ?? '';
        if (!['image', 'voice', 'video', 'file'].includes(type))
          return reply(200, { errcode: 40004, errmsg: '不合法的媒体文件类型' });
        const part = multipartParts(Buffer.concat(chunks), String(request.headers['content-type'] ?? '')).find(
          (entry) => entry.name === 'media',
        );
        if (!part || part.bytes.length === 0) return reply(200, { errcode: 41001, errmsg: '缺少media参数' });
        if (type === 'voice') {
          const head = part.bytes.subarray(0, 6).toString('latin1');
          if (!head.startsWith('OggS') && head !== '#!AMR\n')
            return reply(200, { errcode: 40005, errmsg: '不支持的文件格式' });
          if (part.bytes.length > 2 * 1024 * 1024) return reply(200, { errcode: 40006, errmsg: '不合法的文件大小' });
        }
        const mediaId = `@lA${randomUUID().replace(/-/g, '')}`;
        media.set(mediaId, { type, filename: part.filename ?? '', bytes: part.bytes });
        return reply(200, { errcode: 0, errmsg: 'ok', type, media_id: mediaId, created_at: Date.now() });
      }
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return reply(400, { code: 'InvalidParameter', message: 'body is not JSON' });
      }
      for (const [suffix, failure] of failures) {
        if (url.pathname.endsWith(suffix) && failure.times > 0) {
          failure.times -= 1;
          return reply(failure.status, failure.body);
        }
      }
      if (url.pathname === '/v1.0/gateway/connections/open') {
        if (body.clientId !== clientId || body.clientSecret !== clientSecret) {
          return reply(401, { code: 'InvalidAuthentication', message: 'clientId or clientSecret invalid' });
        }
        const subscriptions = Array.isArray(body.subscriptions) ? (body.subscriptions as { topic?: string }[]) : [];
        if (!subscriptions.some((entry) => entry.topic === TOPIC_ROBOT)) {
          return reply(400, { code: 'InvalidParameter', message: 'no robot subscription' });
        }
        const ticket = randomUUID();
        tickets.add(ticket);
        const { port } = server.address() as AddressInfo;
        return reply(200, { endpoint: `ws://127.0.0.1:${port}/connect`, ticket });
      }
      if (url.pathname === '/v1.0/oauth2/accessToken') {
        if (body.appKey !== clientId || body.appSecret !== clientSecret) {
          return reply(400, { code: 'invalidClientIdOrSecret', message: 'invalid appKey or appSecret' });
        }
        const token = `dt-token-${++nextId}`;
        tokens.add(token);
        return reply(200, { accessToken: token, expireIn: 7200 });
      }
      if (url.pathname === '/robot/sendBySession') {
        const webhook = webhooks.get(url.searchParams.get('session') ?? '');
        if (!webhook) return reply(200, { errcode: 300001, errmsg: 'session invalid' });
        const session = webhook.conversationId;
        const answering = webhook.msgId;
        const msgtype = body.msgtype;
        const at = (body.at as { atUserIds?: string[] } | undefined)?.atUserIds;
        if (msgtype === 'text') {
          const content = (body.text as { content?: string } | undefined)?.content;
          if (typeof content !== 'string' || content === '')
            return reply(200, { errcode: 40035, errmsg: 'content missing' });
          sent.push({
            ...stamp(),
            via: 'webhook',
            chat: session,
            answering,
            msgtype,
            text: content,
            ...(at ? { atUserIds: at } : {}),
          });
        } else if (msgtype === 'markdown') {
          const markdown = body.markdown as { title?: string; text?: string } | undefined;
          if (!markdown?.title || !markdown.text)
            return reply(200, { errcode: 40035, errmsg: 'title or text missing' });
          sent.push({
            ...stamp(),
            via: 'webhook',
            chat: session,
            answering,
            msgtype,
            text: markdown.text,
            title: markdown.title,
            ...(at ? { atUserIds: at } : {}),
          });
        } else {
          return reply(200, { errcode: 40035, errmsg: `unknown msgtype ${String(msgtype)}` });
        }
        return reply(200, { errcode: 0, errmsg: 'ok' });
      }
      const token = String(request.headers['x-acs-dingtalk-access-token'] ?? '');
      if (!tokens.has(token)) return reply(401, { code: 'InvalidAuthentication', message: 'access token invalid' });
      if (url.pathname === '/v1.0/robot/messageFiles/download') {
        const code = String(body.downloadCode ?? '');
        if (body.robotCode !== clientId || !files.has(code))
          return reply(400, { code: 'InvalidParameter', message: 'downloadCode' });
        const { port } = server.address() as AddressInfo;
        return reply(200, { downloadUrl: `http://127.0.0.1:${port}/files/${code}` });
      }
      if (url.pathname === '/v1.0/robot/groupMessages/send' || url.pathname === '/v1.0/robot/oToMessages/batchSend') {
        if (body.robotCode !== clientId) return reply(400, { code: 'InvalidParameter', message: 'robotCode' });
        const msgKey = body.msgKey;
        let param: { content?: string; title?: string; text?: string; mediaId?: string; duration?: string };
        try {
          param = JSON.parse(String(body.msgParam));
        } catch {
          return reply(400, { code: 'InvalidParameter', message: 'msgParam is not JSON' });
        }
        const group = url.pathname.includes('group');
        const chat = group
          ? String(body.openConversationId)
          : `user:${String((body.userIds as string[] | undefined)?.[0])}`;
        if (msgKey === 'sampleText' && param.content)
          sent.push({ ...stamp(), via: 'api', chat, msgtype: 'text', text: param.content });
        else if (msgKey === 'sampleMarkdown' && param.title && param.text) {
          sent.push({ ...stamp(), via: 'api', chat, msgtype: 'markdown', text: param.text, title: param.title });
        } else if (msgKey === 'sampleAudio') {
          const voice = media.get(String(param.mediaId ?? ''));
          const durationMs = Number(param.duration);
          if (voice?.type !== 'voice' || typeof param.duration !== 'string' || !(durationMs > 0))
            return reply(400, {
              code: 'InvalidParameter',
              message: 'sampleAudio needs an uploaded voice mediaId and a duration',
            });
          sent.push({
            ...stamp(),
            via: 'api',
            chat,
            msgtype: 'audio',
            text: '',
            audio: { mediaId: String(param.mediaId), durationMs, bytes: voice.bytes },
          });
        } else return reply(400, { code: 'InvalidParameter', message: 'msgKey or msgParam' });
        return reply(200, { processQueryKey: `pq-${++nextId}` });
      }
      reply(404, { code: 'NotFound', message: url.pathname });
    });
  });

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/connect' || !tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws));
  });
  sockets.on('connection', (socket: WebSocket) => {
    opened += 1;
    live.add(socket);
    socket.on('message', (data) => {
      let frame: { code?: number; headers?: { messageId?: string; topic?: string }; data?: string };
      try {
        frame = JSON.parse(String(data));
      } catch {
        return;
      }
      const id = frame.headers?.messageId;
      if (!id) return;
      if (id.startsWith('ping-')) pings.push(String(frame.data));
      else if (pending.delete(id)) acks.push(id);
    });
    socket.on('close', () => live.delete(socket));
    // What was not acknowledged is delivered again, as DingTalk retries.
    for (const frame of pending.values()) socket.send(frame);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    gatewayUrl: `${base}/v1.0/gateway/connections/open`,
    apiBase: base,
    botId,
    sent,
    media,
    connections: () => opened,
    acknowledged: () => [...acks],
    unacknowledged: () => [...pending.keys()],
    redeliver() {
      for (const frame of pending.values()) for (const socket of live) socket.send(frame);
      return [...pending.keys()];
    },
    pingAnswers: () => [...pings],
    message(options) {
      nextId += 1;
      const msgId = options.msgId ?? `msg${nextId}`;
      const session = `s${nextId}`;
      webhooks.set(session, { conversationId: options.conversationId, msgId });
      const data: Record<string, unknown> = {
        conversationId: options.conversationId,
        conversationType: options.single ? '1' : '2',
        ...(options.single ? {} : { conversationTitle: options.title ?? 'A group' }),
        chatbotUserId: botId,
        chatbotCorpId: 'ding-corp',
        msgId,
        senderNick: options.nick ?? options.userId,
        senderStaffId: options.userId,
        senderId: `$:LWCP_v1:$${options.userId}`,
        senderCorpId: 'ding-corp',
        isAdmin: false,
        isInAtList: options.single ? false : options.atHer === true,
        sessionWebhook: `${base}/robot/sendBySession?session=${session}`,
        sessionWebhookExpiredTime: options.webhookExpired ? Date.now() - 1000 : Date.now() + 90 * 60_000,
        createAt: Date.now(),
        robotCode: clientId,
      };
      if (options.picture) {
        const code = `code-${nextId}`;
        files.set(code, options.picture);
        data.msgtype = 'picture';
        data.content = { downloadCode: code, pictureDownloadCode: code };
      } else {
        data.msgtype = 'text';
        data.text = {
          content: options.text ?? '',
          ...(options.replyTo
            ? {
                isReplyMsg: true,
                repliedMsg: {
                  msgId: options.replyTo.msgId,
                  senderId: options.replyTo.fromHer ? botId : 'someone-else',
                  msgType: 'text',
                },
              }
            : {}),
        };
        if (options.atHer) data.atUsers = [{ dingtalkId: botId }];
      }
      const frameId = `frame-${nextId}`;
      const frame = JSON.stringify({
        specVersion: '1.0',
        type: 'CALLBACK',
        headers: {
          appId: clientId,
          connectionId: 'conn',
          contentType: 'application/json',
          messageId: frameId,
          time: String(Date.now()),
          topic: TOPIC_ROBOT,
        },
        data: JSON.stringify(data),
      });
      pending.set(frameId, frame);
      for (const socket of live) socket.send(frame);
      return msgId;
    },
    systemPing(data = JSON.stringify({ opaque: `p${++nextId}` })) {
      const frame = JSON.stringify({
        specVersion: '1.0',
        type: 'SYSTEM',
        headers: {
          contentType: 'application/json',
          messageId: `ping-${++nextId}`,
          time: String(Date.now()),
          topic: 'ping',
        },
        data,
      });
      for (const socket of live) socket.send(frame);
    },
    raw(text) {
      for (const socket of live) socket.send(text);
    },
    dropSockets() {
      for (const socket of live) socket.terminate();
      live.clear();
    },
    failNext(pathSuffix, status, times = 1, body = { code: 'ServiceUnavailable', message: 'failing on purpose' }) {
      failures.set(pathSuffix, { status, times, body });
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the DingTalk server');
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
