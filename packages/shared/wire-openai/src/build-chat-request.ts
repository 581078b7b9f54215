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

export function buildChatRequest(options: BuildChatRequestOptions): ChatCompletionRequest {
  const { messages, tools } = options;
  return chatRequestFields(
    options,
    messages,
    tools && tools.length > 0 ? tools.map(toWireTool) : undefined,
  ) as ChatCompletionRequest;
}

/**
 * The request's fields in the order they are sent, with `messages` and `tools` given as they are (the wire lists, or
 * stand-ins that encodeChatRequest writes as cached JSON). `tools` undefined: no tools, and no tool_choice.
 */
export function chatRequestFields(
  {
    model,
    stream,
    includeUsage = true,
    toolChoice,
    temperature,
    maxTokens,
    maxTokensField = 'max_tokens',
    extra,
  }: Omit<BuildChatRequestOptions, 'messages' | 'tools'>,
  messages: unknown,
  tools: unknown,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extra, model, messages, stream };
  if (stream && includeUsage) body.stream_options = { include_usage: true };
  if (tools !== undefined) {
    body.tools = tools;
    if (toolChoice !== undefined) body.tool_choice = toWireToolChoice(toolChoice);
  }
  if (temperature !== undefined) body.temperature = temperature;
  if (maxTokens !== undefined) body[maxTokensField] = maxTokens;
  return body;
}

/** A tool as the request carries it. */
export function toWireTool(tool: WireToolDefinition): WireTool {
  const fn: WireTool['function'] = { name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}

function toWireToolChoice(choice: ToolChoice): WireToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}
