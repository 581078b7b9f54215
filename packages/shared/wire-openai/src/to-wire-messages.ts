// Message[] → the wire messages a Chat Completions request carries. Control messages are left out; images
// become content parts when the model can see them, otherwise a caller-supplied text stands in for them.
import { type Attachment, isControlMessage, type Message } from '@aalis/schema-message';
import type { WireContentPart, WireMessage } from './wire-types.js';

export interface ToWireMessagesOptions {
  messages: readonly Message[];
  /** The model accepts images: image attachments on user messages become `image_url` parts. */
  vision?: boolean;
  /** Send assistant `reasoningContent` back as `reasoning_content` (default true). */
  includeReasoning?: boolean;
  /** Text standing in for an attachment the model cannot take; undefined leaves it out. */
  describeAttachment?: (attachment: Attachment) => string | undefined;
}

export function toWireMessages({
  messages,
  vision = false,
  includeReasoning = true,
  describeAttachment,
}: ToWireMessagesOptions): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    const entry = toWireMessage(message, { vision, includeReasoning, describeAttachment });
    if (entry !== undefined) wire.push(entry);
  }
  return wire;
}

/** One message's wire form; undefined for a control message (never sent). */
export function toWireMessage(
  message: Message,
  { vision = false, includeReasoning = true, describeAttachment }: Omit<ToWireMessagesOptions, 'messages'>,
): WireMessage | undefined {
  if (isControlMessage(message)) return undefined;
  switch (message.role) {
    case 'system':
      return { role: 'system', content: withDescriptions(message, describeAttachment) };
    case 'user':
      return { role: 'user', content: userContent(message, vision, describeAttachment) };
    case 'assistant': {
      const hasCalls = message.toolCalls !== undefined && message.toolCalls.length > 0;
      const content = withDescriptions(message, describeAttachment);
      const entry: WireMessage & { role: 'assistant' } = {
        role: 'assistant',
        content: hasCalls && content === '' ? null : content,
      };
      if (hasCalls) {
        entry.tool_calls = message.toolCalls!.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: call.function.arguments },
        }));
      }
      if (includeReasoning && message.reasoningContent) entry.reasoning_content = message.reasoningContent;
      return entry;
    }
    case 'tool':
      return {
        role: 'tool',
        content: withDescriptions(message, describeAttachment),
        tool_call_id: message.toolCallId ?? '',
      };
  }
  return undefined;
}

function isImage(attachment: Attachment): boolean {
  return attachment.type === 'image' && (attachment.url !== undefined || attachment.data !== undefined);
}

function imageUrl(attachment: Attachment): string {
  return attachment.url ?? `data:${attachment.mimeType ?? 'image/png'};base64,${attachment.data}`;
}

function userContent(
  message: Message,
  vision: boolean,
  describe: ToWireMessagesOptions['describeAttachment'],
): string | WireContentPart[] {
  const attachments = message.attachments ?? [];
  if (!vision || !attachments.some(isImage)) return withDescriptions(message, describe);
  const parts: WireContentPart[] = [];
  if (message.content) parts.push({ type: 'text', text: message.content });
  for (const attachment of attachments) {
    if (isImage(attachment)) {
      parts.push({ type: 'image_url', image_url: { url: imageUrl(attachment) } });
      continue;
    }
    const text = describe?.(attachment);
    if (text) parts.push({ type: 'text', text });
  }
  return parts;
}

function withDescriptions(message: Message, describe: ToWireMessagesOptions['describeAttachment']): string {
  if (!describe || !message.attachments?.length) return message.content;
  const texts = message.attachments.map(describe).filter((text): text is string => Boolean(text));
  if (texts.length === 0) return message.content;
  return [message.content, ...texts].filter(Boolean).join('\n');
}
