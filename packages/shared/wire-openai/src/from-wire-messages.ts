// Wire messages → Message[]: for runtimes that receive OpenAI-shaped history (the Pling runtime, proxies).
import type { Attachment, Message } from '@aalis/schema-message';
import type { WireMessage } from './wire-types.js';

export function fromWireMessages({ messages }: { messages: readonly WireMessage[] }): Message[] {
  return messages.map(fromWireMessage);
}

function fromWireMessage(wire: WireMessage): Message {
  switch (wire.role) {
    case 'system':
      return { role: 'system', content: wire.content };
    case 'tool':
      return { role: 'tool', content: wire.content, toolCallId: wire.tool_call_id };
    case 'assistant': {
      const message: Message = { role: 'assistant', content: wire.content ?? '' };
      if (wire.tool_calls?.length) {
        message.toolCalls = wire.tool_calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: call.function.arguments },
        }));
      }
      if (wire.reasoning_content) message.reasoningContent = wire.reasoning_content;
      return message;
    }
    case 'user': {
      if (typeof wire.content === 'string') return { role: 'user', content: wire.content };
      const texts: string[] = [];
      const attachments: Attachment[] = [];
      for (const part of wire.content) {
        if (part.type === 'text') texts.push(part.text);
        else attachments.push({ type: 'image', url: part.image_url.url });
      }
      const message: Message = { role: 'user', content: texts.join('\n') };
      if (attachments.length > 0) message.attachments = attachments;
      return message;
    }
  }
}
