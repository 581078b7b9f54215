// The config section `plugins.platform-discord`: a light module (the runtime validates and documents it without
// loading the plugin or discord's packages).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const discordConfigSchema = s.object({
  token: s
    .string()
    .widget('password')
    .default('')
    .describe(
      'The bot token (Discord Developer Portal → your application → Bot → Reset Token). Never logged. Empty: not connected.',
    ),
  apiBase: s
    .string()
    .nonEmpty()
    .default('https://discord.com/api')
    .describe('The REST API base, without the version (the gateway address is asked from it: GET /gateway/bot).'),
  gatewayUrl: s
    .string()
    .default('')
    .describe(
      'The gateway address to connect to (wss://…), for a gateway proxy; empty: the one GET /gateway/bot names.',
    ),
  registerCommands: s
    .boolean()
    .default(true)
    .describe('Register the host’s slash commands as Discord application commands, so Discord offers them.'),
  apiTimeoutMs: s.number().integer().min(1_000).default(15_000).describe('How long one REST request may take.'),
  retryDelayMs: s
    .number()
    .integer()
    .min(10)
    .default(1_000)
    .describe(
      'Pause before connecting again when the gateway could not be reached; doubles after each failed try, up to a minute. (A dropped connection is resumed by the gateway client at once.)',
    ),
  maxMessageLength: s
    .number()
    .integer()
    .min(100)
    .max(2_000)
    .default(2_000)
    .describe('Longer replies are sent as several messages (Discord allows 2000 characters).'),
  ...roomLimitsShape(),
});

export type DiscordConfig = Infer<typeof discordConfigSchema>;

/** Whether the section configures a bot (the runtime enables the plugin only then). */
export function discordConfigured(section: unknown): boolean {
  return sectionHasText(section, 'token');
}
