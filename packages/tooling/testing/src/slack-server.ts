// Test-only: Slack's Socket Mode and Web API over real HTTP and a real WebSocket, as slack.com speaks them. The Web API
// at <base>/api/<method> (form-encoded or JSON bodies, the token as Bearer or `token`, answers {ok, …} with HTTP 200,
// {ok:false,error:'invalid_auth'} for a wrong token, 429 with Retry-After when asked to): apps.connections.open (the
// app token) answers a one-time socket URL; auth.test, chat.postMessage, users.info and the file upload
// (files.getUploadURLExternal, the bytes to its upload_url, files.completeUploadExternal) take the bot token. The socket
// (<base>/link/?ticket=…) says hello, sends events_api envelopes, records the acks, and sends again on the next
// connection what was not acknowledged (with retry_attempt), as Slack redelivers; it pings when asked to.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface SlackCall {
  method: string;
  body: Record<string, unknown>;
  /** Which token came: 'bot', 'app' or 'other'. */
  token: 'bot' | 'app' | 'other';
}

export interface SlackPosted {
  channel: string;
  text: string;
  threadTs?: string;
  /** reply_broadcast: a thread reply also shown in the channel. */
  broadcast?: boolean;
  blocks?: unknown;
  ts: string;
  /** performance.now() on arrival. */
  at: number;
}

/** A file she uploaded (files.getUploadURLExternal, the bytes to its upload_url, files.completeUploadExternal). */
export interface SlackUpload {
  fileId: string;
  filename: string;
  title?: string;
  channel: string;
  threadTs?: string;
  bytes: Buffer;
  /** performance.now() when the upload was completed. */
  at: number;
}

export interface SlackMessageOptions {
  channel: string;
  /** 'channel' (default), 'group', 'im' or 'mpim'. */
  channelType?: string;
  user: string;
  text: string;
  ts?: string;
  threadTs?: string;
  /** The author of the thread's first message (Slack sets it on replies in a thread). */
  parentUserId?: string;
  files?: { name: string; mimetype: string; url_private_download: string }[];
  /** Also sends the app_mention event Slack sends beside the message when she is mentioned in a channel. */
  appMention?: boolean;
}

