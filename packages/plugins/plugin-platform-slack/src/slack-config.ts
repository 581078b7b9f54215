// The config section `plugins.platform-slack`: a light module (the runtime validates and documents it without
// loading the plugin or the Slack SDK).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { apiTimeoutField, maxMessageLengthField, retryDelayField } from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const slackConfigSchema = s.object({
  botToken: s
    .string()
    .widget('password')
    .default('')
    .describe(
      'The Bot User OAuth Token (xoxb-…) from the app’s “OAuth & Permissions” page: the Web API calls (chat.postMessage, auth.test, users.info). Never logged.',
    ),
  appToken: s
    .string()
    .widget('password')
    .default('')
    .describe(
      'The App-Level Token (xapp-…, scope connections:write) from “Basic Information”: opens the Socket Mode connection. Never logged.',
    ),
  apiUrl: s
    .string()
    .nonEmpty()
    .default('https://slack.com/api/')
    .describe(
      'The Web API base URL (the SDK’s slackApiUrl); Socket Mode’s socket URL comes from apps.connections.open.',
    ),
  pingTimeoutMs: s
    .number()
    .integer()
    .min(1_000)
    .default(5_000)
    .describe(
      'The socket is pinged every third of this and reconnected when no pong comes within it; it is also the first pause before reconnecting.',
    ),
  serverPingTimeoutMs: s
    .number()
    .integer()
    .min(1_000)
    .default(30_000)
    .describe('After Slack’s first ping, the socket is reconnected when no further ping comes within this.'),
  retryDelayMs: retryDelayField('opening the socket again after it closed or failed to open'),
  apiTimeoutMs: apiTimeoutField('Web API call'),
  maxRateLimitRetries: s
    .number()
    .integer()
    .min(0)
    .max(10)
    .default(3)
    .describe('How often a Web API call answered 429 is tried again after waiting the Retry-After Slack asks for.'),
  maxMessageLength: maxMessageLengthField({
    max: 40_000,
    byDefault: 4_000,
    limit: 'Slack advises at most 4000 characters per message',
  }),
  ...roomLimitsShape(),
});

export type SlackConfig = Infer<typeof slackConfigSchema>;

/** Whether the section holds both tokens (the runtime enables the plugin only then). */
export function slackConfigured(section: unknown): boolean {
  return sectionHasText(section, 'botToken', 'appToken');
}
