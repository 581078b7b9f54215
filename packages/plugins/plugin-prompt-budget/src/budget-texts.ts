// Texts of plugin-prompt-budget: the tool's description, the advice per usage tag, and the no-data answer.
import { defineCatalogue } from '@aalis/core';

export const budgetTexts = defineCatalogue({
  'zh-CN': {
    'promptBudget.tool.description':
      '查看本会话最近一次模型调用的上下文用量：已用 token、上下文窗口、占比与档位（OK/INFO/WARN/CRITICAL）、裁剪预算、是否经过硬裁剪、历史条数与条数上限、各部分的 token 拆分，并给一句建议。在要读入大段内容、做长任务或怀疑上下文紧张之前调用。',
    'promptBudget.advice.OK': '上下文充裕，照常进行即可。',
    'promptBudget.advice.INFO': '上下文已用过半：读入大段内容时只取需要的部分。',
    'promptBudget.advice.WARN': '上下文偏紧：少做大段输出与不必要的工具调用，只读需要的内容，可考虑压缩对话历史。',
    'promptBudget.advice.CRITICAL':
      '上下文即将用尽，较早的内容可能被裁掉：尽快收尾当前任务，不再读入大段内容，重要的结论写进回复里。',
    'promptBudget.noUsage': '本会话还没有用量数据：还没有哪次模型调用报告过用量。',
  },
  en: {
    'promptBudget.tool.description':
      'Shows the context usage of this session’s latest model call: tokens used, context window, share and tag (OK/INFO/WARN/CRITICAL), trim budget, whether hard trimming happened, history messages and their limit, the token breakdown by part, and one piece of advice. Call it before reading large content, starting a long task, or when the context may be tight.',
    'promptBudget.advice.OK': 'The context has plenty of room; carry on as usual.',
    'promptBudget.advice.INFO':
      'Over half of the context is used: when reading large content, take only the parts you need.',
    'promptBudget.advice.WARN':
      'The context is getting tight: avoid long outputs and unnecessary tool calls, read only what you need, and consider compacting the conversation history.',
    'promptBudget.advice.CRITICAL':
      'The context is nearly full and earlier content may be trimmed: wrap up the current task soon, read no more large content, and put important conclusions in your reply.',
    'promptBudget.noUsage': 'No usage is known for this session yet: no model call has reported usage.',
  },
});
