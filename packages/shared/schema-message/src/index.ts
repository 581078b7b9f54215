// @aalis/schema-message: the message shapes every package shares, the model-output shapes (stream deltas, finish
// reasons, usage, tool definitions), the one tool-call grouping, and the one JSON Schema validator for arguments
// with its violation texts (zh-CN and en).
export { describeViolations } from './describe-violations.js';
export {
  type GroupedMessages,
  groupToolCalls,
  type IncompleteToolGroup,
  type MessageUnit,
  type OrphanToolResult,
} from './group-tool-calls.js';
export {
  type HostNotice,
  type Identity,
  type IncomingMessage,
  type OutgoingKind,
  type OutgoingMessage,
  type TriggerType,
  type TurnOrigin,
  wasAddressed,
} from './incoming-message.js';
export { isPlainObject } from './is-plain-object.js';
export type { JsonObjectSchema, JsonSchema, JsonSchemaType } from './json-schema.js';
export {
  type Attachment,
  CONTROL_KINDS,
  hasToolCalls,
  isControlMessage,
  type Message,
  type MessageKind,
  type Role,
  type ToolCall,
} from './message.js';
export { type TurnEntry, type WellKnownMetadataKey, WellKnownMetadataKeys } from './metadata-keys.js';
export { isModelImageType, MODEL_IMAGE_TYPES, type ModelImageType } from './model-image-types.js';
export type {
  FinishReason,
  ModelToolDefinition,
  ModelUsage,
  StreamDelta,
  ToolChoice,
} from './model-output.js';
export { type FlatText, isNoticeText, type NoticeText, renderNoticeText } from './notice-text.js';
export { type SequenceProblem, validateProviderSequence } from './provider-sequence.js';
export {
  SCHEMA_VIOLATION_TEXTS,
  type SchemaTextKey,
  type SchemaTextLocale,
} from './schema-violation-texts.js';
export type { TurnOutcome, TurnRecord } from './turn-record.js';
export { jsonEqual, type SchemaViolation, validateJsonSchema } from './validate-json-schema.js';
