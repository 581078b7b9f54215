// The config section of the session server (plugins.session-server; the runtime fills host and port from the
// host keys webui.host / webui.port and the environment AALIS_WEBUI_HOST / AALIS_WEBUI_PORT).
import { type Infer, s } from '@aalis/core';

const account = s.object({
  userId: s
    .string()
    .nonEmpty()
    .describe('The account id on platform "webui" (letters, digits, ".", "_", "-"; at most 64).'),
  displayName: s.string().nonEmpty().optional().describe('Shown as the sender of its messages.'),
});

export const serverConfigSchema = s
  .object({
    host: s
      .string()
      .nonEmpty()
      .default('127.0.0.1')
      .describe('Address the server listens on. Keep the loopback address unless a proxy in front adds TLS.'),
    port: s
      .number()
      .integer()
      .min(0)
      .max(65535)
      .default(8420)
      .describe('Port the server listens on; 0 = any free port (the start banner prints the one taken).'),
    ownerUserId: s
      .string()
      .nonEmpty()
      .default('owner')
      .describe(
        'The owner\'s account on platform "webui" (the runtime makes it an owner); the start link logs in as it.',
      ),
    ownerDisplayName: s.string().nonEmpty().optional().describe("The owner's display name in the WebUI."),
    accounts: s
      .array(account)
      .default([])
      .describe(
        'Further WebUI accounts (not owners): each sees only its own sessions; levels come from the authority service (/level). `aalis webui-link --account <userId>` prints a login link for one.',
      ),
    allowedHosts: s
      .array(s.string().nonEmpty())
      .default([])
      .describe(
        'Host names (with port, e.g. "aalis.example:443") accepted in the Host header besides the listening address and loopback names.',
      ),
    linkTtlMinutes: s.number().integer().min(1).default(15).describe('How long a login link stays valid (once).'),
    loginTtlDays: s.number().integer().min(1).default(30).describe('How long a login (the cookie) stays valid.'),
    maxMessageChars: s.number().integer().min(1).default(32_000).describe('Most characters of one message.'),
    maxAttachmentBytes: s
      .number()
      .integer()
      .min(1)
      .default(10 * 1024 * 1024)
      .describe('Most bytes of one image attachment (decoded).'),
    maxAttachments: s.number().integer().min(0).default(8).describe('Most attachments of one message.'),
    maxFrameBytes: s
      .number()
      .integer()
      .min(1024)
      .default(16 * 1024 * 1024)
      .describe('Most bytes of one socket frame or HTTP request body.'),
    maxJsonDepth: s
      .number()
      .integer()
      .min(8)
      .max(1000)
      .default(64)
      .describe('Deepest nesting of objects and arrays in a request body or frame; deeper is refused (400).'),
    maxSocketsPerLogin: s
      .number()
      .integer()
      .min(1)
      .default(32)
      .describe('Most sockets one login may have open at once (tabs, windows); one more is refused (429).'),
    maxConnectionsPerAddress: s
      .number()
      .integer()
      .min(1)
      .default(256)
      .describe(
        'Most open connections (HTTP and sockets) from one client address; more are closed at once. Behind a proxy every client shares its address: raise this there.',
      ),
    maxRequestsPerLogin: s
      .number()
      .integer()
      .min(1)
      .default(32)
      .describe(
        'Most requests of one login in progress at once (HTTP calls and socket frames); more are refused (429).',
      ),
    maxWaitingInputs: s
      .number()
      .integer()
      .min(1)
      .default(100)
      .describe('Most inputs waiting in one session for the running turn; a send past it is refused (429).'),
    replayEvents: s
      .number()
      .integer()
      .min(100)
      .default(2000)
      .describe('Most events kept per live session for clients resuming after a reconnect.'),
    replayBytes: s
      .number()
      .integer()
      .min(64 * 1024)
      .default(4 * 1024 * 1024)
      .describe(
        'Most bytes of events kept per live session for resuming; a client resuming from before them gets a fresh timeline.',
      ),
    headersTimeoutMs: s
      .number()
      .integer()
      .min(1000)
      .default(10_000)
      .describe('A connection that has not sent a whole request head within this time is closed (slow clients).'),
    requestTimeoutMs: s
      .number()
      .integer()
      .min(1000)
      .default(30_000)
      .describe('A request whose body has not arrived whole within this time is closed (slow clients).'),
    idleTimeoutMs: s
      .number()
      .integer()
      .min(1000)
      .default(5000)
      .describe('An HTTP connection idle between requests is closed after this time.'),
    socketPingMs: s
      .number()
      .integer()
      .min(1000)
      .default(30_000)
      .describe('Sockets are pinged this often; one that has not answered the previous ping is closed.'),
    historyEntries: s
      .number()
      .integer()
      .min(1)
      .default(400)
      .describe('Most timeline entries sent on subscribe (the latest ones).'),
    webRoot: s
      .string()
      .default('')
      .describe('Directory of a built page to serve; empty = the dist directory of @aalis/plugin-webui when built.'),
  })
  .describe('The session server: HTTP + WebSocket session protocol, login, and the WebUI page.');

export type ServerConfig = Infer<typeof serverConfigSchema>;
