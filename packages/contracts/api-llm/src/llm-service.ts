// The llm service: each provider plugin instance provides one, offering models `<instance id>/<model id>`.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { ChatOptions, ChatRequest } from './chat-request.js';
import type { ChatResponse, ChatStreamEvent } from './chat-stream-event.js';
import type { ModelInfo } from './model-info.js';

export interface LlmService {
  /** The models this provider offers now. */
  models(): readonly ModelInfo[];
  /**
   * Streams one completion: deltas, then one `response` event, last. Every completed call emits `llm:usage`
   * (before the response event). Failures throw AalisErrors with AALIS_LLM_* codes (see llmErrors).
   */
  chatStream(request: ChatRequest, options?: ChatOptions): AsyncIterable<ChatStreamEvent>;
  /** The same call without deltas. */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
  /** Re-reads the model list from its source (e.g. the server's GET /models), where the provider has one. */
  refreshModels?(): Promise<readonly ModelInfo[]>;
}

export const llm: ServiceDescriptor<LlmService> = defineService<LlmService>('llm');
