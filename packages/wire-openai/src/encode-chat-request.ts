// A Chat Completions request body as UTF-8 bytes, assembled from the cached JSON of what repeats between calls (the
// tool definitions, the frozen history messages) instead of stringifying and encoding the whole request each call.
// The bytes are exactly those of JSON.stringify(buildChatRequest(…)) with the messages from toWireMessages(…).
import type { Message } from '@aalis/schema-message';
import { type BuildChatRequestOptions, buildChatRequest, chatRequestFields } from './build-chat-request.js';
import { wireMessageJson, wireToolBytes } from './request-fragments.js';
import { type ToWireMessagesOptions, toWireMessages } from './to-wire-messages.js';

export interface EncodeChatRequestOptions
  extends Omit<BuildChatRequestOptions, 'messages'>,
    Omit<ToWireMessagesOptions, 'messages'> {
  /** The conversation (toWireMessages converts it). */
  messages: readonly Message[];
}

const utf8 = new TextEncoder();
// Stand-ins for the two lists in the request's fields: module-private objects, so no caller's value can be one.
const MESSAGES = {};
const TOOLS = {};
const COMMA = utf8.encode(',');

export function encodeChatRequest(options: EncodeChatRequestOptions): Uint8Array {
  const { messages, tools, vision = false, includeReasoning = true, describeAttachment } = options;
  const hasTools = tools !== undefined && tools.length > 0;
  const body = chatRequestFields(options, MESSAGES, hasTools ? TOOLS : undefined);
  // An `extra` field named toJSON would make JSON.stringify serialise something else entirely: no shortcuts.
  if (typeof body.toJSON === 'function') return utf8.encode(JSON.stringify(fromScratch(options)));
  const parts: Uint8Array[] = [];
  let text = '{';
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    let json: string | undefined;
    if (value === MESSAGES) {
      json = '[';
      let none = true;
      for (const message of messages) {
        const fragment = wireMessageJson(message, { vision, includeReasoning, describeAttachment });
        if (fragment === undefined) continue;
        json += none ? fragment : `,${fragment}`;
        none = false;
      }
      json += ']';
    } else if (value === TOOLS) {
      // The tools' bytes go in as they are cached: end the text so far here, and go on after them.
      parts.push(utf8.encode(`${text}${first ? '' : ','}${JSON.stringify(key)}:[`));
      tools!.forEach((tool, index) => {
        if (index > 0) parts.push(COMMA);
        parts.push(wireToolBytes(tool));
      });
      text = ']';
      first = false;
      continue;
    } else if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
      // In its object, as JSON.stringify of the whole body would write it (a toJSON method gets the key).
      const field = JSON.stringify({ [key]: value });
      if (field.length > 2) {
        text += `${first ? '' : ','}${field.slice(1, -1)}`;
        first = false;
      }
      continue;
    } else json = JSON.stringify(value);
    if (json === undefined) continue; // what JSON.stringify leaves out of an object (undefined, a function)
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  parts.push(utf8.encode(`${text}}`));
  return joined(parts);
}

/** The request object as buildChatRequest makes it, the reference encodeChatRequest's bytes equal. */
function fromScratch(options: EncodeChatRequestOptions) {
  const { messages, vision, includeReasoning, describeAttachment, ...rest } = options;
  return buildChatRequest({
    ...rest,
    messages: toWireMessages({ messages, vision, includeReasoning, describeAttachment }),
  });
}

function joined(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let size = 0;
  for (const part of parts) size += part.byteLength;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
