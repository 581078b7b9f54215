// @aalis/plugin-platform-dingtalk: DingTalk robots in Stream mode — group @ and single chats.
export { DingtalkApi } from './dingtalk-api.js';
export { dingtalkConfigSchema, dingtalkConfigured } from './dingtalk-config.js';
export { dingtalkErrors } from './dingtalk-errors.js';
export { readDingtalkMessage } from './dingtalk-inbound.js';
export { DINGTALK_PLATFORM, default, markdownTitle } from './dingtalk-platform.js';
export { StreamConnection, TOPIC_ROBOT } from './dingtalk-stream-connection.js';
