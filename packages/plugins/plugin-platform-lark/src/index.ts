// @aalis/plugin-platform-lark: Feishu and Lark through the long connection and the OpenAPI.
export { larkConfigSchema, larkConfigured } from './lark-config.js';
export { type LarkMention, type LarkResource, readLarkContent, writeLarkContent } from './lark-content.js';
export { larkErrors } from './lark-errors.js';
export { default, LARK_PLATFORM, larkChatId, larkDomain, splitLarkChatId } from './lark-platform.js';
