// What a decoded Chat Completions stream produces: deltas while it runs, one assembled response at the end.
// The delta, finish-reason and usage shapes are @aalis/schema-message's, the same ones @aalis/api-llm uses, so
// providers pass the events through without copying.
import type { FinishReason, ModelUsage, StreamDelta, ToolCall } from '@aalis/schema-message';

export type { FinishReason } from '@aalis/schema-message';

/** A delta of the stream (the shared StreamDelta; the name is kept for consumers). */
export type WireStreamEvent = StreamDelta;

/** Usage as the server reported it; promptTokens is 0 when it reported none (see usageReported). */
export type AssembledUsage = ModelUsage;

export interface AssembledResponse {
  content: string;
  reasoningContent?: string;
  toolCalls: ToolCall[];
  usage: AssembledUsage;
  /** Whether the server sent a usage object at all. */
  usageReported: boolean;
  finishReason: FinishReason;
  /** The model name the server reported, if any. */
  serverModel?: string;
}
