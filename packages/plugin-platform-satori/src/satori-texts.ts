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
  AALIS_SATORI_EVENT_MALFORMED: {
    en: 'A Satori event was malformed and was skipped: {reason}',
    'zh-CN': '一条 Satori 事件格式不对，已跳过：{reason}',
  },
});
