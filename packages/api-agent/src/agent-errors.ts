// Coded errors of the orchestration contract.
import { defineErrors } from '@aalis/core';

export const agentErrors = defineErrors({
  AALIS_AGENT_CONTEXT_OVERFLOW: {
    en: 'This request does not fit the model context window: messages and tool definitions take about {prompt} tokens of {window}, leaving {room} for the reply (at least {minimum} needed). Shorten the message, enable fewer tool groups (session setting enabledToolGroups), or use a model with a larger window.',
    'zh-CN':
      '这次请求放不进模型的上下文窗口:消息与工具定义约占 {prompt} / {window} token,留给回复的只有 {room}(至少要 {minimum})。请缩短这条消息、少启用几个工具分组(会话设置 enabledToolGroups),或换上下文更大的模型。',
  },
});
