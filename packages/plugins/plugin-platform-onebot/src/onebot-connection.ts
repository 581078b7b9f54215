// One OneBot v11 universal WebSocket connection: events and API calls share it. Forward mode connects to the
// implementation's endpoint and reconnects with backoff; reverse mode listens and lets the implementation connect.
// API calls carry an `echo` and time out; heartbeats are watched, and a silent connection is dropped and redialled.
import type { IncomingMessage as HttpRequest } from 'node:http';
import type { PlatformState } from '@aalis/api-platform';
import type { AalisError, Logger } from '@aalis/core';
import { WebSocket, WebSocketServer } from 'ws';
import { onebotErrors } from './onebot-errors.js';

export interface OneBotConnectionOptions {
  mode: 'forward' | 'reverse';
  /** Forward mode: the implementation's universal endpoint, ws:// or wss://. */
  url?: string;
  /** Reverse mode: where the host listens. */
  reverse?: { host: string; port: number; path: string };
  accessToken?: string;
  apiTimeoutMs: number;
  /** Without a heartbeat interval from the implementation, how long a silent connection is kept. */
  idleTimeoutMs: number;
  reconnect: { initialMs: number; maxMs: number };
  logger: Logger;
  /** Every event (a frame with `post_type`). What it returns is not used: this wire has no acknowledgement. */
  onEvent(event: Record<string, unknown>): unknown;
  /** A connection is (re)established. */
  onOpen?(): void;
}

