// The config section `plugins.platform-wecom`: a light module (the runtime validates and documents it without
// loading the plugin).
import { type Infer, s } from '@aalis/core';
import { sectionHasText } from '@aalis/platform-room/room-config';
import { apiTimeoutField, callbackBodyField } from '@aalis/platform-room/room-config-fields';
import { roomLimitsShape } from '@aalis/platform-room/room-limits-schema';

export const wecomConfigSchema = s.object({
  token: s
    .string()
    .default('')
    .widget('password')
    .describe(
      'The callback Token set on the bot’s API page (企业微信管理后台 → 智能机器人 → API 模式). Empty: not listening. Never logged.',
    ),
  encodingAESKey: s
    .string()
    .default('')
    .widget('password')
    .describe('The callback EncodingAESKey (43 characters) set beside the Token. Never logged.'),
  host: s.string().default('127.0.0.1').describe('Where the callback server listens (0.0.0.0 for every interface).'),
  port: s
    .number()
    .integer()
    .min(0)
    .max(65_535)
    .default(8_422)
    .describe('The callback server’s port (0: any free port, said in the log).'),
  path: s.string().default('/wecom/callback').describe('The callback URL’s path (the URL set in the console).'),
  streamWindowMs: s
    .number()
    .integer()
    .min(1_000)
    .default(330_000)
    .describe(
      'How long after a message WeCom keeps asking for its stream reply (about 6 minutes); a reply later than this goes through the message’s response_url.',
    ),
  apiTimeoutMs: apiTimeoutField('response_url call'),
  maxMessageLength: s
    .number()
    .integer()
    .min(100)
    .max(6_000)
    .default(6_000)
    .describe('The longest stream reply (WeCom takes 20480 bytes); the rest follows through the response_url.'),
  maxBodyBytes: callbackBodyField(),
  ...roomLimitsShape(),
});

export type WecomConfig = Infer<typeof wecomConfigSchema>;

/** Whether the section names a bot (the runtime enables the plugin only then). */
export function wecomConfigured(section: unknown): boolean {
  return sectionHasText(section, 'token');
}
