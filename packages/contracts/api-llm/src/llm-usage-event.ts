// `llm:usage`: one event per completed model call, for accounting (tokens, latency, estimated cost).
import type { ChatRequest, LlmPurpose } from './chat-request.js';
import type { LlmUsage } from './chat-stream-event.js';

export interface ModelPrices {
  promptPerMillion: number;
  completionPerMillion: number;
  /** Price of cached prompt tokens; the prompt price when not given. */
  cachedPromptPerMillion?: number;
  /** Price of prompt tokens written to the cache (Anthropic: 1.25× the prompt price); the prompt price when not given. */
  cacheWritePromptPerMillion?: number;
  /** Currency of the prices, e.g. 'USD' (informational). */
  currency?: string;
}

export interface LlmUsageEvent {
  sessionId: string;
  purpose: LlmPurpose;
  /** The provider plugin instance id. */
  provider: string;
  /** `<provider instance id>/<model id>`. */
  model: string;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens?: number;
  /** Prompt tokens written to the provider's prompt cache by this call, when it reports them. */
  cacheCreationPromptTokens?: number;
  /** From sending the request to the end of the response. */
  latencyMs: number;
  /** In the prices' currency; present when the provider's config gives prices for the model. */
  estimatedCost?: number;
  currency?: string;
}

declare module '@aalis/core' {
  interface EventMap {
    /** A model call completed (emitted by the provider, once per call, failed calls excluded). */
    'llm:usage': LlmUsageEvent;
  }
}

export function estimateCost({ usage, prices }: { usage: LlmUsage; prices: ModelPrices }): number {
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const written = Math.min(usage.cacheCreationPromptTokens ?? 0, usage.promptTokens - cached);
  const cachedPrice = prices.cachedPromptPerMillion ?? prices.promptPerMillion;
  const writePrice = prices.cacheWritePromptPerMillion ?? prices.promptPerMillion;
  return (
    ((usage.promptTokens - cached - written) * prices.promptPerMillion +
      cached * cachedPrice +
      written * writePrice +
      usage.completionTokens * prices.completionPerMillion) /
    1_000_000
  );
}

export function usageEvent({
  request,
  usage,
  provider,
  model,
  latencyMs,
  prices,
}: {
  request: Pick<ChatRequest, 'sessionId' | 'purpose'>;
  usage: LlmUsage;
  provider: string;
  model: string;
  latencyMs: number;
  prices?: ModelPrices;
}): LlmUsageEvent {
  const event: LlmUsageEvent = {
    sessionId: request.sessionId,
    purpose: request.purpose,
    provider,
    model,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    latencyMs,
  };
  if (usage.cachedPromptTokens !== undefined) event.cachedPromptTokens = usage.cachedPromptTokens;
  if (usage.cacheCreationPromptTokens !== undefined) event.cacheCreationPromptTokens = usage.cacheCreationPromptTokens;
  if (prices) {
    event.estimatedCost = estimateCost({ usage, prices });
    if (prices.currency) event.currency = prices.currency;
  }
  return event;
}
