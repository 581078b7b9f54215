// The model-visible fixed texts of context trimming, in zh-CN (the specification's wording, kept byte for byte)
// and en. Plain data shaped like @aalis/core's MessageCatalogue, so the agent can register it with defineCatalogue.

export const contextBudgetMessages = {
  'zh-CN': {
    /** Inserted after this turn's last input when a trim went through step 4 and removed six or more messages. */
    'context.continuationPrompt':
      '[系统提示] 由于上下文长度限制,部分历史消息已被压缩或移除。请基于当前可见的上下文和最新用户请求继续完成任务,不要因为看不到之前的细节而停止工作。如果你之前有正在执行的多步骤任务或计划,请查看对话摘要和 todo-list 工具确认当前进度,然后继续未完成的步骤。',
    /** One line per call of a compacted earlier tool-call group (step 2). */
    'context.toolCallSummary': '[历史工具调用] {name} → {result}',
  },
  en: {
    'context.continuationPrompt':
      '[System notice] Because of the context length limit, some earlier messages have been compressed or removed. Please continue the task based on the context you can currently see and the latest user request; do not stop working because you cannot see earlier details. If you were in the middle of a multi-step task or plan, check the conversation summary and the todo-list tool to confirm the current progress, then continue with the unfinished steps.',
    'context.toolCallSummary': '[Earlier tool call] {name} → {result}',
  },
} as const;

/** The continuation prompt trimMessages inserts by default (zh-CN). */
export const DEFAULT_CONTINUATION_PROMPT: string = contextBudgetMessages['zh-CN']['context.continuationPrompt'];
/** The compaction line trimMessages writes by default (zh-CN); `{name}` and `{result}` are filled in. */
export const DEFAULT_TOOL_CALL_SUMMARY: string = contextBudgetMessages['zh-CN']['context.toolCallSummary'];
