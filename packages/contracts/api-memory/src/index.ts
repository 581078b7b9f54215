// @aalis/api-memory: the memory service contract: per-session append-only history with an active part after the
// last compression divider, conversation-message counts, and clearing through the 'memory:clear' hook chain.
export { clearTargets } from './clear-targets.js';
export { memoryErrors } from './memory-errors.js';
export {
  type MemoryClearContext,
  type MemoryReadOptions,
  type MemorySearchHit,
  type MemorySearchOptions,
  type MemoryService,
  memory,
  type Supersession,
} from './memory-service.js';
export { turnIdOf } from './turn-id-of.js';
export {
  assertNonEmptyString,
  assertReadFrom,
  assertValidMessages,
  type MessageIssue,
  messageIssue,
} from './validate-message.js';
