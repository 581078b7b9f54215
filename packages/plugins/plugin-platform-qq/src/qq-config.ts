// The config section `plugins.platform-qq`: a light module (the runtime validates and documents it without loading
// the plugin).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import {
  apiTimeoutField,
  callbackBodyField,
  maxMessageLengthField,
  retryDelayField,
} from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const qqConfigSchema = s.object({
  appId: s.string().default('').describe('The bot’s AppID (QQ 开放平台 → 开发 → 开发设置). Empty: not connected.'),
  clientSecret: s
    .string()
    .default('')
    .widget('password')
    .describe('The bot’s AppSecret (开发设置 → AppSecret). Never logged.'),
  mode: s
    .enum(['websocket', 'webhook'] as const)
    .default('websocket')
    .describe(
      'How events arrive: websocket (the gateway; no public address needed) or webhook (QQ POSTs them, signed with ed25519, to webhook.path on webhook.host:webhook.port — the 回调地址 set in the console).',
    ),
  webhook: s.object({
    host: s.string().default('127.0.0.1').describe('Where the webhook server listens (0.0.0.0 for every interface).'),
    port: s
      .number()
      .integer()
      .min(0)
      .max(65_535)
      .default(8_423)
      .describe('The webhook server’s port (0: any free port).'),
    path: s.string().default('/qq/callback').describe('The callback URL’s path.'),
    maxBodyBytes: callbackBodyField(),
  }),
  sandbox: s
    .boolean()
    .default(false)
    .describe('Use the sandbox API (sandbox.api.sgroup.qq.com) the developer console offers for testing.'),
  apiBase: s
    .string()
    .default('')
    .describe(
      'The OpenAPI address; empty: https://api.sgroup.qq.com (or the sandbox). The gateway address is asked from <apiBase>/gateway.',
    ),
  tokenUrl: s
    .string()
    .default('https://bots.qq.com/app/getAppAccessToken')
    .describe('Where the access token is fetched (AppID + AppSecret).'),
  retryDelayMs: retryDelayField('reconnecting the gateway'),
  apiTimeoutMs: apiTimeoutField(),
  maxMessageLength: maxMessageLengthField({
    max: 5_000,
    byDefault: 2_000,
    limit: 'each uses one of a message’s passive replies',
  }),
  markdown: s
    .boolean()
    .default(false)
    .describe(
      'Send replies as QQ Markdown (msg_type 2; the bot needs the Markdown permission); plain text when QQ refuses it.',
    ),
  ...roomLimitsShape(),
});

export type QqConfig = Infer<typeof qqConfigSchema>;

/** Whether the section names a bot (the runtime enables the plugin only then). */
export function qqConfigured(section: unknown): boolean {
  return sectionHasText(section, 'appId');
}
