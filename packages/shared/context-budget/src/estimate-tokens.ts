// The one token estimator for texts, messages, tool calls and reasoning (agent, usage events, Pling); tool
// definitions are in estimate-tool-definition-tokens.ts.
// A single pass over char codes with weights calibrated against o200k; per-message results are cached.
import { isControlMessage, type Message, type ToolCall } from '@aalis/schema-message';
import { countTextFeatures, FEATURE_COUNT } from './text-features.js';
import { TOKEN_WEIGHTS } from './token-weights.js';

/** Per message: the role and the separators around it (OpenAI counts 3 + the role). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Per tool call on an assistant message, besides its name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/** Per image attachment the provider receives as an image (OpenAI's figure for a 1024×1024 high-detail image). */
export const IMAGE_TOKENS = 765;

/** Estimates one message; trimMessages accepts any function of this shape. */
export type MessageTokenEstimator = (message: Message) => number;

const scratch = new Float64Array(FEATURE_COUNT);

/**
 * Texts at least this long keep their estimate by content (see rawTextTokens); a shorter one is counted again,
 * which costs about what the lookup would.
 */
export const TEXT_CACHE_MIN_CHARS = 32;
/** Texts longer than this are counted every time (keeping one would hold a large string for little gain). */
export const TEXT_CACHE_MAX_CHARS = 32_768;
/** A generation of remembered texts holds at most this many characters and this many texts. */
export const TEXT_CACHE_GENERATION_CHARS = 262_144;
export const TEXT_CACHE_GENERATION_TEXTS = 2048;
/** Two generations: a text found in the older one moves to the newer; the older is dropped when the newer fills. */
let recentTexts = new Map<string, number>();
let olderTexts = new Map<string, number>();
let recentChars = 0;

/**
 * Unrounded estimate, so that parts of one message add up before rounding. The figure depends on the text alone,
 * and the same texts come back on every call (the system prompt rebuilt each turn, the history's own copies of
 * the turn's messages, the usage breakdown's category texts): a text is counted once and then found by content.
 */
function rawTextTokens(text: string): number {
  const length = text.length;
  if (length < TEXT_CACHE_MIN_CHARS || length > TEXT_CACHE_MAX_CHARS) return length === 0 ? 0 : countText(text);
  const recent = recentTexts.get(text);
  if (recent !== undefined) return recent;
  const raw = olderTexts.get(text) ?? countText(text);
  if (recentChars + length > TEXT_CACHE_GENERATION_CHARS || recentTexts.size >= TEXT_CACHE_GENERATION_TEXTS) {
    olderTexts = recentTexts;
    recentTexts = new Map();
    recentChars = 0;
  }
  recentTexts.set(text, raw);
  recentChars += length;
  return raw;
}

function countText(text: string): number {
  scratch.fill(0);
  countTextFeatures(text, scratch);
  let total = 0;
  for (let index = 0; index < FEATURE_COUNT; index++) {
    const count = scratch[index]!;
    if (count !== 0) total += count * TOKEN_WEIGHTS[index]!;
  }
  return total;
}

/** Tokens of a plain text (no message overhead). Non-empty text is at least one token. */
export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  return Math.max(1, Math.round(rawTextTokens(text)));
}

interface CachedEstimate {
  content: string;
  reasoning: string | undefined;
  toolCalls: readonly ToolCall[] | undefined;
  /** Name and arguments of each call when estimated, to notice calls edited in place. */
  callTexts: string[];
  attachments: Message['attachments'];
  attachmentCount: number;
  tokens: number;
}

const messageCache = new WeakMap<Message, CachedEstimate>();

/**
 * Tokens one message costs in a request: overhead, content, reasoning, tool calls (name + arguments) and
 * attachments (an image with a payload counts IMAGE_TOKENS, other attachments their description). Cached per
 * message object; the cache entry is checked against the message's current fields, so a message edited in place
 * is estimated again.
 */
export function estimateMessageTokens(message: Message): number {
  const cached = messageCache.get(message);
  if (cached && isFresh(cached, message)) return cached.tokens;
  const callTexts: string[] = [];
  const tokens = measureMessage(message, callTexts);
  messageCache.set(message, {
    content: message.content,
    reasoning: message.reasoningContent,
    toolCalls: message.toolCalls,
    callTexts,
    attachments: message.attachments,
    attachmentCount: message.attachments?.length ?? 0,
    tokens,
  });
  return tokens;
}

/**
 * estimateMessageTokens' figure without caching it, for a caller that keeps the figure itself (the trim index over
 * a long history: a cache entry per history message would be ~100 bytes of heap each for the GC to trace).
 */
export function estimateMessageTokensUncached(message: Message): number {
  const cached = messageCache.get(message);
  if (cached && isFresh(cached, message)) return cached.tokens;
  return measureMessage(message, undefined);
}

/** The estimate (see estimateMessageTokens); the calls' names and arguments go to `callTexts` when given. */
function measureMessage(message: Message, callTexts: string[] | undefined): number {
  let raw = rawTextTokens(message.content);
  if (message.reasoningContent) raw += rawTextTokens(message.reasoningContent);
  let overhead = MESSAGE_OVERHEAD_TOKENS;
  // Indexed loops: on a process that has made few calls this runs unoptimised, where for…of allocates per step.
  const calls = message.toolCalls;
  for (let index = 0; calls !== undefined && index < calls.length; index++) {
    const call = calls[index]!;
    overhead += TOOL_CALL_OVERHEAD_TOKENS;
    raw += rawTextTokens(call.function.name) + rawTextTokens(call.function.arguments);
    callTexts?.push(call.function.name, call.function.arguments);
  }
  const attachments = message.attachments;
  for (let index = 0; attachments !== undefined && index < attachments.length; index++) {
    const attachment = attachments[index]!;
    const isImage = attachment.type === 'image' && (attachment.url !== undefined || attachment.data !== undefined);
    if (isImage) overhead += IMAGE_TOKENS;
    else if (attachment.description) raw += rawTextTokens(attachment.description);
  }
  return overhead + Math.round(raw);
}

function isFresh(cached: CachedEstimate, message: Message): boolean {
  if (cached.content !== message.content || cached.reasoning !== message.reasoningContent) return false;
  if (cached.toolCalls !== message.toolCalls || cached.attachments !== message.attachments) return false;
  if (cached.attachmentCount !== (message.attachments?.length ?? 0)) return false;
  const calls = message.toolCalls;
  if (!calls) return true;
  if (calls.length * 2 !== cached.callTexts.length) return false;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    if (
      call.function.name !== cached.callTexts[index * 2] ||
      call.function.arguments !== cached.callTexts[index * 2 + 1]
    ) {
      return false;
    }
  }
  return true;
}

/** Sum over the messages that are sent: control messages (CONTROL_KINDS) are never sent and count nothing. */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (!isControlMessage(message)) total += estimateMessageTokens(message);
  }
  return total;
}
