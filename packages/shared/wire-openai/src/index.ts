// @aalis/wire-openai: the OpenAI Chat Completions wire protocol — request building, Message[] ↔ wire messages,
// SSE parsing and stream assembly. Depends on @aalis/schema-message only; no Node-only imports (runs in browsers).
export { assembleCompletion } from './assemble-completion.js';
export {
  type BuildChatRequestOptions,
  buildChatRequest,
  OPENAI_THINKING_PARAM,
  type ThinkingParam,
  thinkingFields,
  type WireToolDefinition,
} from './build-chat-request.js';
export { ChatStreamDecoder, type ChatStreamDecoderOptions } from './chat-stream-decoder.js';
export { type EncodeChatRequestOptions, encodeChatRequest } from './encode-chat-request.js';
export { fromWireMessages } from './from-wire-messages.js';
export { SseParser, type SseParserOptions } from './sse-parser.js';
export { StreamAssembler } from './stream-assembler.js';
export type { AssembledResponse, AssembledUsage, FinishReason, WireStreamEvent } from './stream-events.js';
export { type ToWireMessagesOptions, toWireMessage, toWireMessages } from './to-wire-messages.js';
export {
  classifyWireError,
  isRetryableStatus,
  parseWireError,
  type WireError,
  type WireErrorClass,
  WireStreamError,
} from './wire-error.js';
export type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  WireContentPart,
  WireDelta,
  WireErrorBody,
  WireImagePart,
  WireMessage,
  WireModelList,
  WireTextPart,
  WireTool,
  WireToolCall,
  WireToolCallDelta,
  WireToolChoice,
  WireUsage,
} from './wire-types.js';
