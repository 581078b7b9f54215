// The config section `plugins.platform-telegram`.
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { maxMessageLengthField } from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const telegramConfigSchema = s.object({
  token: s.string().default('').describe('The bot token from @BotFather. Never logged.'),
  apiRoot: s
    .string()
    .nonEmpty()
    .default('https://api.telegram.org')
    .describe('The Bot API server: the public one, or a local Bot API server (telegram-bot-api).'),
  pollTimeoutSeconds: s
    .number()
    .integer()
    .min(0)
    .max(50)
    .default(30)
    .describe(
      'Long-polling timeout of getUpdates (0 = short polling: asked at most once a second while nothing comes).',
    ),
  apiTimeoutMs: s
    .number()
    .integer()
    .min(1_000)
    .default(15_000)
    .describe('How long one Bot API request may take (a long poll gets its timeout on top).'),
  retryDelayMs: s
    .number()
    .integer()
    .min(10)
    .default(3_000)
    .describe(
      'Pause before polling again after a failed poll; while Telegram refuses the token (401) it doubles after each try, up to 10 minutes.',
    ),
  registerCommands: s
    .boolean()
    .default(true)
    .describe('Register the host’s slash commands with setMyCommands, so Telegram offers them.'),
  maxMessageLength: maxMessageLengthField({ max: 4096, byDefault: 4000, limit: 'the Bot API allows 4096 characters' }),
  invitations: s.object({
    policy: s
      .enum(['ask', 'accept', 'refuse'])
      .default('ask')
      .describe(
        "When someone adds her to a group: 'ask' the owners (a host notice in each owner's private chat; she leaves on a refusal), 'accept' (stay) or 'refuse' (leave at once). Added by an owner or an allow-listed account, she stays.",
      ),
    allow: s
      .array(s.string())
      .default([])
      .describe('Telegram user ids (numbers as text) who may add her to groups without asking.'),
  }),
  ...roomLimitsShape(),
});

export type TelegramConfig = Infer<typeof telegramConfigSchema>;

/** Whether the section configures a bot (the runtime enables the plugin only then). */
export function telegramConfigured(section: unknown): boolean {
  return sectionHasText(section, 'token');
}
