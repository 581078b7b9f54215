// Coded errors of the Slack adapter (what went wrong, and how to fix it, in the reader's language).
import { defineErrors } from '@aalis/core';

export const slackErrors = defineErrors({
  AALIS_SLACK_API_FAILED: {
    en: 'Slack answered {method} with {reason}',
    'zh-CN': 'Slack 对 {method} 的回应是：{reason}',
  },
  AALIS_SLACK_TOKEN_REJECTED: {
    en: 'Slack refused the token in {key}: {reason}. Copy the token again from the app’s page at api.slack.com/apps.',
    'zh-CN': 'Slack 拒绝了 {key} 中的令牌：{reason}。请到 api.slack.com/apps 的应用页面重新复制令牌。',
  },
  AALIS_SLACK_EVENT_MALFORMED: {
    en: 'A Slack event was malformed and was skipped: {reason}',
    'zh-CN': '一条 Slack 事件格式不对，已跳过：{reason}',
  },
});
