// @aalis/context-budget: token estimation, the 5-step trim and the history-limit window as pure functions.
export { COMPACTED_RESULT_CHARS, compactToolGroup } from './compact-tool-group.js';
export {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTextTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  type MessageTokenEstimator,
  TOOL_CALL_OVERHEAD_TOKENS,
} from './estimate-tokens.js';
export {
  estimateToolDefinitionTokens,
  renderToolDefinition,
  TOOL_DEFINITIONS_OVERHEAD_TOKENS,
  type ToolDefinition,
} from './estimate-tool-definition-tokens.js';
export { freezeMessage, HistoryTrimIndex } from './history-trim-index.js';
export {
  type ApplyHistoryWindowOptions,
  applyHistoryWindow,
  type HistoryWindow,
  historyWindowStart,
} from './history-window.js';
export { HistorySegment, MessageLog } from './message-log.js';
export { contextBudgetMessages, DEFAULT_CONTINUATION_PROMPT, DEFAULT_TOOL_CALL_SUMMARY } from './messages.js';
export {
  MIN_REPLY_TOKENS,
  type OutputAllowance,
  type OutputAllowanceOptions,
  outputAllowance,
} from './output-allowance.js';
export {
  historyCutLine,
  MIN_TRIM_BUDGET,
  SAFETY_MARGIN_TOKENS,
  type TrimBudget,
  type TrimBudgetOptions,
  trimBudget,
  trimUnit,
} from './trim-budget.js';
export {
  CONTINUATION_MIN_REMOVED,
  INJECTED_KEEP_CHARS,
  LONG_REASONING_CHARS,
  LONG_RESULT_CHARS,
  NEWEST_REASONING_KEEP_CHARS,
  REASONING_KEEP_CHARS,
  RESULT_KEEP_CHARS,
  type TrimList,
  type TrimOptions,
  type TrimResult,
  type TrimSettings,
  type TrimStep,
  trimMessages,
} from './trim-messages.js';
export type { TrimParts, TrimSegments } from './trim-segments.js';
