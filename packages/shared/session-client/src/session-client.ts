// The session protocol client (docs/session-protocol.md): one socket with requests and replies, subscriptions that
// resume after a reconnect without duplicates (sequence numbers), sends that are not lost while offline (a
// clientMessageId makes a resend harmless), and the HTTP calls (me, login, logout). Browser-safe: the socket and
// fetch are injectable, nothing from Node.
import {
  type ConnectionState,
  type MeResult,
  SessionClientError,
  type SessionClientOptions,
  type Subscription,
  type SubscriptionHandlers,
  type WebSocketLike,
} from './client-types.js';
import type { SessionSummary } from './event-types.js';
import type {
  AdminFrame,
  ErrorFrame,
  HelloFrame,
  LogFrame,
  ProtocolError,
  ServerFrame,
  TimelineFrame,
} from './frame-types.js';
import { CLOSE_CODES } from './frame-types.js';
import type { Account, ParamsOf, RequestType, ResultOf } from './request-types.js';
import { SessionHttp } from './session-http.js';

export type {
  ConnectionState,
  MeResult,
  SessionClientOptions,
  Subscription,
  SubscriptionHandlers,
  WebSocketLike,
} from './client-types.js';
export { SessionClientError } from './client-types.js';

interface Pending {
  frame: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
  sent: boolean;
}

interface SubscriptionState {
  sessionId: string;
  handlers: SubscriptionHandlers;
  seq: number;
  serverId: string | undefined;
  active: boolean;
  /** A subscribe request is on its way (it is resent after a reconnect, not doubled). */
  subscribing: boolean;
  markReady(): void;
}

type Listener<T> = (value: T) => void;

let clientCounter = 0;

export class SessionClient {
  private readonly baseUrl: string;
  private readonly httpCalls: SessionHttp;
  private readonly options: SessionClientOptions;
  private socket: WebSocketLike | undefined;
  private state: ConnectionState = 'closed';
  private hello: HelloFrame | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly subscriptions = new Map<string, SubscriptionState>();
  private readonly listeners = {
    state: new Set<Listener<ConnectionState>>(),
    hello: new Set<Listener<HelloFrame>>(),
    sessions: new Set<Listener<{ change: 'upsert' | 'removed'; sessionId: string; session?: SessionSummary }>>(),
    log: new Set<Listener<LogFrame['record']>>(),
    admin: new Set<Listener<AdminFrame>>(),
    error: new Set<Listener<ProtocolError>>(),
  };
  private requestCounter = 0;
  private readonly clientId: string;
  private reconnectAttempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private waitingForHello: { resolve(hello: HelloFrame): void; reject(error: unknown): void }[] = [];
  private lastUnsolicitedError: ProtocolError | undefined;

