// @aalis/plugin-platform-onebot: QQ through OneBot v11 (NapCat, Lagrange, go-cqhttp).
export { type OneBotConfig, onebotConfigSchema, onebotConfigured } from './onebot-config.js';
export { OneBotConnection, type OneBotConnectionOptions, redactUrl } from './onebot-connection.js';
export { onebotErrors } from './onebot-errors.js';
export { default, ONEBOT_PLATFORM } from './onebot-platform.js';
export { buildSegments, type ParsedMessage, parseSegments, type Segment, toSegments } from './onebot-segments.js';
