// What chatStream yields: deltas while the model writes, then exactly one final response, last.
// The delta, finish-reason and usage shapes live in @aalis/schema-message (shared with @aalis/wire-openai).
import type { FinishReason, ModelUsage, StreamDelta, ToolCall } from '@aalis/schema-message';

export type { FinishReason } from '@aalis/schema-message';

/** The tokens a call used (the shared ModelUsage; the name is kept for consumers). */
export type LlmUsage = ModelUsage;

export interface ChatResponse {
  content: string;
  reasoningContent?: string;
  /** Complete calls, arguments as the raw JSON text the model wrote. Empty when the model called nothing. */
  toolCalls: ToolCall[];
  usage: LlmUsage;
  /** 'tool-calls' whenever toolCalls is non-empty (unless the output was cut: 'length'). */
  finishReason: FinishReason;
  /** `<provider instance id>/<model id>` that answered. */
  model: string;
}

export type ChatStreamEvent = StreamDelta | { type: 'response'; response: ChatResponse };