  constructor(options: SessionClientOptions = {}) {
    // A copy: setLocale changes it, and the HTTP calls read the same object.
    this.options = { ...options };
    this.baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
    this.httpCalls = new SessionHttp(this.baseUrl, this.options);
    clientCounter += 1;
    this.clientId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${clientCounter}`;
  }

  get connectionState(): ConnectionState {
    return this.state;
  }

  /** The hello of the current connection (account, limits, serverId). */
  get current(): HelloFrame | undefined {
    return this.hello;
  }

  on(kind: 'state', listener: Listener<ConnectionState>): () => void;
  on(kind: 'hello', listener: Listener<HelloFrame>): () => void;
  on(
    kind: 'sessions',
    listener: Listener<{ change: 'upsert' | 'removed'; sessionId: string; session?: SessionSummary }>,
  ): () => void;
  on(kind: 'log', listener: Listener<LogFrame['record']>): () => void;
  on(kind: 'error', listener: Listener<ProtocolError>): () => void;
  on(kind: 'admin', listener: Listener<AdminFrame>): () => void;
  on(kind: keyof SessionClient['listeners'], listener: Listener<never>): () => void {
    const set = this.listeners[kind] as Set<Listener<never>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Opens the socket; resolves with the server's hello. Rejects with AALIS_WEBUI_LOGIN_REQUIRED when not logged in. */
  connect(): Promise<HelloFrame> {
    if (this.state === 'open' && this.hello) return Promise.resolve(this.hello);
    const promise = new Promise<HelloFrame>((resolve, reject) => this.waitingForHello.push({ resolve, reject }));
    if (this.state === 'closed' || this.state === 'logged-out') this.open('connecting');
    return promise;
  }

  /** Closes for good (no reconnect); pending requests fail with AALIS_WEBUI_CLIENT_CLOSED. */
  close(): void {
    this.setState('closed');
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
    this.failPending({ code: 'AALIS_WEBUI_CLIENT_CLOSED', message: 'The client was closed.' });
  }

  /** Sends a request; while reconnecting it waits and goes out once the socket is back. */
  request<T extends RequestType>(type: T, params: ParamsOf<T>): Promise<ResultOf<T>> {
    this.requestCounter += 1;
    const id = `${this.clientId}-${this.requestCounter}`;
    const frame = JSON.stringify({ ...params, id, type });
    return new Promise<ResultOf<T>>((resolve, reject) => {
      const entry: Pending = { frame, resolve: resolve as (value: unknown) => void, reject, sent: false };
      this.pending.set(id, entry);
      if (this.state === 'open') this.transmit(id, entry);
      else if (this.state === 'closed' || this.state === 'logged-out') {
        this.pending.delete(id);
        reject(new SessionClientError({ code: 'AALIS_WEBUI_CLIENT_CLOSED', message: 'The client is not connected.' }));
      }
    });
  }

  /** Sends a message. The clientMessageId (made here when absent) lets a resend after a reconnect be ignored. */
  send(params: ParamsOf<'send'>): Promise<ResultOf<'send'>> {
    const clientMessageId = params.clientMessageId ?? `${this.clientId}-m${++this.requestCounter}`;
    return this.request('send', { ...params, clientMessageId });
  }

  /** Subscribes to a session; the handlers get a timeline first, then every event once, in order. */
  subscribe(sessionId: string, handlers: SubscriptionHandlers): Subscription {
    const existing = this.subscriptions.get(sessionId);
    if (existing) existing.active = false;
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const state: SubscriptionState = {
      sessionId,
      handlers,
      seq: 0,
      serverId: undefined,
      active: true,
      subscribing: false,
      markReady,
    };
    this.subscriptions.set(sessionId, state);
    const started = this.sendSubscribe(state);
    const whenReady = Promise.all([ready, started]).then(() => undefined);
    // Awaiting `ready` is optional: a failure then reaches the 'error' listeners instead of going unhandled.
    whenReady.catch((error: unknown) => this.reportError(error));
    const client = this;
    return {
      sessionId,
      get seq() {
        return state.seq;
      },
      ready: whenReady,
      async unsubscribe() {
        state.active = false;
        if (client.subscriptions.get(sessionId) === state) client.subscriptions.delete(sessionId);
        if (client.state === 'open') await client.request('unsubscribe', { sessionId });
      },
    };
  }

  // --- HTTP (see SessionHttp) ------------------------------------------------------------------------------

  /** Who is logged in (and the CSRF token for HTTP mutations). Rejects with AALIS_WEBUI_LOGIN_REQUIRED otherwise. */
  me(): Promise<MeResult> {
    return this.httpCalls.me();
  }

  /** Exchanges a one-time link token for a login (the cookie is set by the response). */
  login(token: string): Promise<{ account: Account; csrfToken: string }> {
    return this.httpCalls.login(token);
  }

  /** Logs in with an account's password (the cookie is set by the response). */
  loginWithPassword(account: string, password: string): Promise<{ account: Account; csrfToken: string }> {
    return this.httpCalls.loginWithPassword(account, password);
  }

  /** Ends the login on the server and closes this client. */
  async logout(): Promise<void> {
    await this.httpCalls.logout();
    this.close();
  }

  /**
   * Changes the language the server writes in: for the open connection (`locale.set`), later connections and HTTP
   * calls. Resolves with the locale the server chose.
   */
  async setLocale(locale: string): Promise<ResultOf<'locale.set'>['locale']> {
    this.options.locale = locale;
    if (this.state !== 'open') return locale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
    return (await this.request('locale.set', { locale })).locale;
  }

  /** A request over HTTP instead of the socket (same types, same results, same errors). */
  call<T extends RequestType>(type: T, params: ParamsOf<T>): Promise<ResultOf<T>> {
    return this.httpCalls.call(type, params);
  }

  // --- socket -------------------------------------------------------------------------------------------------

  private socketUrl(): string {
    const base = this.baseUrl || (typeof location !== 'undefined' ? location.origin : '');
    const locale = this.options.locale ? `?locale=${encodeURIComponent(this.options.locale)}` : '';
    return `${base.replace(/^http/, 'ws')}/api/v1/socket${locale}`;
  }

  private open(state: ConnectionState): void {
    this.setState(state);
    const create =
      this.options.createSocket ??
      ((url: string) =>
        new (globalThis as unknown as { WebSocket: new (url: string) => WebSocketLike }).WebSocket(url));
    const socket = create(this.socketUrl());
    this.socket = socket;
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      if (typeof event.data !== 'string') return;
      let frame: ServerFrame;
      try {
        frame = JSON.parse(event.data) as ServerFrame;
      } catch {
        return;
      }
      this.handle(frame);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.hello = undefined;
      for (const entry of this.pending.values()) {
        entry.sent = false;
        if (entry.timer) clearTimeout(entry.timer);
      }
      if (this.state === 'closed') return;
      if (event.code === CLOSE_CODES.loginRequired || event.code === CLOSE_CODES.refused) {
        this.setState('logged-out');
        // The server says why in an error frame just before closing; the close reason carries the code too.
        const error: ProtocolError = this.lastUnsolicitedError ?? {
          code:
            event.reason ||
            (event.code === CLOSE_CODES.refused ? 'AALIS_WEBUI_ORIGIN_REFUSED' : 'AALIS_WEBUI_LOGIN_REQUIRED'),
          message: 'Log in again with a fresh link (aalis webui-link).',
        };
        this.lastUnsolicitedError = undefined;
        for (const waiter of this.waitingForHello.splice(0)) waiter.reject(new SessionClientError(error));
        this.failPending(error);
        return;
      }
      this.scheduleReconnect();
    };
    socket.onerror = () => {
      // onclose follows and decides.
    };
  }

  private scheduleReconnect(): void {
    this.setState('reconnecting');
    const { min, max } = this.options.reconnectDelayMs ?? { min: 250, max: 10_000 };
    const delay = Math.min(max, min * 2 ** this.reconnectAttempt);
    this.reconnectAttempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.state === 'reconnecting') this.open('reconnecting');
    }, delay);
  }

  private handle(frame: ServerFrame): void {
    switch (frame.type) {
      case 'hello': {
        this.hello = frame;
        this.lastUnsolicitedError = undefined;
        this.reconnectAttempt = 0;
        this.setState('open');
        for (const waiter of this.waitingForHello.splice(0)) waiter.resolve(frame);
        for (const listener of this.listeners.hello) listener(frame);
        for (const state of this.subscriptions.values()) {
          if (state.active && !state.subscribing) this.sendSubscribe(state).catch((error) => this.reportError(error));
        }
        for (const [id, entry] of this.pending) if (!entry.sent) this.transmit(id, entry);
        return;
      }
      case 'reply': {
        const entry = this.pending.get(frame.id);
        if (!entry) return;
        this.pending.delete(frame.id);
        if (entry.timer) clearTimeout(entry.timer);
        entry.resolve(frame.result);
        return;
      }
      case 'error':
        this.handleError(frame);
        return;
      case 'timeline':
        this.handleTimeline(frame);
        return;
      case 'event': {
        const state = this.subscriptions.get(frame.sessionId);
        if (!state?.active || frame.seq <= state.seq) return;
        state.seq = frame.seq;
        state.handlers.event?.(frame.event, frame.seq);
        if (frame.event.type === 'session.deleted') {
          state.active = false;
          this.subscriptions.delete(frame.sessionId);
        }
        return;
      }
      case 'sessions':
        for (const listener of this.listeners.sessions) listener(frame);
        return;
      case 'log':
        for (const listener of this.listeners.log) listener(frame.record);
        return;
      case 'admin':
        for (const listener of this.listeners.admin) listener(frame);
        return;
      case 'goodbye':
        if (frame.reason !== 'shutdown') this.setState('logged-out');
        return;
    }
  }

  private handleError(frame: ErrorFrame): void {
    const entry = frame.id !== undefined ? this.pending.get(frame.id) : undefined;
    if (!entry || frame.id === undefined) {
      this.lastUnsolicitedError = frame.error;
      for (const listener of this.listeners.error) listener(frame.error);
      return;
    }
    this.pending.delete(frame.id);
    if (entry.timer) clearTimeout(entry.timer);
    entry.reject(new SessionClientError(frame.error));
  }

  private handleTimeline(frame: TimelineFrame): void {
    const state = this.subscriptions.get(frame.sessionId);
    if (!state?.active) return;
    state.seq = frame.seq;
    state.serverId = this.hello?.serverId;
    state.handlers.timeline?.(frame.timeline, frame.seq);
    state.markReady();
  }

  private async sendSubscribe(state: SubscriptionState): Promise<void> {
    if (this.state !== 'open' && this.state !== 'connecting' && this.state !== 'reconnecting') return;
    const resume =
      state.serverId !== undefined && state.seq > 0 ? { serverId: state.serverId, seq: state.seq } : undefined;
    state.subscribing = true;
    try {
      const result = await this.request('subscribe', { sessionId: state.sessionId, ...(resume ? { resume } : {}) });
      if (result.resumed) state.markReady();
      state.serverId = this.hello?.serverId ?? state.serverId;
    } finally {
      state.subscribing = false;
    }
  }

  private transmit(id: string, entry: Pending): void {
    if (!this.socket) return;
    try {
      this.socket.send(entry.frame);
      entry.sent = true;
    } catch {
      return;
    }
    const timeout = this.options.requestTimeoutMs ?? 30_000;
    entry.timer = setTimeout(() => {
      if (!this.pending.has(id)) return;
      this.pending.delete(id);
      entry.reject(
        new SessionClientError({ code: 'AALIS_WEBUI_CLIENT_TIMEOUT', message: `No reply within ${timeout} ms.` }),
      );
    }, timeout);
  }

  private reportError(error: unknown): void {
    const protocolError: ProtocolError =
      error instanceof SessionClientError
        ? { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }
        : { code: 'AALIS_WEBUI_CLIENT_ERROR', message: error instanceof Error ? error.message : String(error) };
    for (const listener of this.listeners.error) listener(protocolError);
  }

  private failPending(error: ProtocolError): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(new SessionClientError(error));
    }
    for (const waiter of this.waitingForHello.splice(0)) waiter.reject(new SessionClientError(error));
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners.state) listener(state);
  }
}
