// The config section `plugins.platform-lark`: a light module (the runtime validates and documents it without loading
// the plugin or the Feishu/Lark SDK).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { apiTimeoutField, maxMessageLengthField } from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const larkConfigSchema = s.object({
  appId: s
    .string()
    .default('')
    .describe('The app’s App ID (cli_…) from the developer console’s “Credentials & Basic Info” (凭证与基础信息).'),
  appSecret: s
    .string()
    .widget('password')
    .default('')
    .describe('The app’s App Secret from the same page. Never logged.'),
  domain: s
    .string()
    .nonEmpty()
    .default('feishu')
    .describe(
      'Which service: feishu (open.feishu.cn, Feishu in mainland China), lark (open.larksuite.com, Lark elsewhere), or the base URL of another one.',
    ),
  replyAs: s
    .enum(['post', 'card', 'text'])
    .default('post')
    .describe(
      'How her replies are sent: post (rich text with a Markdown element), card (an interactive card with a Markdown element) or text (plain). A reply the server refuses as rich text or card is sent again as plain text.',
    ),
  pingTimeoutSeconds: s
    .number()
    .integer()
    .min(0)
    .default(30)
    .describe(
      'After each ping of the long connection (at the interval the server asks for), the connection is reconnected when nothing comes back within this many seconds (0: never).',
    ),
  handshakeTimeoutMs: s
    .number()
    .integer()
    .min(1_000)
    .default(15_000)
    .describe('How long opening the long connection may take before it is tried again.'),
  apiTimeoutMs: apiTimeoutField(),
  maxRateLimitRetries: s
    .number()
    .integer()
    .min(0)
    .max(10)
    .default(3)
    .describe(
      'How often an API call refused for its rate (HTTP 429 or code 99991400) is tried again, after the wait the server names (x-ogw-ratelimit-reset).',
    ),
  maxMessageLength: maxMessageLengthField({
    max: 30_000,
    byDefault: 4_000,
    limit: 'rich text messages may hold at most 30 KB',
  }),
  ...roomLimitsShape(),
});

export type LarkConfig = Infer<typeof larkConfigSchema>;

/** Whether the section names an app (the runtime enables the plugin only then). */
export function larkConfigured(section: unknown): boolean {
  return sectionHasText(section, 'appId', 'appSecret');
}
