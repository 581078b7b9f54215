// The OpenAI Chat Completions wire shapes this project sends and reads (the subset OpenAI-compatible servers share).

export interface WireTextPart {
  type: 'text';
  text: string;
}

export interface WireImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type WireContentPart = WireTextPart | WireImagePart;

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[]; reasoning_content?: string }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export type WireToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatCompletionRequest {
  model: string;
  messages: WireMessage[];
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: string;
  /** Provider-specific fields (thinking switches and the like). */
  [field: string]: unknown;
}

export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  /** OpenAI: prompt tokens served from the prompt cache. */
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** DeepSeek: prompt tokens served from the context cache. */
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
}

export interface WireToolCallDelta {
  index?: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface WireDelta {
  role?: string;
  content?: string | null;
  /** DeepSeek, Qwen, Kimi, vLLM: the model's visible reasoning. */
  reasoning_content?: string | null;
  /** OpenRouter and newer vLLM spell it `reasoning`. */
  reasoning?: string | null;
  tool_calls?: WireToolCallDelta[] | null;
}

export interface ChatCompletionChunk {
  id?: string;
  object?: string;
  model?: string;
  choices?: Array<{ index?: number; delta?: WireDelta | null; finish_reason?: string | null }>;
  usage?: WireUsage | null;
  /** Some servers report a failure in the stream itself. */
  error?: WireErrorBody['error'];
}

export interface ChatCompletion {
  id?: string;
  object?: string;
  model?: string;
  choices?: Array<{
    index?: number;
    message?: {
      role?: string;
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: WireToolCall[] | null;
    };
    finish_reason?: string | null;
  }>;
  usage?: WireUsage | null;
}

/** The error body OpenAI-compatible servers return with a non-2xx status. */
export interface WireErrorBody {
  error?: { message?: string; type?: string; code?: string | number | null; param?: string | null };
}

export interface WireModelList {
  object?: string;
  data?: Array<{ id: string; object?: string; owned_by?: string }>;
}
