// Texts of plugin-memory-summary: the session field, the summary prompt, the prompt block header and /compact.
import { defineCatalogue } from '@aalis/core';

export const summaryTexts = defineCatalogue({
  'zh-CN': {
    'memorySummary.field.autoCompactRatio': '自动压缩线',
    'memorySummary.field.autoCompactRatio.description':
      '这一轮最后一次调用的上下文用量比例达到这条线（或经过了硬裁剪，或下一轮的硬裁剪就要丢历史）时，回合结束后把活跃历史压缩成摘要。0 表示不自动压缩。',
    'memorySummary.field.autoCompactRatio.range': '0 到 1 之间的数（0 表示关闭）',
    'memorySummary.header': '[对话摘要]',
    'memorySummary.prompt.system':
      '你负责压缩一段对话的历史：写一份摘要，取代这段历史，供之后的对话接着用。必须保留：用户的目标与要求；已经做出的决定及其理由；约束与偏好（含人名、时间、数字、文件名、链接等关键细节）；尚未完成的工作与下一步。给了此前的摘要时，把它与新的对话记录合并成一份完整的摘要：其中仍然有效的内容不要丢，被推翻的以新的为准。只输出摘要正文，不寒暄、不评论，不编造记录里没有的内容；用对话所用的语言书写，尽量精简。',
    'memorySummary.prompt.previous': '此前的摘要：',
    'memorySummary.prompt.transcript': '新的对话记录：',
    'memorySummary.prompt.pause':
      '对话在这里暂停。接下来不要接着对话，也不要调用工具，而是给到目前为止的对话写一份摘要：上面的对话，加上下面附的、上面没有显示的消息。上面对回复格式的要求（如 JSON 信封）这里不适用，用纯文本写。要求如下。',
    'memorySummary.prompt.previousShown': '上面开头的「{header}」块就是此前的摘要。',
    'memorySummary.prompt.earlier': '更早的、上面没有显示的对话记录：',
    'memorySummary.prompt.later': '上面之后的对话记录：',
    'memorySummary.role.user': '用户',
    'memorySummary.role.assistant': '助手',
    'memorySummary.role.system': '系统',
    'memorySummary.role.tool': '工具 {name}',
    'memorySummary.calls': '调用 {calls}',
    'memorySummary.attachments': '附件 {count} 个',
    'memorySummary.command.compact': '把本会话的活跃历史立即压缩成摘要',
    'memorySummary.command.compacted': '已压缩 {count} 条消息，摘要 {chars} 字。',
    'memorySummary.command.empty': '没有可压缩的消息。',
    'memorySummary.command.busy': '本会话已有一次压缩在进行。',
    'memorySummary.command.changed': '压缩期间会话历史变了，这次没有压缩；稍后再试。',
    'memorySummary.command.cancelled': '压缩被取消了（会话被清空或插件停用）。',
    'memorySummary.command.failed': '压缩失败：{reason}',
  },
  en: {
    'memorySummary.field.autoCompactRatio': 'Auto-compaction line',
    'memorySummary.field.autoCompactRatio.description':
      'When the last call of a turn uses at least this share of the context window (or was hard-trimmed, or the next turn’s trimming would start dropping history), the active history is compacted into a summary after the turn. 0 = no automatic compaction.',
    'memorySummary.field.autoCompactRatio.range': 'a number from 0 to 1 (0 = off)',
    'memorySummary.header': '[Conversation summary]',
    'memorySummary.prompt.system':
      'You compact the history of a conversation: write a summary that replaces it and lets the conversation go on. Keep: the user’s goals and requests; decisions made and why; constraints and preferences (with key details such as names, dates, numbers, file names, links); unfinished work and next steps. When a previous summary is given, merge it with the new transcript into one complete summary: keep what still holds, and let newer content win where it was overturned. Output only the summary text: no greeting, no comments, nothing the transcript does not say; write in the language of the conversation, and keep it short.',
    'memorySummary.prompt.previous': 'Previous summary:',
    'memorySummary.prompt.transcript': 'New transcript:',
    'memorySummary.prompt.pause':
      'The conversation pauses here. Do not continue it and do not call tools: write a summary of the conversation so far instead — the conversation above plus the messages below that it does not show. Any reply format required above (such as a JSON envelope) does not apply here: write plain text. The rules follow.',
    'memorySummary.prompt.previousShown': 'The 「{header}」 block at the start above is the previous summary.',
    'memorySummary.prompt.earlier': 'Earlier transcript, not shown above:',
    'memorySummary.prompt.later': 'Transcript after the conversation above:',
    'memorySummary.role.user': 'User',
    'memorySummary.role.assistant': 'Assistant',
    'memorySummary.role.system': 'System',
    'memorySummary.role.tool': 'Tool {name}',
    'memorySummary.calls': 'calls {calls}',
    'memorySummary.attachments': '{count, plural, one {# attachment} other {# attachments}}',
    'memorySummary.command.compact': 'Compact this session’s active history into a summary now',
    'memorySummary.command.compacted':
      'Compacted {count, plural, one {# message} other {# messages}} into a summary of {chars, plural, one {# character} other {# characters}}.',
    'memorySummary.command.empty': 'There is nothing to compact.',
    'memorySummary.command.busy': 'A compaction of this session is already running.',
    'memorySummary.command.changed':
      'The history changed during the compaction, so nothing was compacted; try again shortly.',
    'memorySummary.command.cancelled': 'The compaction was cancelled (the session was cleared or the plugin stopped).',
    'memorySummary.command.failed': 'Compaction failed: {reason}',
  },
});
