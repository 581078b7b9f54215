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
// Stand-ins for the two lists: the request's other fields are stringified with these in their places, then the lists'
// JSON goes where each stand-in's JSON is. A caller's string could hold the same characters (JSON escapes the NULs
// the same way), so the skeleton is split only where each occurs exactly once — then that one is the stand-in.
const MESSAGES_MARK = '\u0000aalis:messages\u0000';
const TOOLS_MARK = '\u0000aalis:tools\u0000';
const MESSAGES_AT = JSON.stringify(MESSAGES_MARK);
const TOOLS_AT = JSON.stringify(TOOLS_MARK);

export function encodeChatRequest(options: EncodeChatRequestOptions): Uint8Array {
  const { messages, tools, vision = false, includeReasoning = true, describeAttachment } = options;
  const hasTools = tools !== undefined && tools.length > 0;
  const body = chatRequestFields(options, MESSAGES_MARK, hasTools ? TOOLS_MARK : undefined);
  // An `extra` field named toJSON would make JSON.stringify write something else entirely: no shortcuts.
  if (typeof body.toJSON === 'function') return utf8.encode(JSON.stringify(fromScratch(options)));
  const skeleton = JSON.stringify(body);
  const messagesAt = onlyPlace(skeleton, MESSAGES_AT);
  const toolsAt = hasTools ? onlyPlace(skeleton, TOOLS_AT) : -1;
  if (messagesAt === -1 || (hasTools && toolsAt === -1)) return utf8.encode(JSON.stringify(fromScratch(options)));
  let list = '[';
  let none = true;
  for (const message of messages) {
    const fragment = wireMessageJson(message, { vision, includeReasoning, describeAttachment });
    if (fragment === undefined) continue;
    list += none ? fragment : `,${fragment}`;
    none = false;
  }
  list += ']';
  const afterMessages = messagesAt + MESSAGES_AT.length;
  if (!hasTools) return utf8.encode(skeleton.slice(0, messagesAt) + list + skeleton.slice(afterMessages));
  const toolBytes = joinedTools(tools!);
  const afterTools = toolsAt + TOOLS_AT.length;
  // The tools' bytes go in as they are cached: the text before them, and the text after them.
  return toolsAt > messagesAt
    ? assemble(
        `${skeleton.slice(0, messagesAt)}${list}${skeleton.slice(afterMessages, toolsAt)}[`,
        toolBytes,
        `]${skeleton.slice(afterTools)}`,
      )
    : assemble(
        `${skeleton.slice(0, toolsAt)}[`,
        toolBytes,
        `]${skeleton.slice(afterTools, messagesAt)}${list}${skeleton.slice(afterMessages)}`,
      );
}

function onlyPlace(text: string, mark: string): number {
  const at = text.indexOf(mark);
  return at !== -1 && text.indexOf(mark, at + mark.length) === -1 ? at : -1;
}

const COMMA = utf8.encode(',');
/** The last tool list's fragments and their bytes joined with commas (the same tools come on every call). */
let lastTools: { fragments: Uint8Array[]; joined: Uint8Array } | undefined;

function joinedTools(tools: NonNullable<EncodeChatRequestOptions['tools']>): Uint8Array {
  const fragments = tools.map(wireToolBytes);
  const last = lastTools;
  if (last && last.fragments.length === fragments.length && last.fragments.every((bytes, i) => bytes === fragments[i]))
    return last.joined;
  const parts: Uint8Array[] = [];
  fragments.forEach((bytes, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(bytes);
  });
  const joined = concat(parts);
  lastTools = { fragments, joined };
  return joined;
}

/** Room to encode text into before copying it out: one buffer for every call (text is at most 3 bytes a unit). */
let scratch = new Uint8Array(16_384);
const SCRATCH_LIMIT = 1_048_576;

/** UTF-8 of `before`, then `bytes`, then UTF-8 of `after`, in one array. */
function assemble(before: string, bytes: Uint8Array, after: string): Uint8Array {
  const most = 3 * (before.length + after.length);
  if (most > SCRATCH_LIMIT) return concat([utf8.encode(before), bytes, utf8.encode(after)]);
  if (scratch.length < most) scratch = new Uint8Array(Math.min(SCRATCH_LIMIT, Math.max(most, 2 * scratch.length)));
  const head = utf8.encodeInto(before, scratch).written;
  const tail = utf8.encodeInto(after, scratch.subarray(head)).written;
  const out = new Uint8Array(head + bytes.byteLength + tail);
  out.set(scratch.subarray(0, head), 0);
  out.set(bytes, head);
  out.set(scratch.subarray(head, head + tail), head + bytes.byteLength);
  return out;
}

/** The request object as buildChatRequest makes it, the reference encodeChatRequest's bytes equal. */
function fromScratch(options: EncodeChatRequestOptions) {
  const { messages, vision, includeReasoning, describeAttachment, ...rest } = options;
  return buildChatRequest({
    ...rest,
    messages: toWireMessages({ messages, vision, includeReasoning, describeAttachment }),
  });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
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
