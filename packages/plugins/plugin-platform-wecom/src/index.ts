// @aalis/plugin-platform-wecom: WeCom intelligent bots through their encrypted callback — group @ and single chats.
export { wecomConfigSchema, wecomConfigured } from './wecom-config.js';
export { type SealedReply, WecomCrypto } from './wecom-crypto.js';
export { wecomErrors } from './wecom-errors.js';
export { readWecomMessage } from './wecom-inbound.js';
export { default, WECOM_PLATFORM } from './wecom-platform.js';
export { WecomStreams } from './wecom-streams.js';
