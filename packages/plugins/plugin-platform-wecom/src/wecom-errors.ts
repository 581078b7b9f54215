// Coded errors of the WeCom adapter. None of them ever carries the Token or the EncodingAESKey.
import { defineErrors } from '@aalis/core';

export const wecomErrors = defineErrors({
  AALIS_WECOM_SIGNATURE_INVALID: {
    en: 'A WeCom callback had an invalid msg_signature and was refused ({what}). If it came from WeCom, plugins.platform-wecom.token differs from the Token on the bot’s API page.',
    'zh-CN':
      '一次企业微信回调的 msg_signature 不对，已拒绝（{what}）。如果它确实来自企业微信，说明 plugins.platform-wecom.token 与机器人 API 页面上的 Token 不一致。',
  },
  AALIS_WECOM_DECRYPT_FAILED: {
    en: 'A WeCom callback could not be decrypted ({reason}). Check that plugins.platform-wecom.encodingAESKey is the EncodingAESKey of the bot’s API page.',
    'zh-CN':
      '一次企业微信回调无法解密（{reason}）。请确认 plugins.platform-wecom.encodingAESKey 就是机器人 API 页面上的 EncodingAESKey。',
  },
  AALIS_WECOM_EVENT_MALFORMED: {
    en: 'A WeCom callback was malformed and was skipped: {reason}',
    'zh-CN': '一次企业微信回调格式不对，已跳过：{reason}',
  },
  AALIS_WECOM_EVENT_UNKNOWN: {
    en: 'A WeCom callback of unknown type {type} was answered with nothing.',
    'zh-CN': '一次类型未知（{type}）的企业微信回调，未作回复。',
  },
  AALIS_WECOM_BODY_TOO_LARGE: {
    en: 'A WeCom callback body is larger than {limit} bytes (plugins.platform-wecom.maxBodyBytes) and was refused.',
    'zh-CN': '一次企业微信回调的内容超过 {limit} 字节（plugins.platform-wecom.maxBodyBytes），已拒绝。',
  },
  AALIS_WECOM_SEND_FAILED: {
    en: 'The reply could not be sent to WeCom: {reason}',
    'zh-CN': '回复没能发到企业微信：{reason}',
  },
  AALIS_WECOM_LISTEN_FAILED: {
    en: 'The WeCom callback server could not listen on {address}: {reason}. Set plugins.platform-wecom.host and port to a free address.',
    'zh-CN': '企业微信回调服务无法监听 {address}：{reason}。请把 plugins.platform-wecom.host 和 port 设成空闲的地址。',
  },
});
