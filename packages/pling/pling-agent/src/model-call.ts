// One logical model call: retries with backoff, telemetry per attempt (tokens from usage or the estimator) and
// a trace entry per request actually sent. The messages are redacted by value first, so neither the model nor
// the trace ever holds a page's sensitive value.
import { estimateMessagesTokens, estimateMessageTokens } from '@aalis/context-budget';
import type { Message } from '@aalis/schema-message';
import type { Clock } from './clock.js';
import type { ResolvedAgentConfig } from './config.js';
import { isAbortError } from './errors.js';
import type { LlmClient, ModelResponse, ModelToolDefinition } from './llm-client.js';
import { type Redact, redactMessage } from './redaction.js';
import { withRetry } from './retry.js';
import type { Telemetry } from './telemetry.js';
import type { Trace } from './trace.js';

export interface CallModelOptions {
  llm: LlmClient;
  config: ResolvedAgentConfig;
  telemetry: Telemetry;
  trace: Trace;
  clock: Clock;
  signal: AbortSignal;
  sessionId: string;
  messages: Message[];
  tools: ModelToolDefinition[];
  onTextDelta?: ((text: string) => void) | undefined;
  onRetry?: (info: { retry: number; delayMs: number; error: unknown }) => void;
  /** Tokens of each successful call (reported, else estimated), for the run's budget. */
  onUsage?: (usage: { promptTokens: number; completionTokens: number }) => void;
  /** Builds the redactor for a request (the page's current sensitive values). */
  redactor?: () => Redact;
}

export function callModel(options: CallModelOptions): Promise<ModelResponse> {
  const { llm, config, telemetry, trace, clock, signal, sessionId, tools, onTextDelta, onRetry, onUsage } = options;
  const redact = options.redactor?.();
  const messages = redact ? options.messages.map((message) => redactMessage(message, redact)) : options.messages;
  return withRetry({
    retry: config.retry,
    clock,
    signal,
    onRetry: (info) => {
      telemetry.recordRetry();
      onRetry?.(info);
    },
    run: async () => {
      const started = clock.now();
      trace.record({ at: started, sessionId, model: config.model, messages, tools });
      try {
        const response = await llm.complete({
          model: config.model,
          messages,
          tools,
          temperature: config.temperature,
          maxTokens: config.maxTokens,
          stream: config.stream,
          signal,
          ...(onTextDelta && { onTextDelta }),
        });
        const usage = response.usage ?? {
          promptTokens: estimateMessagesTokens(messages),
          completionTokens: estimateMessageTokens({
            role: 'assistant',
            content: response.content,
            toolCalls: response.toolCalls,
          }),
        };
        telemetry.recordModelCall({
          durationMs: clock.now() - started,
          ok: true,
          ...usage,
          estimated: response.usage === undefined,
        });
        onUsage?.({ promptTokens: usage.promptTokens, completionTokens: usage.completionTokens });
        return response;
      } catch (error) {
        // A cancelled request was sent, but it is the user's choice, not a failure of the service.
        telemetry.recordModelCall({ durationMs: clock.now() - started, ok: isAbortError(error) });
        throw error;
      }
    },
  });
}
