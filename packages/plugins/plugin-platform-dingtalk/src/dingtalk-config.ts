// The config section `plugins.platform-dingtalk`: a light module (the runtime validates and documents it without
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

export const dingtalkConfigSchema = s.object({
  clientId: s
    .string()
    .default('')
    .describe('The app’s Client ID (AppKey), 钉钉开放平台 → 应用开发 → 凭证与基础信息. Empty: not connected.'),
  clientSecret: s
    .string()
    .default('')
    .widget('password')
    .describe('The app’s Client Secret (AppSecret). Never logged.'),
  robotCode: s
    .string()
    .default('')
    .describe(
      'The robot’s RobotCode for sending through the API; empty: the Client ID (what DingTalk uses by default).',
    ),
  gatewayUrl: s
    .string()
    .default('https://api.dingtalk.com/v1.0/gateway/connections/open')
    .describe('Where the Stream connection is opened (the endpoint and ticket of the socket come from here).'),
  apiBase: s
    .string()
    .default('https://api.dingtalk.com')
    .describe('The DingTalk OpenAPI (access tokens, sending when a session webhook has expired, file downloads).'),
  oapiBase: s
    .string()
    .default('https://oapi.dingtalk.com')
    .describe('DingTalk’s older API, where voice replies are uploaded (media/upload) before they are sent.'),
  retryDelayMs: retryDelayField('reconnecting the Stream socket'),
  pingIntervalMs: pingIntervalField(),
  apiTimeoutMs: apiTimeoutField(),
  maxMessageLength: maxMessageLengthField({ max: 20_000, byDefault: 4_000 }),
  markdown: s
    .boolean()
    .default(true)
    .describe('Send replies as DingTalk Markdown (plain text when DingTalk refuses it).'),
  ...roomLimitsShape(),
});

export type DingtalkConfig = Infer<typeof dingtalkConfigSchema>;

/** Whether the section names an app (the runtime enables the plugin only then). */
export function dingtalkConfigured(section: unknown): boolean {
  return sectionHasText(section, 'clientId');
}
