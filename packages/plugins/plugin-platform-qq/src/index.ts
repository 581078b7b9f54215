// @aalis/plugin-platform-qq: QQ's official bots (QQ Open Platform bot API v2) — group @ messages and C2C chats.
export { QqApi } from './qq-api.js';
export { qqConfigSchema, qqConfigured } from './qq-config.js';
export { qqErrors } from './qq-errors.js';
export { readQqMessage } from './qq-inbound.js';
export { PASSIVE_REPLIES_PER_MESSAGE, PASSIVE_WINDOW_MS, PassiveReplies } from './qq-passive-replies.js';
export { default, QQ_INTENTS, QQ_PLATFORM, QqOpcode } from './qq-platform.js';
