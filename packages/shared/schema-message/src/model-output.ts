// What a model is given and gives back, declared once: the tools it may call, the streamed deltas, why it stopped,
// and the tokens it used. @aalis/api-llm and @aalis/wire-openai both use these, so events pass between them as is.

/** A tool as a model request describes it: the name the model calls, and JSON Schema of its arguments. */
export interface ModelToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Whether the model may call tools: it decides ('auto'), must not ('none'), must call one ('required' / by name). */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** One increment of a model's output while it writes. */
export type StreamDelta =
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
      /** The next fragment of the arguments JSON text ('' when the delta carried only id or name). */
      argumentsDelta: string;
    };

/** Why the model stopped: done, cut at the output limit, wants its tools run, filtered, or anything else. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

export interface ModelUsage {
  /** Input tokens the provider counted; 0 when it reported none (callers then estimate). */
  promptTokens: number;
  completionTokens: number;
  /** Input tokens served from the provider's prompt cache, when it reports them. */
  cachedPromptTokens?: number;
  /** Input tokens written to the provider's prompt cache by this call (Anthropic's cache_creation_input_tokens). */
  cacheCreationPromptTokens?: number;
}
