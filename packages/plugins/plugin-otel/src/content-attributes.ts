// Message content in the GenAI conventions' JSON shape (gen_ai.input.messages / gen_ai.output.messages), recorded
// only when the operator opts in (plugins.otel.captureContent): prompts and replies are personal data.
import type { ChatResponse } from '@aalis/api-llm';
import type { Message } from '@aalis/schema-message';

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_call_response'; id: string; response: string }
  | { type: 'attachment'; mime_type: string };

function partsOf(message: Message): Part[] {
  const parts: Part[] = [];
  if (message.role === 'tool') {
    parts.push({ type: 'tool_call_response', id: message.toolCallId ?? '', response: message.content });
    return parts;
  }
  if (message.reasoningContent) parts.push({ type: 'reasoning', content: message.reasoningContent });
  if (message.content) parts.push({ type: 'text', content: message.content });
  for (const call of message.toolCalls ?? [])
    parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments });
  for (const attachment of message.attachments ?? [])
    parts.push({ type: 'attachment', mime_type: attachment.mimeType ?? attachment.type });
  return parts;
}

export function inputMessagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map((message) => ({ role: message.role, parts: partsOf(message) })));
}

export function outputMessagesJson(response: ChatResponse): string {
  const message: Message = {
    role: 'assistant',
    content: response.content,
    ...(response.reasoningContent ? { reasoningContent: response.reasoningContent } : {}),
    ...(response.toolCalls.length > 0 ? { toolCalls: response.toolCalls } : {}),
  };
  return JSON.stringify([{ role: 'assistant', parts: partsOf(message), finish_reason: response.finishReason }]);
}
