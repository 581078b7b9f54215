// Coded errors of the DingTalk adapter. None of them ever carries the Client Secret, an access token or a ticket.
import { defineErrors } from '@aalis/core';

export const dingtalkErrors = defineErrors({
  AALIS_DINGTALK_API_FAILED: {
    en: 'DingTalk answered {what} with {status}: {reason}',
    'zh-CN': '钉钉对 {what} 的回应是 {status}：{reason}',
  },
  AALIS_DINGTALK_UNREACHABLE: {
    en: 'DingTalk could not be reached ({what}): {reason}. It is retried; check plugins.platform-dingtalk.gatewayUrl, apiBase and the network.',
    'zh-CN': '连不上钉钉（{what}）：{reason}。会重试；请检查 plugins.platform-dingtalk.gatewayUrl、apiBase 与网络。',
    isRetryable: true,
  },
  AALIS_DINGTALK_CREDENTIALS_REJECTED: {
    en: 'DingTalk refused the app’s credentials: {reason}. Set plugins.platform-dingtalk.clientId and plugins.platform-dingtalk.clientSecret to the Client ID and Client Secret of 凭证与基础信息 in the DingTalk developer console.',
    'zh-CN':
      '钉钉不接受应用凭据：{reason}。请把 plugins.platform-dingtalk.clientId 和 plugins.platform-dingtalk.clientSecret 设成钉钉开放平台「凭证与基础信息」里的 Client ID 和 Client Secret。',
  },
  AALIS_DINGTALK_EVENT_MALFORMED: {
    en: 'A DingTalk Stream message was malformed and was skipped: {reason}',
    'zh-CN': '一条钉钉 Stream 消息格式不对，已跳过：{reason}',
  },
  AALIS_DINGTALK_EVENT_UNKNOWN: {
    en: 'A DingTalk Stream message of unknown type {type} was acknowledged and skipped.',
    'zh-CN': '一条类型未知（{type}）的钉钉 Stream 消息已确认并跳过。',
  },
});
