// Test-only: a Satori server over a real WebSocket and real HTTP, as Koishi's server-satori would be: the event
// socket at <base>/v1/events (IDENTIFY checked against the token, READY with the logins, PONG for each PING, EVENTs
// with increasing sn, replayed after an IDENTIFY carrying an older sn) and the API at <base>/v1/<method>
// (message.create records what she sent and answers the created messages; meta lists the logins;
// user.channel.create answers the direct channel 'dm-<user id>'; friend.approve, guild.approve and
// guild.member.approve settle a request sent with request(), each answered 404 for an unknown or settled request).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface SatoriLoginInfo {
  platform: string;
  userId: string;
  name?: string;
}

export interface SatoriCall {
  method: string;
  body: Record<string, unknown>;
  headers: Record<string, string | undefined>;
}

export interface SatoriServer {
  /** The endpoint to configure: http://127.0.0.1:<port>/v1 */
  readonly endpoint: string;
  readonly calls: SatoriCall[];
  /** The messages she created (message.create), with the ids the server gave them and performance.now() on arrival. */
  readonly created: SatoriCreated[];
  /** How many event sockets have identified (reconnects count). */
  identified(): number;
  /** Sends a message-created event on every live socket (kept for replay); returns its sn. */
  message(event: {
    platform?: string;
    channelId: string;
    direct?: boolean;
    userId: string;
    name?: string;
    content: string;
    messageId?: string;
    quoteId?: string;
    guildName?: string;
  }): number;
  /**
   * Sends a friend-request, guild-request or guild-member-request event (kept for replay); the request is named by
   * the event's message id, as the approve calls take it. Returns that id.
   */
  request(event: {
    type: 'friend-request' | 'guild-request' | 'guild-member-request';
    platform?: string;
    userId: string;
    name?: string;
    /** The requester's note (message content). */
    comment?: string;
    guildId?: string;
    guildName?: string;
  }): string;
  /** The approve calls that settled a request, in order. */
  approvals(): readonly SatoriApproval[];
  /** Sends a raw frame on every live socket (malformed input). */
  raw(text: string): void;
  /** Closes every live event socket (the adapter should reconnect). */
  dropSockets(): void;
  /** The next `times` event socket upgrades are answered with HTTP `status` (a server in trouble). */
  refuseSockets(status: number, times: number): void;
  /** The next calls of `method` answer with this status. */
  failNext(method: string, status: number, times?: number): void;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export interface SatoriApproval {
  method: 'friend.approve' | 'guild.approve' | 'guild.member.approve';
  messageId: string;
  approve: boolean;
  comment?: string;
}

export interface SatoriCreated {
  id: string;
  channelId: string;
  content: string;
  at: number;
}

let nextMessage = 900;

export async function startSatoriServer({
  token,
  logins,
}: {
  token: string;
  logins: SatoriLoginInfo[];
}): Promise<SatoriServer> {
  const calls: SatoriCall[] = [];
  const created: SatoriCreated[] = [];
  let refusals = { status: 503, times: 0 };
  const events: { sn: number; body: Record<string, unknown> }[] = [];
  const failures = new Map<string, { status: number; times: number }>();
  const live = new Set<WebSocket>();
  /** Requests waiting to be settled: message id → the approve method that settles it. */
  const pending = new Map<string, SatoriApproval['method']>();
  const approvals: SatoriApproval[] = [];
  let identifications = 0;
  let sn = 0;
  const wireLogin = (login: SatoriLoginInfo, index: number) => ({
    sn: index + 1,
    platform: login.platform,
    user: { id: login.userId, name: login.name ?? 'Aalis' },
    status: 1,
    adapter: login.platform,
  });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const method = (request.url ?? '').replace(/^\/v1\//, '');
      if (request.method !== 'POST' || !request.url?.startsWith('/v1/')) return reply(404, { message: 'not found' });
      if (request.headers.authorization !== `Bearer ${token}`) return reply(401, { message: 'invalid token' });
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return reply(400, { message: 'not JSON' });
      }
      calls.push({
        method,
        body,
        headers: {
          'satori-platform': request.headers['satori-platform'] as string | undefined,
          'satori-user-id': request.headers['satori-user-id'] as string | undefined,
        },
      });
      const failure = failures.get(method);
      if (failure && failure.times > 0) {
        failure.times -= 1;
        return reply(failure.status, { message: 'failing on purpose' });
      }
      if (method === 'meta') return reply(200, { logins: logins.map(wireLogin), proxy_urls: [] });
      if (method === 'message.create') {
        nextMessage += 1;
        created.push({
          id: String(nextMessage),
          channelId: String(body.channel_id),
          content: String(body.content),
          at: performance.now(),
        });
        return reply(200, [{ id: String(nextMessage), content: body.content }]);
      }
      if (method === 'user.channel.create') {
        if (typeof body.user_id !== 'string' || body.user_id === '') return reply(400, { message: 'user_id missing' });
        return reply(200, { id: `dm-${body.user_id}`, type: 1 });
      }
      if (method === 'friend.approve' || method === 'guild.approve' || method === 'guild.member.approve') {
        const messageId = typeof body.message_id === 'string' ? body.message_id : '';
        if (typeof body.approve !== 'boolean') return reply(400, { message: 'approve missing' });
        if (pending.get(messageId) !== method) return reply(404, { message: `no request ${messageId}` });
        pending.delete(messageId);
        approvals.push({
          method,
          messageId,
          approve: body.approve,
          ...(typeof body.comment === 'string' ? { comment: body.comment } : {}),
        });
        // Koishi's server answers a call without a result with an empty body.
        response.writeHead(200);
        response.end();
        return;
      }
      reply(404, { message: `no method ${method}` });
    });
  });
  const sockets = new WebSocketServer({
    server,
    path: '/v1/events',
    verifyClient: (_info, accept) => {
      if (refusals.times <= 0) return accept(true);
      refusals.times -= 1;
      accept(false, refusals.status, 'refused on purpose');
    },
  });
  sockets.on('connection', (socket) => {
    let ready = false;
    socket.on('message', (data) => {
      let payload: { op?: number; body?: { token?: string; sn?: number } };
      try {
        payload = JSON.parse(String(data));
      } catch {
        return;
      }
      if (payload.op === 3) {
        if (payload.body?.token !== token) {
          socket.close(3000, 'invalid token');
          return;
        }
        identifications += 1;
        ready = true;
        live.add(socket);
        socket.send(JSON.stringify({ op: 4, body: { logins: logins.map(wireLogin), proxy_urls: [] } }));
        const after = payload.body?.sn;
        if (typeof after === 'number') {
          for (const event of events) if (event.sn > after) socket.send(JSON.stringify({ op: 0, body: event.body }));
        }
      } else if (payload.op === 1 && ready) {
        socket.send(JSON.stringify({ op: 2, body: {} }));
      }
    });
    socket.on('close', () => live.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const broadcast = (text: string) => {
    for (const socket of live) socket.send(text);
  };
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    calls,
    created,
    identified: () => identifications,
    message(event) {
      sn += 1;
      const login = logins.find((entry) => entry.platform === (event.platform ?? logins[0]!.platform)) ?? logins[0]!;
      nextMessage += 1;
      const body = {
        sn,
        type: 'message-created',
        timestamp: Date.now(),
        login: wireLogin(login, logins.indexOf(login)),
        channel: { id: event.channelId, type: event.direct ? 1 : 0 },
        ...(event.direct ? {} : { guild: { id: `g-${event.channelId}`, name: event.guildName ?? 'A group' } }),
        user: { id: event.userId, name: event.name ?? event.userId },
        message: {
          id: event.messageId ?? String(nextMessage),
          content: event.content,
          ...(event.quoteId ? { quote: { id: event.quoteId } } : {}),
        },
      };
      events.push({ sn, body });
      broadcast(JSON.stringify({ op: 0, body }));
      return sn;
    },
    request(event) {
      sn += 1;
      const login = logins.find((entry) => entry.platform === (event.platform ?? logins[0]!.platform)) ?? logins[0]!;
      nextMessage += 1;
      const messageId = `req-${nextMessage}`;
      pending.set(
        messageId,
        event.type === 'friend-request'
          ? 'friend.approve'
          : event.type === 'guild-request'
            ? 'guild.approve'
            : 'guild.member.approve',
      );
      const body = {
        sn,
        type: event.type,
        timestamp: Date.now(),
        login: wireLogin(login, logins.indexOf(login)),
        user: { id: event.userId, name: event.name ?? event.userId },
        ...(event.guildId ? { guild: { id: event.guildId, name: event.guildName ?? 'A group' } } : {}),
        ...(event.type === 'guild-member-request' ? { member: { nick: event.name ?? event.userId } } : {}),
        message: { id: messageId, content: event.comment ?? '' },
      };
      events.push({ sn, body });
      broadcast(JSON.stringify({ op: 0, body }));
      return messageId;
    },
    approvals: () => approvals,
    raw: broadcast,
    dropSockets() {
      // Gone at once: what is sent from now until the adapter identifies again is only kept for replay.
      for (const socket of live) socket.terminate();
      live.clear();
    },
    refuseSockets(status, times) {
      refusals = { status, times };
    },
    failNext(method, status, times = 1) {
      failures.set(method, { status, times });
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the Satori server');
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
