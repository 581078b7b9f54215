// Test-only: a OneBot v11 implementation (what NapCat / Lagrange / go-cqhttp are to the host) over a real
// universal WebSocket. Forward mode serves the endpoint the host dials; reverse mode dials the host; HTTP mode serves
// the HTTP API and POSTs events to the host. It answers
// get_login_info, send_group_msg, send_private_msg and get_msg, records every API call, pushes events, and can be
// told to fail calls, stay silent or drop the connection.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage as HttpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface OneBotCall {
  action: string;
  params: Record<string, unknown>;
  echo: unknown;
  at: number;
}

export interface OneBotSentMessage {
  messageId: number;
  groupId?: number;
  userId?: number;
  message: unknown;
  /** performance.now() when the call arrived. */
  at: number;
}

export interface OneBotImplementationOptions {
  selfId?: number;
  nickname?: string;
  accessToken?: string;
}

export interface OneBotImplementation {
  /** Forward mode: the endpoint the host connects to. */
  readonly url: string;
  readonly calls: OneBotCall[];
  readonly sent: OneBotSentMessage[];
  /** Authorization headers of the connections the host made. */
  readonly authorizations: (string | undefined)[];
  /** Resolves once a host connection is open (the nth, counting from 1). */
  connected(count?: number): Promise<void>;
  /** How many host connections were opened so far. */
  connections(): number;
  /** Sends an event (or any raw text) to the connected host. */
  push(event: Record<string, unknown> | string): void;
  /** The next calls of `action` answer with this (e.g. `{ status: 'failed', retcode: 1200 }`), or get no answer. */
  failNext(action: string, answer: Record<string, unknown> | 'no-answer', times?: number): void;
  /** The next send (send_group_msg or send_private_msg, whichever comes first) answers with this. */
  failNextSend(answer: Record<string, unknown>): void;
  /** Closes the host's connections (the host should reconnect). */
  dropConnections(): void;
  /** Forward mode: the next `times` connection upgrades are answered with HTTP `status`. */
  refuseConnections(status: number, times: number): void;
  /** Waits until `predicate` holds for the recorded calls. */
  waitForCalls(predicate: (calls: OneBotCall[]) => boolean, timeoutMs?: number): Promise<OneBotCall[]>;
  close(): Promise<void>;
}

let nextMessageId = 1000;

/** A group message event as an implementation posts it (array format unless `message` is a string). */
export function onebotGroupMessage({
  selfId = 10_000,
  groupId,
  userId,
  nickname = `user${userId}`,
  card = '',
  message,
  messageId = nextMessageId++,
}: {
  selfId?: number;
  groupId: number;
  userId: number;
  nickname?: string;
  card?: string;
  message: unknown;
  messageId?: number;
}): Record<string, unknown> {
  return {
    time: Math.floor(Date.now() / 1000),
    self_id: selfId,
    post_type: 'message',
    message_type: 'group',
    sub_type: 'normal',
    message_id: messageId,
    group_id: groupId,
    user_id: userId,
    message,
    raw_message: typeof message === 'string' ? message : '',
    font: 0,
    sender: { user_id: userId, nickname, card, role: 'member' },
  };
}

/** A friend request (`request`/`friend`) as an implementation posts it. */
export function onebotFriendRequest({
  selfId = 10_000,
  userId,
  comment = '',
  flag = `flag-${nextMessageId++}`,
}: {
  selfId?: number;
  userId: number;
  comment?: string;
  flag?: string;
}): Record<string, unknown> {
  return {
    time: Math.floor(Date.now() / 1000),
    self_id: selfId,
    post_type: 'request',
    request_type: 'friend',
    user_id: userId,
    comment,
    flag,
  };
}

/** An invitation of her into a group (`request`/`group`, sub_type `invite`). */
export function onebotGroupInvite({
  selfId = 10_000,
  userId,
  groupId,
  comment = '',
  flag = `flag-${nextMessageId++}`,
}: {
  selfId?: number;
  userId: number;
  groupId: number;
  comment?: string;
  flag?: string;
}): Record<string, unknown> {
  return {
    time: Math.floor(Date.now() / 1000),
    self_id: selfId,
    post_type: 'request',
    request_type: 'group',
    sub_type: 'invite',
    group_id: groupId,
    user_id: userId,
    comment,
    flag,
  };
}

