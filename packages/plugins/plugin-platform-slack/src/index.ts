// @aalis/plugin-platform-slack: Slack through Socket Mode and the Web API.
export { slackConfigSchema, slackConfigured } from './slack-config.js';
export { slackErrors } from './slack-errors.js';
export { markdownToMrkdwn, plainMrkdwn, readSlackText } from './slack-mrkdwn.js';
export { default, SLACK_PLATFORM, slackChatId, splitSlackChatId } from './slack-platform.js';
