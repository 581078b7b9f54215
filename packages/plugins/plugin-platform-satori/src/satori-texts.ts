// Coded errors of the Satori adapter.
import { defineErrors } from '@aalis/core';

export const satoriErrors = defineErrors({
  AALIS_SATORI_API_FAILED: {
    en: 'The Satori server answered {method} with {status}: {reason}',
    'zh-CN': 'Satori 服务器对 {method} 的回应是 {status}：{reason}',
  },
  AALIS_SATORI_TOKEN_REJECTED: {
    en: 'The Satori server refused the token (plugins.platform-satori.token): {reason}. Set the token the Satori server expects.',
    'zh-CN': 'Satori 服务器拒绝了令牌（plugins.platform-satori.token）：{reason}。请改成 Satori 服务器要求的令牌。',
  },
  AALIS_SATORI_UNREACHABLE: {
    en: 'Cannot reach the Satori server at {endpoint}: {reason}. It is retried; check that it runs and plugins.platform-satori.endpoint points at it.',
    'zh-CN':
      '连不上 Satori 服务器（{endpoint}）：{reason}。会重试；请确认它在运行，并且 plugins.platform-satori.endpoint 指向它。',
    isRetryable: true,
  },
  AALIS_SATORI_CONNECTION_LOST: {
    en: 'The event socket of the Satori server at {endpoint} closed; reconnecting.',
    'zh-CN': 'Satori 服务器（{endpoint}）的事件连接断开了，正在重连。',
    isRetryable: true,
  },
  AALIS_SATORI_ENDPOINT_MISSING: {
    en: 'No Satori endpoint is set: nothing is connected. Set plugins.platform-satori.endpoint to the Satori server’s address (e.g. http://127.0.0.1:5140/satori/v1).',
    'zh-CN':
      '没有设置 Satori 地址，不会连接。请把 plugins.platform-satori.endpoint 设成 Satori 服务器的地址（例如 http://127.0.0.1:5140/satori/v1）。',
  },
  AALIS_SATORI_EVENT_MALFORMED: {
    en: 'A Satori event was malformed and was skipped: {reason}',
    'zh-CN': '一条 Satori 事件格式不对，已跳过：{reason}',
  },
});