/** A poke (`notice`/`notify`/`poke`) at `targetId` (her account by default), in a group when `groupId` is given. */
export function onebotPoke({
  selfId = 10_000,
  userId,
  groupId,
  targetId = selfId,
}: {
  selfId?: number;
  userId: number;
  groupId?: number;
  targetId?: number;
}): Record<string, unknown> {
  return {
    time: Math.floor(Date.now() / 1000),
    self_id: selfId,
    post_type: 'notice',
    notice_type: 'notify',
    sub_type: 'poke',
    user_id: userId,
    target_id: targetId,
    ...(groupId !== undefined ? { group_id: groupId } : {}),
  };
}

export function onebotPrivateMessage({
  selfId = 10_000,
  userId,
  nickname = `user${userId}`,
  message,
  messageId = nextMessageId++,
}: {
  selfId?: number;
  userId: number;
  nickname?: string;
  message: unknown;
  messageId?: number;
}): Record<string, unknown> {
  return {
    time: Math.floor(Date.now() / 1000),
    self_id: selfId,
    post_type: 'message',
    message_type: 'private',
    sub_type: 'friend',
    message_id: messageId,
    user_id: userId,
    message,
    raw_message: typeof message === 'string' ? message : '',
    font: 0,
    sender: { user_id: userId, nickname },
  };
}

class Implementation {
  readonly calls: OneBotCall[] = [];
  readonly sent: OneBotSentMessage[] = [];
  readonly authorizations: (string | undefined)[] = [];
  readonly sockets = new Set<WebSocket>();
  private opened = 0;
  private readonly waiters: { count: number; resolve(): void }[] = [];
  private readonly failures = new Map<string, { answer: Record<string, unknown> | 'no-answer'; times: number }>();
  sendFailure: Record<string, unknown> | undefined;
  refusals = { status: 503, times: 0 };
  readonly pushedMessages = new Map<number, Record<string, unknown>>();

  constructor(private readonly options: Required<Pick<OneBotImplementationOptions, 'selfId' | 'nickname'>>) {}

  adopt(socket: WebSocket): void {
    this.sockets.add(socket);
    this.opened += 1;
    for (const waiter of this.waiters.splice(0)) {
      if (this.opened >= waiter.count) waiter.resolve();
      else this.waiters.push(waiter);
    }
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('message', (raw) => this.answer(socket, String(raw)));
    socket.send(
      JSON.stringify({
        time: Math.floor(Date.now() / 1000),
        self_id: this.options.selfId,
        post_type: 'meta_event',
        meta_event_type: 'lifecycle',
        sub_type: 'connect',
      }),
    );
  }

  connections(): number {
    return this.opened;
  }

