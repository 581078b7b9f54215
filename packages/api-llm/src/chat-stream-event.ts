// What chatStream yields: deltas while the model writes, then exactly one final response, last.
import type { ToolCall } from '@aalis/schema-message';

export interface LlmUsage {
  /** Input tokens the provider counted; 0 when it reported none (callers then estimate). */
  promptTokens: number;
  completionTokens: number;
  /** Input tokens served from the provider's prompt cache, when it reports them. */
  cachedPromptTokens?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

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

export type ChatStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | {
      type: 'tool-call-delta';
      /** Position of the call within this response; parallel calls have distinct indexes. */
      index: number;
      /** The call id, once known (repeated on later deltas of the same call). */
      id?: string;
      /** The tool name, once known. */
      name?: string;
      /** The next fragment of the arguments JSON text. */
      argumentsDelta: string;
    }
  | { type: 'response'; response: ChatResponse };
