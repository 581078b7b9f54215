// Coded errors of the gateway.
import { defineErrors } from '@aalis/core';

export const gatewayErrors = defineErrors({
  AALIS_GATEWAY_MESSAGE_INVALID: {
    en: 'Inbound message rejected: field "{field}" expected {expected}, received {received}. The platform plugin must fill it in before calling gateway.receive.',
    'zh-CN':
      '入站消息被拒：字段「{field}」应为 {expected}，实际为 {received}。平台插件应在调用 gateway.receive 之前填好它。',
  },
  AALIS_GATEWAY_PHASE_FAILED: {
    en: 'Inbound message #{arrival} (session {sessionId}) failed in phase {phase}: {reason}. The message was not processed further.',
    'zh-CN': '入站消息 #{arrival}（会话 {sessionId}）在 {phase} 相位出错：{reason}。这条消息没有继续处理。',
  },
  AALIS_GATEWAY_OUTBOUND_INVALID: {
    en: 'Outbound message rejected: field "{field}" expected {expected}, received {received}.',
    'zh-CN': '出站消息被拒：字段「{field}」应为 {expected}，实际为 {received}。',
  },
});
