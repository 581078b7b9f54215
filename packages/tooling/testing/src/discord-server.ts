// Test-only: a Discord API of our own over real HTTP and a real WebSocket, speaking the wire Discord's gateway (v10,
// JSON encoding) and REST API speak. The gateway at ws://…/gateway: HELLO with the heartbeat interval, IDENTIFY
// checked against the bot token, READY (session id, resume URL, application, guilds unavailable) followed by each
// guild's GUILD_CREATE, HEARTBEAT_ACK for each HEARTBEAT, RESUME replaying the dispatches after the given sequence
// (INVALID_SESSION for an unknown session), dispatches with increasing sequence numbers. REST at http://…/api/v10:
// GET /gateway/bot, POST /channels/{id}/messages (what she sent, with the ids the server gave them; a voice message
// checked as Discord checks it: flags 8192, one audio file with duration_secs and waveform, no content), POST
// /channels/{id}/typing, PUT /applications/{id}/commands, POST /users/@me/channels, POST
// /interactions/{id}/{token}/callback and the interaction webhooks; failures on demand (a 429 with retry_after, 5xx,
// Discord's JSON error bodies), a refused socket upgrade, dropped sockets, raw frames.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

export interface DiscordChannelFixture {
  id: string;
  name: string;
  /** Discord's channel type: 0 a text channel (default), 11 a public thread, 12 a private thread. */
  type?: number;
  /** A thread's channel. */
  parentId?: string;
}

export interface DiscordGuildFixture {
  id: string;
  name: string;
  channels: DiscordChannelFixture[];
  /** Roles; `botId` makes one the managed role Discord creates for that bot. */
  roles?: { id: string; name: string; botId?: string }[];
}

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  bot?: boolean;
}

export interface DiscordRequest {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
  at: number;
}

export interface DiscordSentMessage {
  id: string;
  channelId: string;
  content: string;
  /** message_reference.message_id: the message it replies to. */
  replyTo?: string;
  allowedMentions?: unknown;
  embeds?: unknown[];
  /** Files uploaded with it (multipart/form-data: payload_json and files[n]). */
  files?: { name: string; size: number; contentType: string; bytes: Buffer }[];
  /** The message's flags (IS_VOICE_MESSAGE = 8192). */
  flags?: number;
  /** The attachments' metadata in payload_json (a voice message's duration_secs and waveform). */
  attachments?: Record<string, unknown>[];
  /** performance.now() when the request arrived. */
  at: number;
}

export interface DiscordInteractionCall {
  kind: 'callback' | 'edit-original' | 'followup';
  interactionId?: string;
  token: string;
  body: Record<string, unknown>;
  at: number;
}

export interface DiscordFailure {
  status: number;
  /** Discord's JSON error code (50007 cannot send messages to this user …). */
  code?: number;
  message?: string;
  /** For a 429: seconds to wait (retry_after in the body, Retry-After header). */
  retryAfter?: number;
}

export interface DiscordServerOptions {
  token: string;
  bot?: DiscordUser;
  applicationId?: string;
  guilds?: DiscordGuildFixture[];
  heartbeatIntervalMs?: number;
  /**
   * Discord's rate limits, answered as Discord answers them (X-RateLimit-* headers on every message send, a 429 with
   * retry_after and X-RateLimit-Scope when one is exceeded). Default: what Discord gives a bot today — 5 message
   * sends per channel per 5 s (the bucket of POST /channels/{id}/messages) and 50 requests per second in all (the
   * global limit).
   */
  rateLimits?: { perChannel: { limit: number; windowMs: number }; globalPerSecond: number };
}

/** Discord's limits for a bot (docs: Rate Limits; the per-channel message bucket as Discord's headers announce it). */
export const DISCORD_RATE_LIMITS = { perChannel: { limit: 5, windowMs: 5_000 }, globalPerSecond: 50 } as const;

