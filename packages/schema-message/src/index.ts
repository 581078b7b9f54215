// @aalis/schema-message: the message shapes every package shares, the model-output shapes (stream deltas, finish
// reasons, usage, tool definitions), and the one tool-call grouping.
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
export type {
  FinishReason,
  ModelToolDefinition,
  ModelUsage,
  StreamDelta,
  ToolChoice,
} from './model-output.js';
export { type SequenceProblem, validateProviderSequence } from './provider-sequence.js';
export type { TurnOutcome, TurnRecord } from './turn-record.js';
