// @aalis/api-llm: the llm service contract — model descriptions, chat requests and streaming events, the
// `llm:usage` event, typed errors, and pure helpers for model refs and model resolution. No implementation.
import './llm-catalogue.js';

export type { ChatOptions, ChatRequest, LlmPurpose, LlmToolDefinition } from './chat-request.js';
export type { ChatResponse, ChatStreamEvent, FinishReason, LlmUsage } from './chat-stream-event.js';
export { createFallbackReporter, type FallbackReporter, fallbackText } from './fallback-reporter.js';
export { MODEL_NOT_LISTED, purposeLabel } from './llm-catalogue.js';
export { isLlmError, type LlmErrorCode, llmErrors } from './llm-errors.js';
export { type LlmService, llm } from './llm-service.js';
export { estimateCost, type LlmUsageEvent, type ModelPrices, usageEvent } from './llm-usage-event.js';
export {
  effectiveThinkingLevel,
  type ModelCapabilities,
  type ModelInfo,
  modelRef,
  type ThinkingLevel,
  type ThinkingLevels,
} from './model-info.js';
export {
  findModel,
  listModels,
  type ModelFallback,
  orderProviders,
  type PreferenceScope,
  type ResolvedModel,
  type ResolveModelOptions,
  resolveModel,
} from './resolve-model.js';
export { resolveModelFor } from './resolve-model-for.js';
