// @plingjs/agent: the Pling in-page agent runtime — AgentRuntime, AgentSession, config, limits and compaction,
// retry, tool hooks, telemetry and trace. Runs in browsers: no Node built-ins, no process globals.

export type {
  BudgetCheck,
  BudgetCheckContext,
  BudgetConfig,
  BudgetDecision,
  RunUsage,
} from './budget.js';
export {
  byteLength,
  CHECKPOINT_VERSION,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  type DecodedCheckpoint,
  decodeCheckpoint,
  type EncodedCheckpoint,
  encodeCheckpoint,
  type SessionCheckpoint,
} from './checkpoint.js';
export {
  type CheckpointOptions,
  type CheckpointStorage,
  Checkpoints,
  DEFAULT_CHECKPOINT_KEY_PREFIX,
} from './checkpoint-store.js';
export { type CheckpointProblem, CONTINUITY_TEXTS, type ContinuityTexts, continuityTexts } from './checkpoint-texts.js';
export { type Clock, systemClock } from './clock.js';
export {
  type AgentConfig,
  type AgentConfigTable,
  type AgentEnv,
  type Approval,
  checkReadiness,
  DEFAULT_AGENT_CONFIG,
  ENV_VARIABLES,
  isAbsoluteUrl,
  type LimitsConfig,
  mergeAgentConfig,
  type PricingConfig,
  type Readiness,
  type ResolvedAgentConfig,
  type RetryConfig,
  resolveAgentConfig,
  validateAgentConfig,
} from './config.js';
export { isAbortError, PlingError, type PlingErrorCode, type PlingErrorOptions } from './errors.js';
export { createFetchLlmClient, type FetchLlmClientOptions } from './fetch-llm-client.js';
export {
  buildSummaryRequest,
  type CompactionBudget,
  type CompactionResult,
  compactHistory,
  compactionBudget,
  estimateHistoryTokens,
  splitForCompaction,
} from './history.js';
export {
  HookRegistry,
  type PostToolUseHook,
  type PreToolUseHook,
  type ToolResult,
  type ToolUseContext,
} from './hooks.js';
export { callListener, reportListenerError } from './listener-errors.js';
export type { LlmClient, ModelRequest, ModelResponse, ModelToolDefinition, ModelUsage } from './llm-client.js';
export { applyModelOverrides, type ModelOverrides, type ModelOverridesSource } from './model-overrides.js';
export { type Listener, Observable } from './observable.js';
export { isPlainObject, mapPlainData } from './plain-data.js';
export { type Redact, type RedactorSource, redactMessage, redactValue } from './redaction.js';
export { backoffDelay, isRetryable, withRetry } from './retry.js';
export { type AgentRuntime, type CreateAgentRuntimeOptions, createAgentRuntime } from './runtime.js';
export { AgentSession, type SendResult, type SessionSnapshot, type SessionStatus } from './session.js';
export type { RuntimeEvent, SessionEvent, SessionEventBody, TextDeltaEvent } from './session-events.js';
export { Telemetry, type TelemetrySnapshot } from './telemetry.js';
export { DEFAULT_LOCALE, type ErrorTexts, type Locale, type RuntimeTexts, TEXTS, textsFor } from './texts.js';
export type { AgentTool, ToolExecutionContext, ToolSource } from './tool.js';
export { TOOL_ERROR_CODE } from './tool.js';
export { Trace, type TraceEntry } from './trace.js';
