// Builds a Chat Completions request body, including the thinking-level field of the model's dialect.
import type { ModelToolDefinition, ToolChoice } from '@aalis/schema-message';
import type { ChatCompletionRequest, WireMessage, WireTool, WireToolChoice } from './wire-types.js';

/** A tool the model may call (the shared ModelToolDefinition; the name is kept for consumers). */
export type WireToolDefinition = ModelToolDefinition;

export interface ThinkingParam {
  /** Request field (dotted path for nested fields, e.g. `chat_template_kwargs.enable_thinking`). */
  field: string;
  /** Value per level id; a level without an entry is sent as its id. */
  values?: Readonly<Record<string, unknown>>;
}

/** OpenAI's dialect: `reasoning_effort: <level id>`. */
export const OPENAI_THINKING_PARAM: ThinkingParam = { field: 'reasoning_effort' };

/** The request fields that select a thinking level, e.g. `{ reasoning_effort: 'high' }`. */
export function thinkingFields({
  level,
  param = OPENAI_THINKING_PARAM,
}: {
  level: string;
  param?: ThinkingParam;
}): Record<string, unknown> {
  const value = param.values && level in param.values ? param.values[level] : level;
  const path = param.field.split('.');
  let fields: Record<string, unknown> = { [path.pop()!]: value };
  while (path.length > 0) fields = { [path.pop()!]: fields };
  return fields;
}

export interface BuildChatRequestOptions {
  /** The model id as the server knows it. */
  model: string;
  messages: WireMessage[];
  stream: boolean;
  /** Ask for a final usage chunk (`stream_options.include_usage`); streaming only. Default true. */
  includeUsage?: boolean;
  tools?: readonly WireToolDefinition[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  /** Newer OpenAI models take `max_completion_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Extra top-level fields (from thinkingFields, or per-model configuration). */
  extra?: Readonly<Record<string, unknown>>;
}

export function buildChatRequest({
  model,
  messages,
  stream,
  includeUsage = true,
  tools,
  toolChoice,
  temperature,
  maxTokens,
  maxTokensField = 'max_tokens',
  extra,
}: BuildChatRequestOptions): ChatCompletionRequest {
  const body: ChatCompletionRequest = { ...extra, model, messages, stream };
  if (stream && includeUsage) body.stream_options = { include_usage: true };
  if (tools && tools.length > 0) {
    body.tools = tools.map(toWireTool);
    if (toolChoice !== undefined) body.tool_choice = toWireToolChoice(toolChoice);
  }
  if (temperature !== undefined) body.temperature = temperature;
  if (maxTokens !== undefined) body[maxTokensField] = maxTokens;
  return body;
}

function toWireTool(tool: WireToolDefinition): WireTool {
  const fn: WireTool['function'] = { name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}

function toWireToolChoice(choice: ToolChoice): WireToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}
