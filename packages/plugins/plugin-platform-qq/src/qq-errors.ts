// Coded errors of the QQ official bot adapter. None of them ever carries the AppSecret or an access token.
import { defineErrors } from '@aalis/core';

export const qqErrors = defineErrors({
  AALIS_QQ_API_FAILED: {
    en: 'The QQ bot API answered {method} {path} with {status}: {reason}',
    'zh-CN': 'QQ 机器人接口对 {method} {path} 的回应是 {status}：{reason}',
  },
  AALIS_QQ_UNREACHABLE: {
    en: 'The QQ bot API could not be reached ({what}): {reason}. It is retried; check plugins.platform-qq.apiBase and the network.',
    'zh-CN': '连不上 QQ 机器人接口（{what}）：{reason}。会重试；请检查 plugins.platform-qq.apiBase 与网络。',
    isRetryable: true,
  },
  AALIS_QQ_CREDENTIALS_REJECTED: {
    en: 'QQ refused the bot’s credentials: {reason}. Set plugins.platform-qq.appId and plugins.platform-qq.clientSecret to the AppID and AppSecret of 开发设置 in the QQ Open Platform console.',
    'zh-CN':
      'QQ 不接受机器人的凭据：{reason}。请把 plugins.platform-qq.appId 和 plugins.platform-qq.clientSecret 设成 QQ 开放平台「开发设置」里的 AppID 和 AppSecret。',
  },
  AALIS_QQ_EVENT_MALFORMED: {
    en: 'A QQ gateway event was malformed and was skipped: {reason}',
    'zh-CN': '一条 QQ 网关事件格式不对，已跳过：{reason}',
  },
  AALIS_QQ_EVENT_UNKNOWN: {
    en: 'A QQ gateway event of unknown type {type} was skipped.',
    'zh-CN': '跳过了一条类型未知（{type}）的 QQ 网关事件。',
  },
  AALIS_QQ_SIGNATURE_INVALID: {
    en: 'A QQ webhook callback had no valid ed25519 signature and was refused. If it came from QQ, plugins.platform-qq.clientSecret is not this bot’s AppSecret.',
    'zh-CN':
      '一次 QQ Webhook 回调没有有效的 ed25519 签名，已拒绝。如果它确实来自 QQ，说明 plugins.platform-qq.clientSecret 不是这个机器人的 AppSecret。',
  },
  AALIS_QQ_LISTEN_FAILED: {
    en: 'The QQ webhook server could not listen on {address}: {reason}. Set plugins.platform-qq.webhook.host and port to a free address.',
    'zh-CN':
      'QQ Webhook 服务无法监听 {address}：{reason}。请把 plugins.platform-qq.webhook.host 和 port 设成空闲的地址。',
  },
  AALIS_QQ_MESSAGE_TOO_LARGE: {
    en: 'A QQ gateway frame of {size} bytes exceeds the limit of {limit} and was skipped.',
    'zh-CN': '一条 {size} 字节的 QQ 网关帧超过上限 {limit}，已跳过。',
  },
});
