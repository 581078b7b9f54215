// What the platform conformance suite (platform-conformance.case.ts) and `npm run bench platforms` need from a local
// protocol server: a driver per platform, in platform-<x>-driver.case.ts, exporting `conformanceDriver`. No test
// framework here, so the bench loads the same drivers the tests run.

/** alice is the owner; bob is anyone. Drivers give them the display names 'Alice' and 'Bob'. */
export type ConformanceUser = 'alice' | 'bob';

/** Groups are named by the suite ('g1', 'g2' …); a driver maps each key to a platform chat id, always the same one. */
export type ConformanceChat = { kind: 'group'; group: string } | { kind: 'private'; user: ConformanceUser };

export interface ConformanceInbound {
  /** For a private chat, `chat.user` is `from`. */
  chat: ConformanceChat;
  from: ConformanceUser;
  /** Plain text; the suite never puts markup in it. */
  text: string;
  /** Addressed by the platform's own mention of her account, placed before the text. */
  mention?: boolean;
  /** Quotes (replies to) one of her messages: a `ConformanceSent.id`. */
  replyTo?: string;
}

export interface ConformanceSent {
  /** The id the server gave her message (what `replyTo` takes). */
  id: string;
  chat: ConformanceChat;
  /** What a reader sees: markup and escapes undone, the quote or reply element removed. */
  text: string;
  /** The platform id of the inbound message it quotes or replies to. */
  quote?: string;
  /** performance.now() when the server received the send request. */
  at: number;
}

/** The suite's cases, by key (for `PlatformConformanceDriver.cannot`). */
export type ConformanceCase =
  | 'group-turn'
  | 'private-chat'
  | 'reply-addresses'
  | 'failed-send'
  | 'malformed'
  | 'reconnect'
  | 'restart'
  | 'voice'
  | 'secrets'
  /** room-flow-platforms.test.ts: a request of bob's she may approve, put to the owner (`ConformanceServer.ownerRequest`). */
  | 'owner-request';

/** A voice message she sent: the audio her server received for it (the upload) and how it was encoded. */
export interface ConformanceVoice {
  chat: ConformanceChat;
  /** 'ogg-opus' (OggS with an OpusHead) or 'silk' (Tencent's #!SILK_V3). */
  format: 'ogg-opus' | 'silk';
  bytes: Uint8Array;
  /** The length the platform was told (milliseconds), where its voice message carries one. */
  durationMs?: number;
}

/** `S` is the driver's own server type, for a platform's own cases run beside the suite's (its raw server in it). */
export interface PlatformConformanceDriver<S extends ConformanceServer = ConformanceServer> {
  /** 'satori', 'discord': in test titles and the bench table. */
  readonly name: string;
  /**
   * Cases the platform's protocol cannot take part in, each with the reason (said in the skipped case's title). Only
   * for what the protocol lacks (no live connection to drop, no reply ids on the wire), never for an adapter's gap.
   */
  readonly cannot?: Partial<Record<ConformanceCase, string>>;
  /**
   * The platform's documented send limits, for the bench (npm run bench platforms): one that sends faster than the
   * platform lets a bot send measures the SDK's limiter holding sends back, not the adapter. The bench then spreads
   * its rounds over `channels` group chats (she is mentioned) and starts a round at most every `minRoundMs`; `text`
   * says which limits, for the bench's output.
   */
  readonly sendLimits?: { text: string; channels: number; minRoundMs: number };
  /** Starts the local protocol server(s); closed by the caller. */
  start(): Promise<S>;
}

