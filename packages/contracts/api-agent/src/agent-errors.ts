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
  AALIS_AGENT_TURN_NOT_STORED: {
    en: 'Turn {turnId} of session {sessionId} ended, but its reply or its record could not be stored: the database refused every write for {seconds} s of retries ({reason}). Nothing of it was sent. Make the database writable again (free disk space, or bring the database server back) and ask again.',
    'zh-CN':
      '会话 {sessionId} 的轮次 {turnId} 已结束，但它的回复或记录没能存下：重试了 {seconds} 秒，数据库一直写不进去（{reason}）。它没有发出去。请让数据库恢复可写（腾出磁盘空间，或让数据库服务器恢复）后再问一次。',
  },
  AALIS_AGENT_TURN_NOT_HELD: {
    en: 'Turn {turnId} of session {sessionId} ended while the database refused writes ({reason}), and the replies already waiting to be stored fill the {limit} bytes kept for them, so this one ({bytes} bytes) was not kept. Nothing of it was sent. Make the database writable again (free disk space, or bring the database server back) and ask again.',
    'zh-CN':
      '会话 {sessionId} 的轮次 {turnId} 结束时数据库写不进去（{reason}），而等着存下的回复已占满为它们留的 {limit} 字节，所以这一条（{bytes} 字节）没有留住。它没有发出去。请让数据库恢复可写（腾出磁盘空间，或让数据库服务器恢复）后再问一次。',
  },
  AALIS_AGENT_TURN_NOT_STORED_AT_STOP: {
    en: 'The host stopped while turn {turnId} of session {sessionId} waited for the database to store its reply or its record ({reason}); nothing of it was stored or sent. Ask again once the host is back.',
    'zh-CN':
      '主机停止时，会话 {sessionId} 的轮次 {turnId} 还在等数据库存下它的回复或记录（{reason}）；它什么也没存下，也没有发出去。主机恢复后请再问一次。',
  },
});
