// Coded errors of the Feishu/Lark adapter (what went wrong, and how to fix it, in the reader's language).
import { defineErrors } from '@aalis/core';

export const larkErrors = defineErrors({
  AALIS_LARK_API_FAILED: {
    en: 'Feishu/Lark answered {method} with {reason}',
    'zh-CN': '飞书/Lark 对 {method} 的回应是：{reason}',
  },
  AALIS_LARK_CREDENTIALS_REJECTED: {
    en: 'Feishu/Lark refused the app’s credentials (plugins.platform-lark.appId and appSecret): {reason}. Copy them again from the developer console’s “Credentials & Basic Info”, and check domain (feishu or lark).',
    'zh-CN':
      '飞书/Lark 拒绝了应用凭证（plugins.platform-lark.appId 和 appSecret）：{reason}。请到开发者后台的「凭证与基础信息」重新复制，并检查 domain（feishu 或 lark）。',
  },
  AALIS_LARK_APP_ID_INVALID: {
    en: 'plugins.platform-lark.appId “{appId}” is not an App ID: it looks like cli_ followed by 16 hexadecimal digits.',
    'zh-CN': 'plugins.platform-lark.appId「{appId}」不是 App ID：它的样子是 cli_ 后跟 16 位十六进制数字。',
  },
  AALIS_LARK_EVENT_MALFORMED: {
    en: 'A Feishu/Lark event was malformed and was skipped: {reason}',
    'zh-CN': '一条飞书/Lark 事件格式不对，已跳过：{reason}',
  },
});