export interface ConformanceServer {
  /** The configuration section: 'platform-satori'. */
  readonly section: string;
  /** The section's settings (JSON-able), pointing at this server, with short retry delays (≤ 100 ms). */
  settings(): Record<string, unknown>;
  /** alice's account, as written in `owners:`. */
  owner(): { platform: string; userId: string };
  /** The user's account id as the adapter puts it in the sender (the sender prefix reads 'Bob (<account>)'). */
  account(user: ConformanceUser): string;
  /**
   * How the model sees the user named on a room line, where the platform tells the adapter no display name (WeCom's
   * callbacks carry the userid only). Default: `Bob (<account>)`.
   */
  senderLabel?(user: ConformanceUser): string;
  /** The session id the adapter uses for the chat: 'satori:group:general'. */
  sessionId(chat: ConformanceChat): string;
  /** How many times the adapter has connected so far (identified, began polling …): it grows after a start or a drop. */
  connections(): number;
  /**
   * How events reach her: as frames on her connection (default) or as HTTP requests to her (webhooks, callbacks) —
   * the bench compares the inbound way with the matching baseline.
   */
  readonly inbound?: 'frames' | 'http';
  /**
   * How her replies reach the platform: she sends them (default), or the platform collects them by asking again and
   * again (WeCom's stream refreshes) — the bench then measures the reply dispatched → available to the next ask,
   * what she adds, and leaves the platform's asking interval out.
   */
  readonly outbound?: 'requests' | 'polled';
  /** Whether events sent while she is disconnected reach her once she is back (replay, resume, a queue). */
  readonly replaysMissedEvents: boolean;
  /** Delivers one event on the wire; the platform message id and performance.now() right before it was written. */
  deliver(message: ConformanceInbound): Promise<{ id: string; at: number }>;
  /** Every message she sent so far, in order. */
  sent(): readonly ConformanceSent[];
  /**
   * Every voice message she sent so far (the platform's voice message, its audio uploaded where the platform
   * uploads first), in order. Absent: the platform carries no voice, said in `cannot.voice`.
   */
  voices?(): readonly ConformanceVoice[];
  /** Cuts her live connection at once (a socket terminated, a held long poll destroyed). */
  dropConnection(): void;
  /** The next `times` attempts to (re)connect are answered with HTTP `status` (a 5xx). */
  refuseConnections(status: number, times: number): void;
  /** The next send fails: 'server-error' is a 5xx with the platform's error body, 'refused' its permanent refusal. */
  failNextSend(kind: 'server-error' | 'refused'): void;
  /** Writes bad events: not JSON where frames are text, an unknown type, required fields missing, one oversized. */
  sendMalformed(): Promise<void>;
  /** The coded error the adapter logs for a malformed event. */
  readonly malformedCode: string;
  /**
   * Every code the bad input of sendMalformed gets logged with, one kind or more each (default: `malformedCode` and
   * the room's AALIS_ROOM_MESSAGE_TOO_LONG for the oversized message).
   */
  readonly badInputCodes?: readonly string[];
  /** The credentials in the settings (at least one): none may appear in a log line. */
  readonly secrets: readonly string[];
  /**
   * A request from bob that she may approve and that waits for the owner's answer (a friend request; Telegram, which
   * has none: being added to a group). Absent: the platform has none a bot answers, said in `cannot['owner-request']`.
   */
  readonly ownerRequest?: ConformanceOwnerRequest;
  close(): Promise<void>;
}

export interface ConformanceOwnerRequest {
  /** The owners-only tool settling it ('onebot_request_answer'). */
  readonly tool: string;
  /** The answer whose effect shows on the wire: true (approved) for a friend request; false for Telegram (she leaves). */
  readonly approve: boolean;
  /** bob's request arrives on the wire; `key` names it for `settled`. */
  send(key: string): Promise<void>;
  /** Whether the server got the call settling request `key` with `approve`. */
  settled(key: string): boolean;
}

/**
 * The product's configuration for a driver's server (or several: one product serving each platform, every owner
 * named) and the scripted model server at `modelUrl`; with `speechUrl`, a text-to-speech endpoint for voice replies
 * (plugins.media.speech, no retries).
 */
export function conformanceConfig(
  servers: ConformanceServer | readonly ConformanceServer[],
  modelUrl: string,
  speechUrl?: string,
): string {
  const all: readonly ConformanceServer[] = Array.isArray(servers) ? servers : [servers as ConformanceServer];
  // YAML reads JSON: the driver's values go in as they are, quoted where they need it.
  return `locale: en
logLevel: debug
consoleLogLevel: info
owners: [${all.map((server) => JSON.stringify(server.owner())).join(', ')}]
llm: { baseUrl: ${JSON.stringify(modelUrl)}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 }, modelDefaults: { vision: true } }
  memory-summary: false
${speechUrl ? `  media: { speech: { baseUrl: ${JSON.stringify(speechUrl)}, retry: { maxRetries: 0 } } }\n` : ''}${all
  .map((server) => `  ${server.section}: ${JSON.stringify(server.settings())}\n`)
  .join('')}`;
}
