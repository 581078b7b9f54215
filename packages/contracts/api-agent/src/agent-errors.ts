// Coded errors of the orchestration contract.
import { defineErrors } from '@aalis/core';

export const agentErrors = defineErrors({
  AALIS_AGENT_CONTEXT_OVERFLOW: {
    en: 'This request does not fit the model context window: messages and tool definitions take about {prompt} tokens of {window}, leaving {room} for the reply (at least {minimum} needed). Shorten the message, enable fewer tool groups (session setting enabledToolGroups), or use a model with a larger window.',
    'zh-CN':
      '这次请求放不进模型的上下文窗口：消息与工具定义约占 {prompt} / {window} token，留给回复的只有 {room}（至少要 {minimum}）。请缩短这条消息、少启用几个工具分组（会话设置 enabledToolGroups），或换上下文更大的模型。',
  },
  AALIS_AGENT_TOOL_LIMIT_NO_ANSWER: {
    en: 'This turn reached its tool-call limit ({limit}) and the model still answered with tool calls only ({tools}), no text; those calls were not run. The tool results so far stay in the conversation: send "continue" to let it go on, or raise the session setting maxToolIterations.',
    'zh-CN':
      '本轮工具调用次数已达上限（{limit} 次），模型仍只回了工具调用（{tools}），没有给出回答；这些调用没有执行。已有的工具结果留在对话里：发一句「继续」让它接着做，或调高会话设置「最大工具迭代」（maxToolIterations）。',
  },
  AALIS_AGENT_INPUT_NOT_STORED: {
    en: 'The message to session {sessionId} could not be stored ({reason}), so it was not accepted and nothing will answer it. Send it again once the host can write its database (free disk space, or bring the database server back).',
    'zh-CN':
      '发往会话 {sessionId} 的消息没能存下（{reason}），所以没有收下，也不会有回复。等主机能写数据库后（腾出磁盘空间，或让数据库服务器恢复）再发一次。',
  },
});
