// The config section `plugins.platform-onebot`.
import { type Infer, s } from '@aalis/core';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const onebotConfigSchema = s.object({
  mode: s
    .enum(['forward', 'reverse', 'http'])
    .default('forward')
    .describe(
      'forward: the host connects to the implementation’s universal WebSocket (url); reverse: the implementation connects to the host (reverse.*); http: the host calls the implementation’s HTTP API (url) and the implementation POSTs its events to the host (reverse.*), each answered only once stored.',
    ),
  url: s
    .string()
    .default('')
    .describe(
      'Forward mode: the universal WebSocket endpoint of NapCat / Lagrange / go-cqhttp, e.g. ws://127.0.0.1:3001. HTTP mode: its HTTP API root, e.g. http://127.0.0.1:5700.',
    ),
  accessToken: s
    .string()
    .default('')
    .describe('The access token (sent as Authorization: Bearer; checked on reverse connections). Never logged.'),
  secret: s
    .string()
    .default('')
    .describe(
      'HTTP mode: the secret of the implementation’s HTTP POST reporting; every event POST must then carry its X-Signature (HMAC-SHA1). Never logged.',
    ),
  reverse: s.object({
    host: s
      .string()
      .nonEmpty()
      .default('127.0.0.1')
      .describe('Reverse and HTTP mode: the address the host listens on.'),
    port: s
      .number()
      .integer()
      .min(0)
      .max(65535)
      .default(6700)
      .describe('Reverse and HTTP mode: the port (0 = any free port).'),
    path: s
      .string()
      .default('')
      .describe(
        'Reverse and HTTP mode: the only WebSocket or event POST path accepted (e.g. /onebot/v11/ws); empty accepts any path, as implementations are configured with all sorts.',
      ),
  }),
  instanceId: s
    .string()
    .default('')
    .describe(
      'Names this connection across a deployment: only the process holding the lease platform:onebot:<instanceId> runs it. Empty: the endpoint (forward: the url without credentials; reverse: reverse:<port><path>), the same on every host with the same configuration.',
    ),
  apiTimeoutMs: s.number().integer().min(100).default(30_000).describe('How long an API call waits for its answer.'),
  idleTimeoutMs: s
    .number()
    .integer()
    .min(1_000)
    .default(120_000)
    .describe(
      'A connection that sends nothing this long is dropped and redialled; once the implementation sends heartbeats, two missed heartbeats end it instead.',
    ),
  reconnect: s.object({
    initialMs: s
      .number()
      .integer()
      .min(10)
      .default(1_000)
      .describe('First reconnection delay; doubles per failed attempt.'),
    maxMs: s.number().integer().min(10).default(30_000).describe('Longest reconnection delay.'),
  }),
  maxMessageLength: s
    .number()
    .integer()
    .min(100)
    .default(3_000)
    .describe(
      'Longer replies are sent as several messages, cut at paragraphs, lines or spaces, code blocks kept whole.',
    ),
  requests: s.object({
    friend: s
      .enum(['ask', 'accept', 'refuse'])
      .default('ask')
      .describe(
        "Friend requests: 'ask' the owners (a host notice in each owner's private QQ chat with her; she settles it with their answer), 'accept' or 'refuse' at once. Owners' and allow-listed requests are always accepted.",
      ),
    groupInvite: s
      .enum(['ask', 'accept', 'refuse'])
      .default('ask')
      .describe(
        "Invitations into a group: 'ask' the owners, 'accept' or 'refuse' at once (owners and the allow-list: accepted).",
      ),
    allow: s
      .array(s.string())
      .default([])
      .describe('QQ numbers whose friend requests and group invitations are accepted without asking.'),
  }),
  ...roomLimitsShape(),
});

export type OneBotConfig = Infer<typeof onebotConfigSchema>;

/** Whether the section configures a connection (the runtime enables the plugin only then). */
export function onebotConfigured(section: unknown): boolean {
  if (typeof section !== 'object' || section === null) return false;
  const record = section as Record<string, unknown>;
  // HTTP mode needs the API url, as forward mode does.
  return record.mode === 'reverse' || (typeof record.url === 'string' && record.url !== '');
}
