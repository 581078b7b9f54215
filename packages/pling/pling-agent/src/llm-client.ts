// The model client contract the session talks to; the default implementation (fetch-llm-client.ts) speaks the
// OpenAI Chat Completions protocol, tests and custom gateways inject their own.
import type { Message, ModelToolDefinition, ModelUsage, ToolCall } from '@aalis/schema-message';

export type { ModelToolDefinition, ModelUsage } from '@aalis/schema-message';

export interface ModelRequest {
  model: string;
  /** The whole conversation sent, system prompt first. */
  messages: Message[];
  tools: ModelToolDefinition[];
  temperature: number;
  maxTokens: number;
  stream: boolean;
  signal: AbortSignal;
  /** Text increments, when the client streams. */
  onTextDelta?: (text: string) => void;
}

export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
  reasoningContent?: string;
  /** Undefined when the server reported none (telemetry then uses the estimator). */
  usage?: ModelUsage;
}

export interface LlmClient {
  /** One model request; throws a PlingError with `retryable` set for failures worth retrying. */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
