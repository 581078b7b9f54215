// @aalis/api-agent: the orchestration contract: the service, its hooks, the agent:prompt point, token usage.
export { agentErrors } from './agent-errors.js';
export type {
  AgentAcceptedEvent,
  AgentQueueEvent,
  AgentStoppedElsewhereEvent,
  QueueDisposition,
} from './agent-events.js';
export {
  type AbortOptions,
  type AgentService,
  agent,
  type BoundAgent,
  type ModelRef,
  type PreprocessorFn,
} from './agent-service.js';
export type {
  InputBeforeContext,
  LlmAfterContext,
  LlmBeforeContext,
  ReplyBeforeContext,
  ToolAfterContext,
  ToolBeforeContext,
  TurnAfterContext,
  TurnBeforeContext,
} from './hook-payloads.js';
export type {
  PromptAnchor,
  PromptCategory,
  PromptContributionSpec,
  PromptContributionView,
} from './prompt-contribution.js';
export { TERMINAL_QUEUE_PREFIX, type TerminalItem, terminalErrors, terminalQueueName } from './terminal-replies.js';
export type { TokenBreakdown, TokenRequestEvent, TokenUsageEvent, TokenUsagePart } from './token-usage.js';
export type { TurnInput, TurnOutcome } from './turn-input.js';
export { type UsageTag, usageTag } from './usage-tag.js';
