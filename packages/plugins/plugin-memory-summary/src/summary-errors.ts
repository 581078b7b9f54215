// Coded failures of a compaction. They are logged (automatic compaction) or replied (/compact), never thrown into
// a turn.
import { defineErrors } from '@aalis/core';

export const summaryErrors = defineErrors({
  AALIS_SUMMARY_NO_MODEL: {
    en: 'No model is available to summarise session {sessionId}. Register an llm provider, or set `model` in the config of @aalis/plugin-memory-summary.',
    'zh-CN':
      '没有可用的模型来给会话 {sessionId} 写摘要。请接入一个 llm 服务提供者，或在 @aalis/plugin-memory-summary 的配置里设置 model。',
  },
  AALIS_SUMMARY_EMPTY: {
    en: 'Model {model} wrote no summary for session {sessionId}; the history was left as it is. Try again, or choose another model with `model` in the config.',
    'zh-CN': '模型 {model} 没有给会话 {sessionId} 写出摘要，历史保持原样。请重试，或在配置的 model 里换一个模型。',
    isRetryable: true,
  },
});
