// The coded errors of the memory service. Codes are never reused.
import { defineErrors } from '@aalis/core';

export const memoryErrors = defineErrors({
  AALIS_MEMORY_MESSAGE_INVALID: {
    en: 'Message {index} appended to session "{sessionId}": field "{field}" expected {expected}, received {received}. Nothing was written; fix that message and append the batch again.',
    'zh-CN':
      '追加到会话「{sessionId}」的第 {index} 条消息：字段「{field}」应为 {expected}，实际为 {received}。这一批一条也没有写入；请改正这条消息后重新追加。',
  },
  AALIS_MEMORY_ARGUMENT_INVALID: {
    en: 'memory.{operation}: {argument} expected {expected}, received {received}. Pass a valid value.',
    'zh-CN': 'memory.{operation}：参数 {argument} 应为 {expected}，实际为 {received}。请传入合法的值。',
  },
});