  connected(count = 1): Promise<void> {
    if (this.opened >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  push(event: Record<string, unknown> | string): void {
    if (typeof event === 'object' && typeof event.message_id === 'number')
      this.pushedMessages.set(event.message_id, event);
    const text = typeof event === 'string' ? event : JSON.stringify(event);
    for (const socket of this.sockets) if (socket.readyState === WebSocket.OPEN) socket.send(text);
  }

  failNext(action: string, answer: Record<string, unknown> | 'no-answer', times = 1): void {
    this.failures.set(action, { answer, times });
  }

  async waitForCalls(predicate: (calls: OneBotCall[]) => boolean, timeoutMs = 10_000): Promise<OneBotCall[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.calls)) {
      if (Date.now() > deadline) {
        throw new Error(
          `OneBot test implementation: calls did not arrive: ${JSON.stringify(this.calls.map((c) => c.action))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.calls;
  }

  private answer(socket: WebSocket, raw: string): void {
    let frame: { action?: unknown; params?: unknown; echo?: unknown };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    const action = String(frame.action ?? '');
    const params = (typeof frame.params === 'object' && frame.params !== null ? frame.params : {}) as Record<
      string,
      unknown
    >;
    this.handle(action, params, frame.echo, (body) => socket.send(JSON.stringify({ ...body, echo: frame.echo })));
  }

  /** One API call, on whichever wire it came (a WebSocket frame, or an HTTP POST in HTTP mode); `reply` answers it. */
  handle(
    action: string,
    params: Record<string, unknown>,
    echo: unknown,
    reply: (body: Record<string, unknown>) => void,
  ) {
    this.calls.push({ action, params, echo, at: Date.now() });
    if ((action === 'send_group_msg' || action === 'send_private_msg') && this.sendFailure) {
      const answer = this.sendFailure;
      this.sendFailure = undefined;
      reply(answer);
      return;
    }
    const failure = this.failures.get(action);
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) this.failures.delete(action);
      if (failure.answer !== 'no-answer') reply(failure.answer);
      return;
    }
    switch (action) {
      case 'get_login_info':
        reply({ status: 'ok', retcode: 0, data: { user_id: this.options.selfId, nickname: this.options.nickname } });
        return;
      case 'send_group_msg':
      case 'send_private_msg': {
        const messageId = nextMessageId++;
        this.sent.push({
          messageId,
          ...(params.group_id !== undefined ? { groupId: Number(params.group_id) } : {}),
          ...(params.user_id !== undefined ? { userId: Number(params.user_id) } : {}),
          message: params.message,
          at: performance.now(),
        });
        reply({ status: 'ok', retcode: 0, data: { message_id: messageId } });
        return;
      }
      case 'get_group_info': {
        const groupId = Number(params.group_id);
        reply({
          status: 'ok',
          retcode: 0,
          data: { group_id: groupId, group_name: `Group ${groupId}`, member_count: 3 },
        });
        return;
      }
      case 'get_msg': {
        const id = Number(params.message_id);
        const own = this.sent.find((message) => message.messageId === id);
        if (own) {
          reply({
            status: 'ok',
            retcode: 0,
            data: { message_id: id, sender: { user_id: this.options.selfId }, message: own.message },
          });
          return;
        }
        const pushed = this.pushedMessages.get(id);
        if (pushed) {
          reply({ status: 'ok', retcode: 0, data: { message_id: id, sender: pushed.sender, message: pushed.message } });
          return;
        }
        reply({ status: 'failed', retcode: 1404, msg: 'message not found', data: null });
        return;
      }
      case 'set_friend_add_request':
      case 'set_group_add_request':
        reply({ status: 'ok', retcode: 0, data: null });
        return;
      default:
        reply({ status: 'failed', retcode: 1404, msg: `unsupported action ${action}`, data: null });
    }
  }
}

/** Forward mode: serves the universal endpoint on 127.0.0.1 (any free port). */
export async function startOneBotImplementation(
  options: OneBotImplementationOptions = {},
): Promise<OneBotImplementation> {
  const implementation = new Implementation({
    selfId: options.selfId ?? 10_000,
    nickname: options.nickname ?? 'Aalis',
  });
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: ({ req }: { req: HttpRequest }, accept: (result: boolean, code?: number) => void) => {
      if (implementation.refusals.times > 0) {
        implementation.refusals.times -= 1;
        accept(false, implementation.refusals.status);
        return;
      }
      implementation.authorizations.push(req.headers.authorization);
      accept(options.accessToken === undefined || req.headers.authorization === `Bearer ${options.accessToken}`);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => implementation.adopt(socket));
  const { port } = server.address() as AddressInfo;
  return handleOf(implementation, `ws://127.0.0.1:${port}`, async () => {
    for (const socket of implementation.sockets) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

function handleOf(implementation: Implementation, url: string, close: () => Promise<void>): OneBotImplementation {
  return {
    url,
    calls: implementation.calls,
    sent: implementation.sent,
    authorizations: implementation.authorizations,
    connected: (count) => implementation.connected(count),
    connections: () => implementation.connections(),
    push: (event) => implementation.push(event),
    failNext: (action, answer, times) => implementation.failNext(action, answer, times),
    failNextSend: (answer) => {
      implementation.sendFailure = answer;
    },
    dropConnections: () => {
      for (const socket of implementation.sockets) socket.terminate();
    },
    refuseConnections: (status, times) => {
      implementation.refusals = { status, times };
    },
    waitForCalls: (predicate, timeoutMs) => implementation.waitForCalls(predicate, timeoutMs),
    close,
  };
}

export interface OneBotHttpImplementation extends OneBotImplementation {
  /** Where events are POSTed (the host's event address, known once it listens). */
  postTo(url: string): void;
  /** The host's answers to the event POSTs so far, in order (HTTP status; 0 when the request failed). */
  statuses(): number[];
  /**
   * POSTs again every event the host did not answer 2xx, as an implementation that delivers again (or an operator
   * replaying its log) would; returns how many.
   */
  repost(): number;
  /** Resolves once every event POST made so far has its answer. */
  settled(): Promise<void>;
}

/**
 * HTTP mode: serves the HTTP API (POST /<action>, answered as the universal WebSocket does) on 127.0.0.1 and POSTs
 * events to the host (X-Self-ID, and X-Signature sha1=HMAC of the body when a secret is set), recording the answers.
 */
export async function startOneBotHttpImplementation(
  options: OneBotImplementationOptions & { secret?: string } = {},
): Promise<OneBotHttpImplementation> {
  const selfId = options.selfId ?? 10_000;
  const implementation = new Implementation({ selfId, nickname: options.nickname ?? 'Aalis' });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      implementation.authorizations.push(request.headers.authorization);
      if (options.accessToken !== undefined && request.headers.authorization !== `Bearer ${options.accessToken}`) {
        response.writeHead(401).end();
        return;
      }
      let params: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        if (typeof parsed === 'object' && parsed !== null) params = parsed as Record<string, unknown>;
      } catch {
        response.writeHead(400).end();
        return;
      }
      const action = new URL(request.url ?? '/', 'http://api').pathname.slice(1);
      implementation.handle(action, params, undefined, (body) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let target: string | undefined;
  const statuses: number[] = [];
  const pending = new Set<Promise<void>>();
  const unanswered: string[] = [];
  const post = (body: string) => {
    if (!target) throw new Error('OneBot HTTP test implementation: postTo() was not called');
    const signature: Record<string, string> = options.secret
      ? { 'x-signature': `sha1=${createHmac('sha1', options.secret).update(body).digest('hex')}` }
      : {};
    const done: Promise<void> = fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-self-id': String(selfId), ...signature },
      body,
    })
      .then(
        async (response) => {
          await response.body?.cancel();
          return response.status;
        },
        () => 0,
      )
      .then((status) => {
        statuses.push(status);
        if (status < 200 || status > 299) unanswered.push(body);
        pending.delete(done);
      });
    pending.add(done);
  };
  const handle = handleOf(implementation, `http://127.0.0.1:${port}`, async () => {
    await Promise.all(pending);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    ...handle,
    connected: async () => {},
    connections: () => 1,
    push: (event) => {
      if (typeof event === 'object' && typeof event.message_id === 'number')
        implementation.pushedMessages.set(event.message_id, event);
      post(typeof event === 'string' ? event : JSON.stringify(event));
    },
    postTo: (url) => {
      target = url;
    },
    statuses: () => [...statuses],
    repost: () => {
      const again = unanswered.splice(0);
      for (const body of again) post(body);
      return again.length;
    },
    settled: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** Reverse mode: dials the host's endpoint (as X-Client-Role Universal), redialling when told to connect again. */
export async function connectOneBotImplementation(
  hostUrl: string,
  options: OneBotImplementationOptions = {},
): Promise<OneBotImplementation> {
  const implementation = new Implementation({
    selfId: options.selfId ?? 10_000,
    nickname: options.nickname ?? 'Aalis',
  });
  const dial = () =>
    new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(hostUrl, {
        headers: {
          'X-Self-ID': String(options.selfId ?? 10_000),
          'X-Client-Role': 'Universal',
          ...(options.accessToken ? { Authorization: `Bearer ${options.accessToken}` } : {}),
        },
      });
      socket.once('open', () => {
        implementation.adopt(socket);
        resolve();
      });
      socket.once('error', reject);
    });
  await dial();
  return handleOf(implementation, hostUrl, async () => {
    for (const socket of implementation.sockets) socket.terminate();
  });
}
