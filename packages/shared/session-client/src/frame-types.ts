// Socket frames (docs/session-protocol.md 「Frames」) and the error codes every reply may carry.
import type { SessionEvent, SessionSummary } from './event-types.js';
import type { PluginInstallFrame } from './plugin-install-types.js';
import type { Account, Limits, LogView, PluginView, PreferencesView, RequestType } from './request-types.js';
import type { Timeline } from './timeline-types.js';

/** Every error code the server answers with (other AALIS_* codes of the host's services pass through). */
export const ERROR_CODES = [
  'AALIS_WEBUI_LOGIN_REQUIRED',
  'AALIS_WEBUI_LOGIN_EXPIRED',
  'AALIS_WEBUI_LINK_INVALID',
  'AALIS_WEBUI_LINK_EXPIRED',
  'AALIS_WEBUI_LINK_USED',
  'AALIS_WEBUI_ORIGIN_REFUSED',
  'AALIS_WEBUI_HOST_REFUSED',
  'AALIS_WEBUI_CSRF_REFUSED',
  'AALIS_WEBUI_FORBIDDEN',
  'AALIS_WEBUI_FRAME_MALFORMED',
  'AALIS_WEBUI_FRAME_TOO_LARGE',
  'AALIS_WEBUI_UNKNOWN_REQUEST',
  'AALIS_WEBUI_BAD_REQUEST',
  'AALIS_WEBUI_MESSAGE_TOO_LONG',
  'AALIS_WEBUI_MESSAGE_EMPTY',
  'AALIS_WEBUI_ATTACHMENT_TOO_LARGE',
  'AALIS_WEBUI_ATTACHMENT_INVALID',
  'AALIS_WEBUI_TOO_MANY_ATTACHMENTS',
  'AALIS_WEBUI_SESSION_UNKNOWN',
  'AALIS_WEBUI_TURN_RUNNING',
  'AALIS_WEBUI_TURN_COMPRESSED',
  'AALIS_WEBUI_TURN_UNKNOWN',
  'AALIS_WEBUI_TURN_NOT_FAILED',
  'AALIS_WEBUI_EXPORT_TOO_LARGE',
  'AALIS_WEBUI_NOT_FOUND',
  'AALIS_WEBUI_UNAVAILABLE',
  'AALIS_WEBUI_INTERNAL',
  'AALIS_WEBUI_JSON_TOO_DEEP',
  'AALIS_WEBUI_TOO_MANY_SOCKETS',
  'AALIS_WEBUI_TOO_MANY_CONNECTIONS',
  'AALIS_WEBUI_TOO_MANY_REQUESTS',
  'AALIS_WEBUI_QUEUE_FULL',
  'AALIS_WEBUI_NOT_STORED',
  'AALIS_WEBUI_STORAGE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ProtocolError {
  /** An ErrorCode, or a passed-through AALIS_* code (e.g. AALIS_SETTINGS_INVALID_VALUE). */
  code: ErrorCode | (string & {});
  /** What was wrong and how to fix it, in the connection's locale. */
  message: string;
  details?: Record<string, unknown>;
}

/** Client → server. */
export type ClientFrame = { id: string; type: RequestType } & Record<string, unknown>;

export interface HelloFrame {
  type: 'hello';
  protocol: number;
  /** Changes whenever the server restarts; resume only within one serverId. */
  serverId: string;
  account: Account;
  limits: Limits;
  locale: 'zh-CN' | 'en';
  /** What the host can do beyond chat, so a page offers only what works (absent from older servers: none). */
  features?: ServerFeatures;
}

export interface ServerFeatures {
  /** A voice recording sent with a message becomes its text (the media plugin has a speech-to-text endpoint). */
  voiceInput: boolean;
  /** Her replies can be spoken (the media plugin has a text-to-speech endpoint): the page offers a play button. */
  voiceOutput: boolean;
}

export interface ReplyFrame {
  type: 'reply';
  id: string;
  result: unknown;
}

export interface ErrorFrame {
  type: 'error';
  /** The request's id; absent when the frame could not be read far enough to know it. */
  id?: string;
  error: ProtocolError;
}

export interface TimelineFrame {
  type: 'timeline';
  sessionId: string;
  /** The timeline includes every event up to and including this sequence number. */
  seq: number;
  timeline: Timeline;
}

export interface EventFrame {
  type: 'event';
  sessionId: string;
  seq: number;
  event: SessionEvent;
}

/** The session list changed (sent to every connection of an account that can see the session). */
export interface SessionsFrame {
  type: 'sessions';
  change: 'upsert' | 'removed';
  sessionId: string;
  session?: SessionSummary;
}

export interface LogFrame {
  type: 'log';
  record: LogView;
}

/** To owners: a plugin changed state, or the service preferences changed (no need to poll the admin data). */
export type AdminFrame =
  | { type: 'admin'; change: 'plugin'; plugin: PluginView }
  | { type: 'admin'; change: 'preferences'; preferences: PreferencesView }
  | PluginInstallFrame;

/** Sent before the server closes the socket: logged out, login expired, shutting down. */
export interface GoodbyeFrame {
  type: 'goodbye';
  reason: 'logged-out' | 'login-expired' | 'shutdown';
}

export type ServerFrame =
  | HelloFrame
  | ReplyFrame
  | ErrorFrame
  | TimelineFrame
  | EventFrame
  | SessionsFrame
  | LogFrame
  | AdminFrame
  | GoodbyeFrame;

/** Close codes the server uses (besides the standard 1000/1001/1011). */
export const CLOSE_CODES = {
  /** Not logged in / login expired / logged out: log in again, do not reconnect. */
  loginRequired: 4401,
  /** Origin or Host refused. */
  refused: 4403,
  /** This login has as many sockets open as it may (maxSocketsPerLogin): reconnect later, after another closed. */
  tooMany: 4429,
} as const;
