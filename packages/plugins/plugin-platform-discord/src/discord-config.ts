// The config section `plugins.platform-discord`: a light module (the runtime validates and documents it without
// loading the plugin or discord's packages).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { apiTimeoutField, maxMessageLengthField, retryDelayField } from '@aalis/platform-room/room-config-fields';
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
  apiTimeoutMs: apiTimeoutField('REST request'),
  retryDelayMs: retryDelayField(
    'connecting again when the gateway could not be reached',
    ' (A dropped connection is resumed by the gateway client at once.)',
  ),
  maxMessageLength: maxMessageLengthField({ max: 2_000, byDefault: 2_000, limit: 'Discord allows 2000 characters' }),
  ...roomLimitsShape(),
});

export type DiscordConfig = Infer<typeof discordConfigSchema>;

/** Whether the section configures a bot (the runtime enables the plugin only then). */
export function discordConfigured(section: unknown): boolean {
  return sectionHasText(section, 'token');
}
