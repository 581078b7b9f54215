// Builds a Messages API request body from a chat request: the leading system messages as `system`, the rest as
// user/assistant messages of content blocks (text, image, tool_use, tool_result; consecutive same-role messages
// merged, tool results first), tools and tool_choice, the thinking budget of the level, and the cache breakpoints.
import type { ChatRequest } from '@aalis/api-llm';
import type { Attachment, Message, ToolChoice } from '@aalis/schema-message';
import { placeBreakpoints } from './cache-breakpoints.js';

type Block = Record<string, unknown>;
interface ApiMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export interface BuildOptions {
  model: string;
  request: ChatRequest;
  maxTokens: number;
  /** budget_tokens of the requested thinking level; undefined = no thinking. */
  thinkingBudget: number | undefined;
  vision: boolean;
  promptCaching: boolean;
  /** The text that stands for an attachment the model cannot take. */
  describeAttachment: (attachment: Attachment) => string;
  /** The user message put before a history that starts with her reply (the API wants a user message first). */
  historyOmitted: string;
}

const EPHEMERAL = { type: 'ephemeral' } as const;
/** The smallest budget the API accepts. */
const MIN_THINKING_BUDGET = 1_024;

export function buildMessagesRequest(options: BuildOptions): Record<string, unknown> {
  const { request, maxTokens } = options;
  const breakpoints = options.promptCaching ? placeBreakpoints(request.messages) : {};
  const system: Block[] = [];
  const messages: ApiMessage[] = [];
  let headBlock: Block | undefined;
  request.messages.forEach((message, index) => {
    const marked = index === breakpoints.historyEnd || index === breakpoints.tail;
    if (message.role === 'system' && messages.length === 0) {
      const block: Block = { type: 'text', text: message.content };
      system.push(block);
      if (index === breakpoints.head) headBlock = block;
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message, options);
    if (blocks.length === 0) return;
    const previous = messages.at(-1);
    if (previous?.role === role) previous.content.push(...blocks);
    else messages.push({ role, content: blocks });
    if (marked) markLast(messages.at(-1)!.content);
  });
  // The API wants at least one message, the first from the user. A turn of system blocks only (a delegation or a
  // host notice in a new session) sends its last block, the turn's instruction, as the user message; a history the
  // trim or the history limit cut just before her reply starts with a fixed note (the same text every request, so
  // the cached prefix holds until the next cut).
  if (messages.length === 0 && system.length > 1) {
    const instruction = system.pop()!;
    if (instruction === headBlock) headBlock = undefined;
    messages.push({ role: 'user', content: [instruction] });
  }
  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: options.historyOmitted }] });
  }
  // Tool results lead their user message (the API refuses text before them).
  for (const message of messages) {
    if (message.role === 'user') message.content.sort((a, b) => rank(a) - rank(b));
  }
  const body: Record<string, unknown> = { model: options.model, max_tokens: maxTokens, stream: true, messages };
  const tools = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.parameters,
  }));
  if (system.length > 0) {
    if (headBlock) headBlock.cache_control = EPHEMERAL;
    body.system = system;
  } else if (tools.length > 0 && options.promptCaching) markLast(tools);
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  const budget = thinkingBudgetFor(options);
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  else if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

/**
 * Thinking is sent when the level asks for it and the call allows it: max_tokens must exceed the budget, a forced
 * tool choice excludes it, and a tool loop without the earlier thinking block's signature (which our messages do not
 * keep) must continue without it, as the API requires.
 */
function thinkingBudgetFor({ thinkingBudget, maxTokens, request }: BuildOptions): number | undefined {
  if (thinkingBudget === undefined) return undefined;
  const budget = Math.min(thinkingBudget, maxTokens - MIN_THINKING_BUDGET);
  if (budget < MIN_THINKING_BUDGET) return undefined;
  const choice = request.toolChoice;
  if (choice !== undefined && choice !== 'auto' && choice !== 'none') return undefined;
  const lastAssistant = [...request.messages].reverse().find((message) => message.role === 'assistant');
  if (lastAssistant?.toolCalls && lastAssistant.toolCalls.length > 0) return undefined;
  return budget;
}

function blocksOf(message: Message, options: BuildOptions): Block[] {
  if (message.role === 'tool') {
    // Images a tool produced go inside its result (the API takes text and image blocks there).
    const images = (message.attachments ?? []).flatMap((attachment) => {
      const image = options.vision ? imageBlock(attachment) : undefined;
      return [image ?? { type: 'text', text: options.describeAttachment(attachment) }];
    });
    const text = message.content || ' ';
    const content = images.length > 0 ? [{ type: 'text', text }, ...images] : text;
    return [{ type: 'tool_result', tool_use_id: message.toolCallId ?? '', content }];
  }
  const blocks: Block[] = [];
  if (message.content) blocks.push({ type: 'text', text: message.content });
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      blocks.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: parseInput(call.function.arguments),
      });
    }
    return blocks;
  }
  for (const attachment of message.attachments ?? []) {
    const image = options.vision ? imageBlock(attachment) : undefined;
    blocks.push(image ?? { type: 'text', text: options.describeAttachment(attachment) });
  }
  return blocks;
}

function imageBlock(attachment: Attachment): Block | undefined {
  if (attachment.type !== 'image') return undefined;
  const dataUrl = attachment.url?.match(/^data:([^;,]+);base64,(.*)$/s);
  if (dataUrl) return { type: 'image', source: { type: 'base64', media_type: dataUrl[1], data: dataUrl[2] } };
  if (attachment.data)
    return {
      type: 'image',
      source: { type: 'base64', media_type: attachment.mimeType ?? 'image/png', data: attachment.data },
    };
  if (attachment.url && /^https?:\/\//.test(attachment.url))
    return { type: 'image', source: { type: 'url', url: attachment.url } };
  return undefined;
}

/** The arguments text the model wrote, as the object the API wants back (a broken text becomes {}). */
function parseInput(text: string): unknown {
  try {
    const parsed = JSON.parse(text || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function toolChoiceOf(choice: ToolChoice): Record<string, unknown> {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

function markLast(blocks: Block[]): void {
  const last = blocks.at(-1);
  if (last) last.cache_control = EPHEMERAL;
}

function rank(block: Block): number {
  return block.type === 'tool_result' ? 0 : 1;
}
