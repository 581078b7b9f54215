// What a decoded Chat Completions stream produces: deltas while it runs, one assembled response at the end.
// The shapes match @aalis/api-llm's events structurally, so providers pass them through without copying.
import type { ToolCall } from '@aalis/schema-message';

export type WireStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | {
      type: 'tool-call-delta';
      /** Position of the call in this response (parallel calls have distinct indexes). */
      index: number;
      /** The call id, once the server has sent it. */
      id?: string;
      /** The tool name, once the server has sent it. */
      name?: string;
      /** The next fragment of the JSON arguments text ('' when the delta carried only id or name). */
      argumentsDelta: string;
    };

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

export interface AssembledUsage {
  /** 0 when the server reported no usage. */
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's prompt cache, when it reports them. */
  cachedPromptTokens?: number;
}

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
