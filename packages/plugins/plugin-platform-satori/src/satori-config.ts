// The config section `plugins.platform-satori`: a light module (the runtime validates and documents it without
// loading the plugin).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const satoriConfigSchema = s.object({
  endpoint: s
    .string()
    .default('')
    .describe(
      'The Satori server: its HTTP address with the API version path, e.g. http://127.0.0.1:5140/satori/v1 (Koishi’s @koishijs/plugin-server-satori) — events come from <endpoint>/events, API calls go to <endpoint>/<method>. Empty: not connected.',
    ),
  token: s.string().default('').describe('The Satori server’s token (Authorization: Bearer …). Never logged.'),
  pingIntervalMs: s
    .number()
    .integer()
    .min(1_000)
    .default(10_000)
    .describe('How often the event socket is pinged; a socket that answers no ping for twice as long is reconnected.'),
  retryDelayMs: s
    .number()
    .integer()
    .min(10)
    .default(1_000)
    .describe(
      'Pause before reconnecting after the event socket closed; doubles after each failed try, up to a minute.',
    ),
  apiTimeoutMs: s.number().integer().min(1_000).default(15_000).describe('How long one Satori API call may take.'),
  maxMessageLength: s
    .number()
    .integer()
    .min(100)
    .max(20_000)
    .default(2_000)
    .describe('Longer replies are sent as several messages (2000 suits the strictest bridged platforms).'),
  ...roomLimitsShape(),
});

export type SatoriConfig = Infer<typeof satoriConfigSchema>;

/** Whether the section names a Satori server (the runtime enables the plugin only then). */
export function satoriConfigured(section: unknown): boolean {
  return sectionHasText(section, 'endpoint');
}