interface PendingCall {
  action: string;
  resolve(data: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class OneBotConnection {
  private socket: WebSocket | undefined;
  private server: WebSocketServer | undefined;
  private readonly pending = new Map<string, PendingCall>();
  private sequence = 0;
  private closed = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private silenceLimitMs: number;
  private liveState: PlatformState;

  constructor(private readonly options: OneBotConnectionOptions) {
    this.silenceLimitMs = options.idleTimeoutMs;
    this.liveState = { status: 'stopped', since: Date.now(), endpoint: this.endpoint };
  }

  /** Where the connection stands, for the console (`admin.platforms`). */
  get state(): PlatformState {
    return this.liveState;
  }

  private setState(status: PlatformState['status'], extra: Omit<PlatformState, 'status' | 'since'> = {}): void {
    this.liveState = { status, since: Date.now(), endpoint: this.endpoint, ...extra };
  }

  /** Where the connection goes (for log lines and errors; never the token). */
  get endpoint(): string {
    if (this.options.mode === 'forward') return redactUrl(this.options.url ?? '');
    const { host, port, path } = this.options.reverse ?? { host: '', port: 0, path: '' };
    return `reverse ws://${host}:${this.listeningPort ?? port}${path || '/'}`;
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** The port reverse mode listens on (useful with port 0). */
  get listeningPort(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  /** Opens the connection (again after stop(): the lease may come back to this process). */
  async start(): Promise<void> {
    this.closed = false;
    this.attempt = 0;
    this.setState('connecting');
    if (this.options.mode === 'forward') {
      this.dial();
      return;
    }
    const { host, port, path } = this.options.reverse!;
    const server = new WebSocketServer({
      host,
      port,
      ...(path ? { path } : {}),
      maxPayload: 16 * 1024 * 1024,
      verifyClient: ({ req }: { req: HttpRequest }) => this.authorised(req),
    });
    this.server = server;
    server.on('connection', (socket) => {
      if (this.socket && this.socket !== socket) {
        this.options.logger.info('OneBot implementation connected again; the previous connection is closed');
        this.socket.close(1000, 'replaced');
      }
      this.adopt(socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    server.on('error', (error) =>
      this.options.logger.error('OneBot reverse WebSocket server error', { error: error.message }),
    );
    this.options.logger.info(`OneBot: waiting for the implementation to connect at ${this.endpoint}`);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.setState('stopped');
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    this.rejectPending();
    this.socket?.terminate();
    this.socket = undefined;
    const server = this.server;
    this.server = undefined;
    if (server) {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  /** Calls an API action and resolves with its `data`; rejects with a coded error. */
  call(action: string, params: Record<string, unknown> = {}, timeoutMs = this.options.apiTimeoutMs): Promise<unknown> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(onebotErrors.AALIS_ONEBOT_NOT_CONNECTED({ action, endpoint: this.endpoint }));
    }
    this.sequence += 1;
    const echo = `aalis-${this.sequence}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(echo);
        reject(onebotErrors.AALIS_ONEBOT_API_TIMEOUT({ action, timeoutMs }));
      }, timeoutMs);
      this.pending.set(echo, { action, resolve, reject, timer });
      socket.send(JSON.stringify({ action, params, echo }), (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(echo);
        reject(onebotErrors.AALIS_ONEBOT_NOT_CONNECTED({ action, endpoint: this.endpoint }, { cause: error }));
      });
    });
  }

  private authorised(request: HttpRequest): boolean {
    const token = this.options.accessToken;
    if (!token) return true;
    const header = request.headers.authorization ?? '';
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('access_token');
    const ok = header === `Bearer ${token}` || header === `Token ${token}` || query === token;
    if (!ok) {
      const refused = onebotErrors.AALIS_ONEBOT_CLIENT_TOKEN_REFUSED({ endpoint: this.endpoint });
      this.options.logger.warn(refused.message, { code: refused.code });
      if (!this.connected) {
        this.setState('refused', { configKey: ONEBOT_TOKEN_KEY, error: stateError(refused) });
      }
    }
    return ok;
  }

  private dial(): void {
    if (this.closed) return;
    const headers: Record<string, string> = {};
    if (this.options.accessToken) headers.Authorization = `Bearer ${this.options.accessToken}`;
    const socket = new WebSocket(this.options.url!, { headers, handshakeTimeout: this.options.apiTimeoutMs });
    let opened = false;
    /** Why the attempt failed, for the one warning line (never the token: errors name the status, not the URL). */
    let failure: { status?: number; reason: string } | undefined;
    socket.on('unexpected-response', (_request, response) => {
      failure = { status: response.statusCode, reason: `HTTP ${response.statusCode}` };
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      opened = true;
      if (this.attempt > 0) this.options.logger.info(`OneBot: reconnected to ${this.endpoint}`);
      else this.options.logger.info(`OneBot: connected to ${this.endpoint}`);
      this.attempt = 0;
      this.adopt(socket);
    });
    socket.on('error', (error) => {
      if (opened) return;
      failure ??= { reason: error.message.split(this.options.accessToken || '\u0000').join('***') };
      this.options.logger.debug('OneBot: connection attempt failed', { error: failure.reason });
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      if (this.closed) return;
      const delay = Math.min(this.options.reconnect.maxMs, this.options.reconnect.initialMs * 2 ** this.attempt);
      this.attempt += 1;
      const nextAttemptAt = Date.now() + delay;
      if (!opened && (failure?.status === 401 || failure?.status === 403)) {
        const error = onebotErrors.AALIS_ONEBOT_TOKEN_REFUSED({
          endpoint: this.endpoint,
          status: failure.status,
          delayMs: delay,
        });
        this.options.logger.warn(error.message, { code: error.code });
        this.setState('refused', { configKey: ONEBOT_TOKEN_KEY, error: stateError(error), nextAttemptAt });
      } else {
        const why = !opened && failure ? `: ${failure.reason}` : '';
        this.options.logger.warn(
          `OneBot: ${opened ? 'connection lost' : 'cannot connect'} (${this.endpoint})${why}; retrying in ${delay} ms`,
        );
        const error = opened
          ? onebotErrors.AALIS_ONEBOT_CONNECTION_LOST({ endpoint: this.endpoint })
          : onebotErrors.AALIS_ONEBOT_CONNECT_FAILED({ endpoint: this.endpoint, reason: failure?.reason ?? '?' });
        this.setState('reconnecting', { error: stateError(error), nextAttemptAt });
      }
      this.retryTimer = setTimeout(() => this.dial(), delay);
    });
  }

  private adopt(socket: WebSocket): void {
    this.socket = socket;
    this.setState('connected');
    this.silenceLimitMs = this.options.idleTimeoutMs;
    this.feedWatchdog(socket);
    socket.on('message', (raw) => {
      this.feedWatchdog(socket);
      this.receive(String(raw));
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      clearTimeout(this.watchdog);
      this.rejectPending();
      if (this.options.mode === 'reverse' && !this.closed) {
        this.options.logger.warn('OneBot: the implementation disconnected; waiting for it to connect again');
        this.setState('reconnecting', {
          error: stateError(onebotErrors.AALIS_ONEBOT_CONNECTION_LOST({ endpoint: this.endpoint })),
        });
      }
    });
    this.options.onOpen?.();
  }

  /** Every call still waiting for its answer fails: the connection it was sent on is gone. */
  private rejectPending(): void {
    for (const [echo, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(onebotErrors.AALIS_ONEBOT_NOT_CONNECTED({ action: call.action, endpoint: this.endpoint }));
      this.pending.delete(echo);
    }
  }

  /** A connection that stays silent past the heartbeat allowance is dropped (forward mode then redials). */
  private feedWatchdog(socket: WebSocket): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.options.logger.warn(`OneBot: no heartbeat or event for ${this.silenceLimitMs} ms; dropping the connection`);
      socket.terminate();
    }, this.silenceLimitMs);
    this.watchdog.unref?.();
  }

  private malformed(reason: string): void {
    const error = onebotErrors.AALIS_ONEBOT_EVENT_MALFORMED({ reason });
    this.options.logger.warn(error.message, { code: error.code });
  }

  private receive(raw: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(raw);
    } catch {
      this.malformed(`a frame of ${raw.length} characters that is not JSON`);
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      this.malformed('a frame that is not a JSON object');
      return;
    }
    const record = frame as Record<string, unknown>;
    if (typeof record.post_type === 'string') {
      if (record.post_type === 'meta_event' && record.meta_event_type === 'heartbeat') {
        const interval = Number(record.interval);
        // Two missed heartbeats (plus slack) end the connection.
        if (Number.isFinite(interval) && interval > 0) this.silenceLimitMs = interval * 2 + 5_000;
      }
      try {
        this.options.onEvent(record);
      } catch (error) {
        this.options.logger.error('OneBot: handling an event failed', { error: String(error) });
      }
      return;
    }
    const echo = record.echo === undefined ? undefined : String(record.echo);
    const call = echo === undefined ? undefined : this.pending.get(echo);
    if (!call || echo === undefined) {
      this.options.logger.debug('OneBot: ignored a response nobody waits for');
      return;
    }
    this.pending.delete(echo);
    clearTimeout(call.timer);
    const status = String(record.status ?? '');
    if (status === 'ok' || status === 'async') {
      call.resolve(record.data);
      return;
    }
    const message = [record.msg, record.wording].filter((part) => typeof part === 'string' && part !== '').join(' / ');
    call.reject(
      onebotErrors.AALIS_ONEBOT_API_FAILED({
        action: call.action,
        status: status || 'missing',
        retcode: String(record.retcode ?? '?'),
        detail: message ? `: ${message}` : '',
      }),
    );
  }
}

/** The key a refused token is fixed at. */
const ONEBOT_TOKEN_KEY = 'plugins.platform-onebot.accessToken';

function stateError(error: AalisError): { code: string; text: AalisError['text'] } {
  return { code: error.code, text: error.text };
}

/** A URL for log lines: query (access_token) and credentials removed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(invalid url)';
  }
}