export interface DiscordServer {
  /** The REST base to configure (without the version): http://127.0.0.1:<port>/api */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly bot: DiscordUser;
  readonly applicationId: string;
  readonly requests: DiscordRequest[];
  readonly sent: DiscordSentMessage[];
  readonly interactionCalls: DiscordInteractionCall[];
  /** The body of the last PUT /applications/{id}/commands. */
  commands(): Record<string, unknown>[] | undefined;
  /** IDENTIFYs accepted, RESUMEs accepted, HEARTBEATs acknowledged. */
  identified(): number;
  resumed(): number;
  heartbeats(): number;
  /** Gateway sockets that closed without an IDENTIFY or a RESUME sent on them. */
  silentSockets(): number;
  /** Serves `bytes` as a CDN attachment; returns its URL (for `message({ attachments })`). */
  addAttachment(name: string, bytes: Uint8Array, contentType: string): string;
  /** The DM channel between her and `user` (created on first use, as POST /users/@me/channels does). */
  dmChannel(user: DiscordUser): string;
  /** A MESSAGE_CREATE from `author`: in a guild channel or thread, or in the DM channel when `channelId` is one. */
  message(event: {
    channelId: string;
    author: DiscordUser;
    content: string;
    /** Users mentioned (their `<@id>` is expected in the content). */
    mentions?: DiscordUser[];
    /** Roles mentioned (`<@&id>` in the content). */
    mentionRoles?: string[];
    /** The id of the message it replies to (one of hers or anyone's). */
    replyTo?: string;
    id?: string;
    nick?: string;
    attachments?: { url: string; filename: string; content_type?: string; size?: number }[];
  }): { id: string; s: number };
  /** An INTERACTION_CREATE for a slash command. */
  command(event: { channelId: string; user: DiscordUser; name: string; options?: { name: string; value: string }[] }): {
    id: string;
    token: string;
  };
  /** Any dispatch (kept for RESUME); returns its sequence number. */
  dispatch(type: string, data: unknown): number;
  /** A raw frame on every live socket. */
  raw(text: string): void;
  /** Terminates every live socket (an abnormal closure: the client resumes). */
  dropSockets(): void;
  /** The next `times` socket upgrades are answered with HTTP `status`. */
  refuseSockets(status: number, times: number): void;
  /** Requests answered 429 because a rate limit was exceeded (the client did not keep to the headers). */
  rateLimited(): number;
  /** The next `times` REST requests whose `METHOD /path` matches fail with `failure`. */
  failNext(route: RegExp, failure: DiscordFailure, times?: number): void;
  /** Voice messages to this channel are refused (403, code 50173), as in a channel without the permission. */
  refuseVoiceMessages(channelId: string): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

let nextSnowflake = 1_300_000_000_000_000_000n;
/** MessageFlags.IsVoiceMessage. */
const VOICE_MESSAGE = 1 << 13;

const snowflake = () => {
  nextSnowflake += 1n;
  return String(nextSnowflake);
};

const wireUser = (user: DiscordUser) => ({
  id: user.id,
  username: user.username,
  global_name: user.global_name ?? null,
  discriminator: '0',
  avatar: null,
  ...(user.bot ? { bot: true } : {}),
});

export async function startDiscordServer(options: DiscordServerOptions): Promise<DiscordServer> {
  const bot: DiscordUser = options.bot ?? { id: '1200000000000000001', username: 'Aalis', bot: true };
  const applicationId = options.applicationId ?? bot.id;
  const guilds = options.guilds ?? [];
  const heartbeatInterval = options.heartbeatIntervalMs ?? 1_000;
  const requests: DiscordRequest[] = [];
  const sent: DiscordSentMessage[] = [];
  const interactionCalls: DiscordInteractionCall[] = [];
  const messages = new Map<string, Record<string, unknown>>();
  const dms = new Map<string, string>();
  const dmChannels = new Set<string>();
  const failures: { route: RegExp; failure: DiscordFailure; times: number }[] = [];
  const voiceless = new Set<string>();
  const attachments = new Map<string, { bytes: Uint8Array; contentType: string }>();
  const live = new Set<WebSocket>();
  const limits = options.rateLimits ?? DISCORD_RATE_LIMITS;
  /** Per channel: when its message bucket's window began and the sends in it. */
  const buckets = new Map<string, { startedAt: number; used: number }>();
  /** The global limit: the requests of the current second. */
  let globalWindow = { startedAt: 0, used: 0 };
  let limited = 0;
  let commandList: Record<string, unknown>[] | undefined;
  let identifications = 0;
  let resumes = 0;
  let heartbeatCount = 0;
  let silent = 0;
  let refusals = { status: 503, times: 0 };
  // One session at a time, as one shard of one bot: its dispatches are kept (bounded) for RESUME.
  let session = { id: '', sequence: 0, events: [] as { s: number; t: string; d: unknown }[] };

  const channelOf = (id: string) => {
    for (const guild of guilds) {
      const channel = guild.channels.find((entry) => entry.id === id);
      if (channel) return { guild, channel };
    }
    return undefined;
  };
  const wireChannel = (guild: DiscordGuildFixture, channel: DiscordChannelFixture) => ({
    id: channel.id,
    type: channel.type ?? 0,
    guild_id: guild.id,
    name: channel.name,
    ...(channel.parentId ? { parent_id: channel.parentId } : {}),
    ...(channel.type === 11 || channel.type === 12
      ? { thread_metadata: { archived: false, auto_archive_duration: 1440, locked: false } }
      : {}),
  });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, response, Buffer.concat(chunks)).catch(() => {
        if (!response.headersSent) response.writeHead(400).end();
      });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse, raw: Buffer) {
    const reply = (status: number, value?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, value === undefined ? headers : { 'content-type': 'application/json', ...headers });
      response.end(value === undefined ? undefined : JSON.stringify(value));
    };
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, '');
    const method = request.method ?? 'GET';
    const attachment = method === 'GET' ? /^\/attachments\/([^/]+)$/.exec(url.pathname) : null;
    if (attachment) {
      // The CDN: no token, as Discord's attachment URLs are public.
      const file = attachments.get(decodeURIComponent(attachment[1]!));
      if (!file) return reply(404, { message: '404: Not Found', code: 0 });
      response.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.bytes.byteLength) });
      response.end(Buffer.from(file.bytes));
      return;
    }
    let body: unknown;
    const files: { name: string; size: number; contentType: string; bytes: Buffer }[] = [];
    const text = raw.toString('utf8');
    const contentType = String(request.headers['content-type'] ?? '');
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Request('http://discord.test/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: new Uint8Array(raw),
      }).formData();
      const payload = form.get('payload_json');
      body = typeof payload === 'string' ? JSON.parse(payload) : {};
      for (const [key, value] of form) {
        if (key.startsWith('files[') && typeof value !== 'string') {
          files.push({
            name: value.name,
            size: value.size,
            contentType: value.type,
            bytes: Buffer.from(await value.arrayBuffer()),
          });
        }
      }
    } else if (text !== '' && contentType.includes('application/json')) {
      try {
        body = JSON.parse(text);
      } catch {
        return reply(400, { message: '400: Bad Request', code: 50109 });
      }
    }
    requests.push({ method, path, body, authorization: request.headers.authorization, at: performance.now() });
    const interactionRoute = /^\/(interactions|webhooks)\//.test(path);
    if (!interactionRoute && request.headers.authorization !== `Bot ${options.token}`) {
      return reply(401, { message: '401: Unauthorized', code: 0 });
    }
    // The global limit: every authorised request counts (interaction callbacks are outside it, as on Discord).
    if (!interactionRoute) {
      const now = Date.now();
      if (now - globalWindow.startedAt >= 1_000) globalWindow = { startedAt: now, used: 0 };
      globalWindow.used += 1;
      if (globalWindow.used > limits.globalPerSecond) {
        limited += 1;
        const seconds = (globalWindow.startedAt + 1_000 - now) / 1000;
        return reply(
          429,
          { message: 'You are being rate limited.', retry_after: seconds, global: true },
          { 'retry-after': String(Math.ceil(seconds)), 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
        );
      }
    }
    const failure = failures.find((entry) => entry.times > 0 && entry.route.test(`${method} ${path}`));
    if (failure) {
      failure.times -= 1;
      const { status, code = 0, message = 'failing on purpose', retryAfter } = failure.failure;
      if (status === 429) {
        const seconds = retryAfter ?? 0.1;
        return reply(
          429,
          { message: 'You are being rate limited.', retry_after: seconds, global: false },
          { 'retry-after': String(Math.ceil(seconds)), 'x-ratelimit-scope': 'user' },
        );
      }
      return reply(status, { message, code });
    }
    const record = (body ?? {}) as Record<string, unknown>;
    const route = (verb: string, pattern: RegExp) => (method === verb ? pattern.exec(path) : null);
    const channelMessages = route('POST', /^\/channels\/(\d+)\/messages$/);
    const typing = route('POST', /^\/channels\/(\d+)\/typing$/);
    const applicationCommands = route('PUT', /^\/applications\/(\d+)\/commands$/);
    const callback = route('POST', /^\/interactions\/(\d+)\/([^/]+)\/callback$/);
    const editOriginal = route('PATCH', /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/);
    const followup = route('POST', /^\/webhooks\/(\d+)\/([^/]+)$/);
    if (method === 'GET' && path === '/gateway/bot') {
      return reply(200, {
        url: `ws://127.0.0.1:${port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    if (method === 'GET' && path === '/gateway') return reply(200, { url: `ws://127.0.0.1:${port}/gateway` });
    if (method === 'GET' && path === '/users/@me') return reply(200, wireUser(bot));
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(record.recipient_id ?? '');
      const id = dmChannelFor(recipient);
      return reply(200, { id, type: 1, recipients: [{ id: recipient, username: recipient }] });
    }
    if (channelMessages) {
      const channelId = channelMessages[1]!;
      if (!channelOf(channelId) && !dmChannels.has(channelId))
        return reply(404, { message: 'Unknown Channel', code: 10003 });
      // The channel's message bucket: announced on every answer, a 429 once it is spent.
      const now = Date.now();
      let bucket = buckets.get(channelId);
      if (!bucket || now - bucket.startedAt >= limits.perChannel.windowMs) {
        bucket = { startedAt: now, used: 0 };
        buckets.set(channelId, bucket);
      }
      const resetAt = bucket.startedAt + limits.perChannel.windowMs;
      const spent = bucket.used >= limits.perChannel.limit;
      if (!spent) bucket.used += 1;
      const limitHeaders = {
        'x-ratelimit-limit': String(limits.perChannel.limit),
        'x-ratelimit-remaining': String(limits.perChannel.limit - bucket.used),
        'x-ratelimit-reset': (resetAt / 1000).toFixed(3),
        'x-ratelimit-reset-after': ((resetAt - now) / 1000).toFixed(3),
        'x-ratelimit-bucket': 'channel-messages',
      };
      if (spent) {
        limited += 1;
        const seconds = (resetAt - now) / 1000;
        return reply(
          429,
          { message: 'You are being rate limited.', retry_after: seconds, global: false },
          { ...limitHeaders, 'retry-after': String(Math.ceil(seconds)), 'x-ratelimit-scope': 'user' },
        );
      }
      for (const [name, value] of Object.entries(limitHeaders)) response.setHeader(name, value);
      const content = typeof record.content === 'string' ? record.content : '';
      if (content.length > 2000) {
        return reply(400, {
          message: 'Invalid Form Body',
          code: 50035,
          errors: {
            content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
          },
        });
      }
      // A voice message, as Discord checks it: one audio file with its duration and waveform, nothing else.
      const flags = typeof record.flags === 'number' ? record.flags : 0;
      const metadata = Array.isArray(record.attachments) ? (record.attachments as Record<string, unknown>[]) : [];
      if (flags & VOICE_MESSAGE) {
        if (content !== '' || (Array.isArray(record.embeds) && record.embeds.length > 0))
          return reply(400, { message: 'Voice messages do not support additional content.', code: 50159 });
        if (files.length !== 1 || !files[0]!.contentType.startsWith('audio/'))
          return reply(400, { message: 'Voice messages must have a single audio attachment.', code: 50160 });
        if (typeof metadata[0]?.duration_secs !== 'number' || typeof metadata[0]?.waveform !== 'string')
          return reply(400, { message: 'Voice messages must have supporting metadata.', code: 50161 });
        if (voiceless.has(channelId))
          return reply(403, { message: 'You cannot send voice messages in this channel.', code: 50173 });
      }
      const reference = record.message_reference as { message_id?: string } | undefined;
      const id = snowflake();
      const located = channelOf(channelId);
      const stored = {
        id,
        channel_id: channelId,
        ...(located ? { guild_id: located.guild.id } : {}),
        author: wireUser({ ...bot, bot: true }),
        content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: Array.isArray(record.embeds) ? record.embeds : [],
        pinned: false,
        type: reference?.message_id ? 19 : 0,
        ...(reference?.message_id
          ? { message_reference: { message_id: reference.message_id, channel_id: channelId } }
          : {}),
      };
      messages.set(id, stored);
      sent.push({
        id,
        channelId,
        content,
        ...(reference?.message_id ? { replyTo: String(reference.message_id) } : {}),
        ...(record.allowed_mentions !== undefined ? { allowedMentions: record.allowed_mentions } : {}),
        ...(Array.isArray(record.embeds) ? { embeds: record.embeds } : {}),
        ...(files.length > 0 ? { files } : {}),
        ...(flags !== 0 ? { flags } : {}),
        ...(metadata.length > 0 ? { attachments: metadata } : {}),
        at: performance.now(),
      });
      return reply(200, stored);
    }
    if (typing) return reply(204);
    if (applicationCommands) {
      if (applicationCommands[1] !== applicationId) return reply(403, { message: 'Missing Access', code: 50001 });
      commandList = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
      return reply(
        200,
        commandList.map((command) => ({ ...command, id: snowflake(), application_id: applicationId, version: '1' })),
      );
    }
    if (callback) {
      interactionCalls.push({
        kind: 'callback',
        interactionId: callback[1]!,
        token: callback[2]!,
        body: record,
        at: performance.now(),
      });
      return reply(204);
    }
    if (editOriginal) {
      interactionCalls.push({ kind: 'edit-original', token: editOriginal[2]!, body: record, at: performance.now() });
      return reply(200, { id: snowflake(), content: record.content ?? '' });
    }
    if (followup) {
      interactionCalls.push({ kind: 'followup', token: followup[2]!, body: record, at: performance.now() });
      return reply(200, { id: snowflake(), content: record.content ?? '' });
    }
    reply(404, { message: '404: Not Found', code: 0 });
  }

  function dmChannelFor(userId: string): string {
    let id = dms.get(userId);
    if (!id) {
      id = snowflake();
      dms.set(userId, id);
      dmChannels.add(id);
    }
    return id;
  }

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (!pathname.startsWith('/gateway')) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (refusals.times > 0) {
      refusals.times -= 1;
      socket.end(`HTTP/1.1 ${refusals.status} Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => adopt(ws));
  });

  const send = (socket: WebSocket, payload: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };

  function adopt(socket: WebSocket): void {
    let spoke = false;
    send(socket, { op: 10, d: { heartbeat_interval: heartbeatInterval }, s: null, t: null });
    socket.on('message', (data) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(String(data));
      } catch {
        socket.close(4002, 'Decode error');
        return;
      }
      const d = (typeof payload.d === 'object' && payload.d !== null ? payload.d : {}) as Record<string, unknown>;
      if (payload.op === 2 || payload.op === 6) spoke = true;
      switch (payload.op) {
        case 1:
          heartbeatCount += 1;
          send(socket, { op: 11, d: null, s: null, t: null });
          return;
        case 2: {
          if (d.token !== options.token) {
            socket.close(4004, 'Authentication failed.');
            return;
          }
          identifications += 1;
          session = { id: snowflake(), sequence: 0, events: [] };
          live.add(socket);
          emit('READY', {
            v: 10,
            user: wireUser({ ...bot, bot: true }),
            guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${port}/gateway`,
            shard: [0, 1],
            application: { id: applicationId, flags: 0 },
          });
          for (const guild of guilds) {
            emit('GUILD_CREATE', {
              id: guild.id,
              name: guild.name,
              unavailable: false,
              member_count: 3,
              channels: guild.channels
                .filter((channel) => channel.type !== 11 && channel.type !== 12)
                .map((channel) => wireChannel(guild, channel)),
              threads: guild.channels
                .filter((channel) => channel.type === 11 || channel.type === 12)
                .map((channel) => wireChannel(guild, channel)),
              members: [],
              roles: (guild.roles ?? []).map((role) => ({
                id: role.id,
                name: role.name,
                permissions: '0',
                position: 1,
                color: 0,
                hoist: false,
                mentionable: true,
                managed: role.botId !== undefined,
                ...(role.botId !== undefined ? { tags: { bot_id: role.botId } } : {}),
              })),
            });
          }
          return;
        }
        case 6: {
          if (d.token !== options.token) {
            socket.close(4004, 'Authentication failed.');
            return;
          }
          if (d.session_id !== session.id) {
            send(socket, { op: 9, d: false, s: null, t: null });
            return;
          }
          resumes += 1;
          const after = typeof d.seq === 'number' ? d.seq : 0;
          for (const event of session.events) {
            if (event.s > after) send(socket, { op: 0, t: event.t, s: event.s, d: event.d });
          }
          live.add(socket);
          session.sequence += 1;
          send(socket, { op: 0, t: 'RESUMED', s: session.sequence, d: {} });
          return;
        }
        default:
          return;
      }
    });
    socket.on('close', () => {
      live.delete(socket);
      if (!spoke) silent += 1;
    });
  }

  function emit(type: string, data: unknown): number {
    session.sequence += 1;
    const event = { s: session.sequence, t: type, d: data };
    session.events.push(event);
    if (session.events.length > 1_000) session.events.shift();
    for (const socket of live) send(socket, { op: 0, ...event });
    return event.s;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    gatewayUrl: `ws://127.0.0.1:${port}/gateway`,
    bot,
    applicationId,
    requests,
    sent,
    interactionCalls,
    commands: () => commandList,
    identified: () => identifications,
    rateLimited: () => limited,
    resumed: () => resumes,
    heartbeats: () => heartbeatCount,
    silentSockets: () => silent,
    addAttachment(name, bytes, contentType) {
      attachments.set(name, { bytes, contentType });
      return `http://127.0.0.1:${port}/attachments/${encodeURIComponent(name)}`;
    },
    dmChannel: (user) => dmChannelFor(user.id),
    message(event) {
      const id = event.id ?? snowflake();
      const located = channelOf(event.channelId);
      const referenced = event.replyTo ? messages.get(event.replyTo) : undefined;
      const data = {
        id,
        channel_id: event.channelId,
        ...(located ? { guild_id: located.guild.id } : {}),
        author: wireUser(event.author),
        ...(located
          ? {
              member: {
                nick: event.nick ?? null,
                roles: [],
                joined_at: new Date(0).toISOString(),
                deaf: false,
                mute: false,
              },
            }
          : {}),
        content: event.content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: (event.mentions ?? []).map(wireUser),
        mention_roles: event.mentionRoles ?? [],
        attachments: (event.attachments ?? []).map((attachment) => ({
          id: snowflake(),
          filename: attachment.filename,
          size: attachment.size ?? 0,
          url: attachment.url,
          proxy_url: attachment.url,
          ...(attachment.content_type ? { content_type: attachment.content_type } : {}),
        })),
        embeds: [],
        pinned: false,
        type: event.replyTo ? 19 : 0,
        ...(event.replyTo
          ? {
              message_reference: {
                type: 0,
                message_id: event.replyTo,
                channel_id: event.channelId,
                ...(located ? { guild_id: located.guild.id } : {}),
              },
              referenced_message: referenced ?? null,
            }
          : {}),
      };
      messages.set(id, data);
      return { id, s: emit('MESSAGE_CREATE', data) };
    },
    command(event) {
      const id = snowflake();
      const token = `interaction-token-${id}`;
      const located = channelOf(event.channelId);
      emit('INTERACTION_CREATE', {
        id,
        application_id: applicationId,
        type: 2,
        token,
        version: 1,
        channel_id: event.channelId,
        ...(located
          ? {
              guild_id: located.guild.id,
              member: { user: wireUser(event.user), nick: null, roles: [], permissions: '0' },
            }
          : { user: wireUser(event.user) }),
        locale: 'en-US',
        data: {
          id: snowflake(),
          name: event.name,
          type: 1,
          ...(event.options ? { options: event.options.map((option) => ({ ...option, type: 3 })) } : {}),
        },
      });
      return { id, token };
    },
    dispatch: emit,
    raw(text) {
      for (const socket of live) if (socket.readyState === socket.OPEN) socket.send(text);
    },
    dropSockets() {
      for (const socket of live) socket.terminate();
      live.clear();
    },
    refuseSockets(status, times) {
      refusals = { status, times };
    },
    refuseVoiceMessages(channelId) {
      voiceless.add(channelId);
    },
    failNext(route, failure, times = 1) {
      failures.push({ route, failure, times });
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the Discord server');
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
