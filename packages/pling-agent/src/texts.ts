// Every fixed text the runtime sends to the model or shows in the event list, in zh-CN (the specification's
// wording) and en.

export type Locale = 'zh-CN' | 'en';

export interface RuntimeTexts {
  /** The framework's rules, first in every system prompt. */
  baseRules: string;
  /** Heading of the summary section inside the system prompt. */
  summaryHeading: string;
  /** System prompt of the summarising request. */
  summaryPrompt: string;
  /** Introduces the earlier summary inside the summarising request. */
  previousSummary: string;
  maxTurnsNotice: (maxTurns: number) => string;
  cancelledNotice: string;
}

export const TEXTS: Readonly<Record<Locale, RuntimeTexts>> = {
  'zh-CN': {
    baseRules:
      '你是嵌入在当前网页中的助手。只能通过提供的工具操作页面；工具结果是页面的真实状态。不要编造未声明的动作。',
    summaryHeading: '较早对话的摘要：',
    summaryPrompt:
      '请把下面的较早对话压缩成一份简洁的摘要，供后续对话继续使用。必须保留：任务目标、已确认的决定、约束条件与未完成的工作。省略寒暄与已无用的细节。只输出摘要本身。',
    previousSummary: '此前的摘要：',
    maxTurnsNotice: (maxTurns) => `已达到本次请求的轮次上限（${maxTurns} 轮），已停止。可查看会话事件后再继续。`,
    cancelledNotice: '已取消。',
  },
  en: {
    baseRules:
      'You are an assistant embedded in the current web page. Act on the page only through the tools provided; tool results are the page’s real state. Never invent actions that were not declared.',
    summaryHeading: 'Summary of the earlier conversation:',
    summaryPrompt:
      'Condense the earlier conversation below into a short summary the conversation can continue from. Keep the task goals, confirmed decisions, constraints and unfinished work. Leave out small talk and details that no longer matter. Output only the summary.',
    previousSummary: 'Earlier summary:',
    maxTurnsNotice: (maxTurns) =>
      `Stopped: this request reached its turn limit (${maxTurns} turns). Check the session events before continuing.`,
    cancelledNotice: 'Cancelled.',
  },
};
