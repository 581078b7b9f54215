// The coded errors of the message archive. Codes are never reused.
import { defineErrors } from '@aalis/core';

export const archiveErrors = defineErrors({
  AALIS_ARCHIVE_IDLE_INPUT: {
    en: 'An idle input (triggerType "idle") of session "{sessionId}" is never archived: the idle prompt is shown to the model for one turn only. Do not call archiveIncoming for it.',
    'zh-CN':
      '会话「{sessionId}」的空闲开话题输入（triggerType 为 idle）不落档：空闲提示只在这一轮给模型看。不要对它调用 archiveIncoming。',
  },
  AALIS_ARCHIVE_INPUT_INVALID: {
    en: 'archiveIncoming: field "{field}" of the input expected {expected}, received {received}. Nothing was archived; fix the input.',
    'zh-CN': 'archiveIncoming：输入的字段「{field}」应为 {expected}，实际为 {received}。没有归档；请改正这条输入。',
  },
  AALIS_ARCHIVE_TIME_ZONE_INVALID: {
    en: 'Time zone "{timeZone}" is not an IANA time zone this runtime knows (e.g. "UTC", "Asia/Shanghai", "Europe/Berlin"). Set a valid timeZone.',
    'zh-CN':
      '时区「{timeZone}」不是本运行环境认识的 IANA 时区（如 "UTC"、"Asia/Shanghai"、"Europe/Berlin"）。请设一个有效的 timeZone。',
  },
});
