// The config section `plugins.platform-satori`: a light module (the runtime validates and documents it without
// loading the plugin).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import {
  apiTimeoutField,
  maxMessageLengthField,
  pingIntervalField,
  retryDelayField,
} from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const satoriConfigSchema = s.object({
  endpoint: s
    .string()
    .default('')
    .describe(
      'The Satori server: its HTTP address with the API version path, e.g. http://127.0.0.1:5140/satori/v1 (Koishi’s @koishijs/plugin-server-satori) — events come from <endpoint>/events, API calls go to <endpoint>/<method>. Empty: not connected.',
    ),
  token: s.string().default('').describe('The Satori server’s token (Authorization: Bearer …). Never logged.'),
  pingIntervalMs: pingIntervalField('event socket'),
  retryDelayMs: retryDelayField('reconnecting after the event socket closed'),
  apiTimeoutMs: apiTimeoutField('Satori API call'),
  maxMessageLength: maxMessageLengthField({
    max: 20_000,
    byDefault: 2_000,
    limit: '2000 suits the strictest bridged platforms',
  }),
  requests: s.object({
    friend: s
      .enum(['ask', 'accept', 'refuse'])
      .default('ask')
      .describe(
        "Friend requests (friend-request): 'ask' the owners (a host notice in each owner's private chat with her; she settles it with their answer), 'accept' or 'refuse' at once. Owners' and allow-listed requests are always accepted.",
      ),
    guildInvite: s
      .enum(['ask', 'accept', 'refuse'])
      .default('ask')
      .describe("Invitations into a group (guild-request): 'ask' the owners, 'accept' or 'refuse' at once."),
    guildMember: s
      .enum(['ignore', 'ask', 'accept', 'refuse'])
      .default('ignore')
      .describe(
        "Requests to join a group she administers (guild-member-request): 'ignore' (the group's admins decide), 'ask' the owners, 'accept' or 'refuse' at once.",
      ),
    allow: s
      .array(s.string())
      .default([])
      .describe(
        "Accounts as '<platform>:<user id>' (e.g. 'onebot:12345') whose requests and invitations are accepted without asking.",
      ),
  }),
  ...roomLimitsShape(),
});

export type SatoriConfig = Infer<typeof satoriConfigSchema>;

/** Whether the section names a Satori server (the runtime enables the plugin only then). */
export function satoriConfigured(section: unknown): boolean {
  return sectionHasText(section, 'endpoint');
}
