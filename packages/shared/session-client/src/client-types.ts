// The session client's option, handler and error types (what a caller of SessionClient names).
import type { SessionEvent } from './event-types.js';
import type { ProtocolError } from './frame-types.js';
import type { Account, Limits } from './request-types.js';
import type { Timeline } from './timeline-types.js';

/** What the client needs of a WebSocket (the browser's and `ws`'s both fit). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'logged-out' | 'closed';

export interface SessionClientOptions {
  /** The server's origin, e.g. 'http://127.0.0.1:8420'; '' (default) = the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Opens the socket (default: the global WebSocket). */
  createSocket?: (url: string) => WebSocketLike;
  /** Extra headers for HTTP calls (a non-browser client passes its cookie here). */
  headers?: Record<string, string>;
  reconnectDelayMs?: { min: number; max: number };
  /** How long a request waits for its reply once sent (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * The page's language (a BCP 47 tag): sent on the socket URL (`?locale=`) and as `X-Aalis-Locale` on HTTP calls,
   * so the server writes its texts in it. Change it later with `setLocale`.
   */
  locale?: string;
}

export interface SubscriptionHandlers {
  /** A full timeline: on first subscribe, after a reconnect that could not resume, after the history changed. */
  timeline?(timeline: Timeline, seq: number): void;
  event?(event: SessionEvent, seq: number): void;
}

export interface Subscription {
  readonly sessionId: string;
  /** The last sequence number applied. */
  readonly seq: number;
  /** Resolves once the first timeline (or replay) arrived. */
  readonly ready: Promise<void>;
  unsubscribe(): Promise<void>;
}

/** A coded error from the server (or AALIS_WEBUI_CLIENT_* from the client itself). */
export class SessionClientError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(error: ProtocolError) {
    super(error.message);
    this.name = 'SessionClientError';
    this.code = error.code;
    this.details = error.details;
  }
}

export interface MeResult {
  account: Account;
  csrfToken: string;
  serverId: string;
  protocol: number;
  limits: Limits;
  locale: 'zh-CN' | 'en';
}