export interface SlackServer {
  /** The Web API base to configure as apiUrl: http://127.0.0.1:<port>/api/ */
  readonly apiUrl: string;
  readonly calls: SlackCall[];
  /** What she posted with chat.postMessage. */
  readonly posted: SlackPosted[];
  /** Files she shared in a channel (uploads completed with files.completeUploadExternal). */
  readonly uploads: SlackUpload[];
  /** Envelope ids the adapter acknowledged. */
  readonly acks: string[];
  /** Her account: user id, bot id, name, team. */
  readonly bot: { userId: string; botId: string; name: string; teamId: string };
  /** How many sockets got hello (reconnects count). */
  connections(): number;
  /** Sends a message event (and an app_mention when asked) on the live socket, or queues it until one connects. */
  message(options: SlackMessageOptions): { ts: string; envelopeIds: string[]; sentAt: number };
  /** Sends a raw frame on every live socket (malformed input). */
  raw(text: string): void;
  /** Sends an events_api envelope with this inner event as it is (unknown types, missing fields). */
  event(event: Record<string, unknown>): string;
  /** Terminates every live socket at once (the adapter should open a new one). */
  dropSockets(): void;
  /**
   * Sends every envelope not acknowledged yet again on the live sockets (retry_attempt counted up), as Slack retries
   * an unacknowledged event; returns their envelope ids.
   */
  redeliver(): string[];
  /** Sends Slack's `disconnect` message (refresh_requested), as before Slack recycles a socket. */
  requestRefresh(): void;
  /** The next `times` calls of `method` answer with HTTP `status` (429 comes with Retry-After: retryAfter). */
  failNext(method: string, status: number, times?: number, retryAfter?: number): void;
  /** The next call of `method` is answered {ok:false, error} with HTTP 200 (Slack's refusals: not_in_channel …). */
  refuseNext(method: string, error: string): void;
  /** Sends a WebSocket ping every `ms` on every live socket (0 stops). */
  pingEvery(ms: number): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let nextTs = 0;
let nextEnvelope = 0;

function newTs(): string {
  nextTs += 1;
  return `${Math.floor(Date.now() / 1000)}.${String(nextTs).padStart(6, '0')}`;
}

export async function startSlackServer({
  botToken,
  appToken,
  users = {},
}: {
  botToken: string;
  appToken: string;
  /** User id → display name (users.info). */
  users?: Record<string, string>;
}): Promise<SlackServer> {
  const bot = { userId: 'U0AALIS01', botId: 'B0AALIS01', name: 'aalis', teamId: 'T0TEAM001' };
  const calls: SlackCall[] = [];
  const posted: SlackPosted[] = [];
  const uploads: SlackUpload[] = [];
  /** Upload URLs given out: file id → the file's name, its announced length and the bytes once they came. */
  const pending = new Map<string, { filename: string; length: number; bytes?: Buffer }>();
  let nextFile = 0;
  const acks: string[] = [];
  const failures = new Map<string, { status: number; times: number; retryAfter: number }>();
  const refusals = new Map<string, string>();
  const tickets = new Set<string>();
  /** Envelopes not yet acknowledged, in order (sent again on the next connection). */
  const unacked = new Map<string, Record<string, unknown>>();
  const live = new Set<WebSocket>();
  let connected = 0;
  let pinger: ReturnType<typeof setInterval> | undefined;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        response.end(JSON.stringify(value));
      };
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const upload = request.method === 'POST' ? /^\/upload\/([^/]+)$/.exec(url.pathname) : null;
      if (upload) {
        // The upload URL takes the bytes raw or as a multipart form's file, as files.slack.com does.
        const file = pending.get(upload[1]!);
        if (!file) return void response.writeHead(404).end();
        void (async () => {
          let bytes = Buffer.concat(chunks);
          const type = String(request.headers['content-type'] ?? '');
          if (type.startsWith('multipart/form-data')) {
            const form = await new Request('http://slack.test/', {
              method: 'POST',
              headers: { 'content-type': type },
              body: new Uint8Array(bytes),
            }).formData();
            const part = [...form.values()].find((value) => typeof value !== 'string');
            bytes = part && typeof part !== 'string' ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
          }
          if (bytes.length !== file.length) {
            response
              .writeHead(400, { 'content-type': 'text/plain' })
              .end(`length ${bytes.length} is not ${file.length}`);
            return;
          }
          file.bytes = bytes;
          response.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${bytes.length}`);
        })();
        return;
      }
      if (!url.pathname.startsWith('/api/')) {
        response.writeHead(404).end();
        return;
      }
      const method = url.pathname.slice('/api/'.length);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      if ((request.headers['content-type'] ?? '').includes('application/json')) {
        try {
          body = raw === '' ? {} : JSON.parse(raw);
        } catch {
          return reply(200, { ok: false, error: 'invalid_json' });
        }
      } else {
        body = Object.fromEntries(new URLSearchParams(raw));
      }
      const bearer = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || String(body.token ?? '');
      const token = bearer === botToken ? 'bot' : bearer === appToken ? 'app' : 'other';
      delete body.token;
      calls.push({ method, body, token });
      const failure = failures.get(method);
      if (failure && failure.times > 0) {
        failure.times -= 1;
        if (failure.status === 429) {
          return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(failure.retryAfter) });
        }
        response.writeHead(failure.status, { 'content-type': 'text/plain' }).end('failing on purpose');
        return;
      }
      const refusal = refusals.get(method);
      if (refusal !== undefined) {
        refusals.delete(method);
        return reply(200, { ok: false, error: refusal });
      }
      if (method === 'apps.connections.open') {
        if (token === 'bot') return reply(200, { ok: false, error: 'not_allowed_token_type' });
        if (token !== 'app') return reply(200, { ok: false, error: 'invalid_auth' });
        const ticket = `ticket-${Math.random().toString(36).slice(2)}`;
        tickets.add(ticket);
        const { port } = server.address() as AddressInfo;
        return reply(200, { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=A0AALIS01` });
      }
      if (token !== 'bot')
        return reply(200, { ok: false, error: token === 'app' ? 'not_allowed_token_type' : 'invalid_auth' });
      if (method === 'auth.test') {
        return reply(200, {
          ok: true,
          url: 'https://aalis-test.slack.com/',
          team: 'Aalis Test',
          user: bot.name,
          team_id: bot.teamId,
          user_id: bot.userId,
          bot_id: bot.botId,
          is_enterprise_install: false,
        });
      }
      if (method === 'users.info') {
        const id = String(body.user ?? '');
        const name = users[id];
        if (!name) return reply(200, { ok: false, error: 'user_not_found' });
        return reply(200, {
          ok: true,
          user: { id, name: name.toLowerCase(), real_name: name, profile: { display_name: name, real_name: name } },
        });
      }
      if (method === 'files.getUploadURLExternal') {
        const filename = String(body.filename ?? '');
        const length = Number(body.length);
        if (filename === '' || !Number.isInteger(length) || length < 1)
          return reply(200, { ok: false, error: 'invalid_arguments' });
        nextFile += 1;
        const fileId = `F0VOICE${String(nextFile).padStart(3, '0')}`;
        pending.set(fileId, { filename, length });
        const { port } = server.address() as AddressInfo;
        return reply(200, { ok: true, upload_url: `http://127.0.0.1:${port}/upload/${fileId}`, file_id: fileId });
      }
      if (method === 'files.completeUploadExternal') {
        let files: { id?: string; title?: string }[];
        try {
          files = typeof body.files === 'string' ? JSON.parse(body.files) : (body.files as typeof files);
        } catch {
          return reply(200, { ok: false, error: 'invalid_arguments' });
        }
        if (!Array.isArray(files) || files.length === 0) return reply(200, { ok: false, error: 'invalid_arguments' });
        const channel = String(body.channel_id ?? '');
        const threadTs = typeof body.thread_ts === 'string' && body.thread_ts !== '' ? body.thread_ts : undefined;
        const done = [];
        for (const entry of files) {
          const file = pending.get(String(entry.id ?? ''));
          if (!file?.bytes) return reply(200, { ok: false, error: 'file_not_found' });
          pending.delete(String(entry.id));
          if (channel !== '')
            uploads.push({
              fileId: String(entry.id),
              filename: file.filename,
              ...(entry.title ? { title: entry.title } : {}),
              channel,
              ...(threadTs ? { threadTs } : {}),
              bytes: file.bytes,
              at: performance.now(),
            });
          done.push({ id: entry.id, name: file.filename, title: entry.title ?? file.filename });
        }
        return reply(200, { ok: true, files: done });
      }
      if (method === 'chat.postMessage') {
        const channel = String(body.channel ?? '');
        const text = typeof body.text === 'string' ? body.text : '';
        if (!channel) return reply(200, { ok: false, error: 'channel_not_found' });
        if (text === '' && body.blocks === undefined) return reply(200, { ok: false, error: 'no_text' });
        if (text.length > 40_000) return reply(200, { ok: false, error: 'msg_too_long' });
        const ts = newTs();
        const threadTs = typeof body.thread_ts === 'string' && body.thread_ts !== '' ? body.thread_ts : undefined;
        const blocks = typeof body.blocks === 'string' ? JSON.parse(body.blocks) : body.blocks;
        const broadcast = body.reply_broadcast === true || body.reply_broadcast === 'true';
        posted.push({
          channel,
          text,
          ...(threadTs ? { threadTs } : {}),
          ...(threadTs && broadcast ? { broadcast } : {}),
          ...(blocks !== undefined ? { blocks } : {}),
          ts,
          at: performance.now(),
        });
        return reply(200, {
          ok: true,
          channel,
          ts,
          message: {
            type: 'message',
            user: bot.userId,
            bot_id: bot.botId,
            text,
            ts,
            ...(threadTs ? { thread_ts: threadTs } : {}),
          },
        });
      }
      reply(200, { ok: false, error: 'unknown_method' });
    });
  });

  const sendAgain = (to: Iterable<WebSocket>): string[] => {
    const targets = [...to];
    for (const envelope of unacked.values()) {
      envelope.retry_attempt = Number(envelope.retry_attempt ?? 0) + 1;
      envelope.retry_reason = 'timeout';
      for (const socket of targets) socket.send(JSON.stringify(envelope));
    }
    return [...unacked.keys()];
  };

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws));
  });
  sockets.on('connection', (socket: WebSocket) => {
    connected += 1;
    live.add(socket);
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: live.size,
        debug_info: { host: 'applink-test', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0AALIS01' },
      }),
    );
    // What was not acknowledged is delivered again, as Slack retries.
    sendAgain([socket]);
    socket.on('message', (data) => {
      try {
        const ack = JSON.parse(String(data)) as { envelope_id?: string };
        if (typeof ack.envelope_id === 'string') {
          acks.push(ack.envelope_id);
          unacked.delete(ack.envelope_id);
        }
      } catch {
        // Slack ignores what it cannot read.
      }
    });
    socket.on('close', () => live.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const deliver = (inner: Record<string, unknown>): string => {
    nextEnvelope += 1;
    const envelopeId = `env-${nextEnvelope}`;
    const envelope = {
      envelope_id: envelopeId,
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      payload: {
        token: 'verification-token',
        team_id: bot.teamId,
        api_app_id: 'A0AALIS01',
        event: inner,
        type: 'event_callback',
        event_id: `Ev${nextEnvelope}`,
        event_time: Math.floor(Date.now() / 1000),
      },
    };
    unacked.set(envelopeId, envelope);
    for (const socket of live) socket.send(JSON.stringify(envelope));
    return envelopeId;
  };

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    posted,
    uploads,
    acks,
    bot,
    connections: () => connected,
    message(options) {
      const ts = options.ts ?? newTs();
      const channelType = options.channelType ?? 'channel';
      const event: Record<string, unknown> = {
        type: 'message',
        channel: options.channel,
        channel_type: channelType,
        user: options.user,
        text: options.text,
        ts,
        event_ts: ts,
        team: bot.teamId,
        ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
        ...(options.parentUserId ? { parent_user_id: options.parentUserId } : {}),
        ...(options.files ? { subtype: 'file_share', files: options.files } : {}),
      };
      const sentAt = performance.now();
      const envelopeIds = [deliver(event)];
      if (options.appMention) {
        const { channel_type: _omitted, ...mention } = event;
        envelopeIds.push(deliver({ ...mention, type: 'app_mention' }));
      }
      return { ts, envelopeIds, sentAt };
    },
    raw(text) {
      for (const socket of live) socket.send(text);
    },
    event: deliver,
    dropSockets() {
      for (const socket of live) socket.terminate();
      live.clear();
    },
    redeliver: () => sendAgain(live),
    requestRefresh() {
      for (const socket of live) {
        socket.send(
          JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-test' } }),
        );
      }
    },
    failNext(method, status, times = 1, retryAfter = 1) {
      failures.set(method, { status, times, retryAfter });
    },
    refuseNext(method, error) {
      refusals.set(method, error);
    },
    pingEvery(ms) {
      clearInterval(pinger);
      pinger = undefined;
      if (ms > 0) {
        pinger = setInterval(() => {
          for (const socket of live) socket.ping(Buffer.from('ping'));
        }, ms);
        pinger.unref?.();
      }
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the Slack server');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      clearInterval(pinger);
      for (const socket of sockets.clients) socket.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
