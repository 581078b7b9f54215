// Checks the shape of a message before it is stored, so every backend refuses the same bad input the same way.
import { describeReceived } from '@aalis/core';
import { isPlainObject, type Message } from '@aalis/schema-message';
import { memoryErrors } from './memory-errors.js';

export interface MessageIssue {
  field: string;
  expected: string;
  received: string;
}

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
const ATTACHMENT_TYPES: ReadonlySet<string> = new Set(['image', 'file', 'audio', 'video']);
const OPTIONAL_STRINGS = ['toolCallId', 'name', 'reasoningContent', 'kind', 'id'] as const;

const issue = (field: string, expected: string, value: unknown): MessageIssue => ({
  field,
  expected,
  received: describeReceived(value),
});

/** The first problem of a message's shape, or undefined when it can be stored. */
export function messageIssue(message: unknown): MessageIssue | undefined {
  if (!isPlainObject(message)) return issue('(message)', 'an object', message);
  if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
    return issue('role', 'one of "system", "user", "assistant", "tool"', message.role);
  }
  if (typeof message.content !== 'string') return issue('content', 'a string', message.content);
  for (const field of OPTIONAL_STRINGS) {
    const value = message[field];
    if (value !== undefined && typeof value !== 'string') return issue(field, 'a string', value);
  }
  if (
    message.timestamp !== undefined &&
    (typeof message.timestamp !== 'number' || !Number.isFinite(message.timestamp))
  ) {
    return issue('timestamp', 'a finite number (milliseconds since the epoch)', message.timestamp);
  }
  return toolCallsIssue(message.toolCalls) ?? attachmentsIssue(message.attachments) ?? metadataIssue(message.metadata);
}

function toolCallsIssue(toolCalls: unknown): MessageIssue | undefined {
  if (toolCalls === undefined) return undefined;
  if (!Array.isArray(toolCalls)) return issue('toolCalls', 'an array of tool calls', toolCalls);
  for (const [index, call] of toolCalls.entries()) {
    const valid =
      isPlainObject(call) &&
      typeof call.id === 'string' &&
      call.type === 'function' &&
      isPlainObject(call.function) &&
      typeof call.function.name === 'string' &&
      typeof call.function.arguments === 'string';
    if (!valid) {
      return issue(
        `toolCalls.${index}`,
        "{ id: string, type: 'function', function: { name: string, arguments: string } }",
        call,
      );
    }
  }
  return undefined;
}

function attachmentsIssue(attachments: unknown): MessageIssue | undefined {
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments)) return issue('attachments', 'an array of attachments', attachments);
  for (const [index, attachment] of attachments.entries()) {
    if (!isPlainObject(attachment) || typeof attachment.type !== 'string' || !ATTACHMENT_TYPES.has(attachment.type)) {
      return issue(`attachments.${index}`, 'an attachment with type image, file, audio or video', attachment);
    }
  }
  return undefined;
}

function metadataIssue(metadata: unknown): MessageIssue | undefined {
  if (metadata === undefined) return undefined;
  if (!isPlainObject(metadata)) return issue('metadata', 'a plain object', metadata);
  try {
    JSON.stringify(metadata);
  } catch {
    return { field: 'metadata', expected: 'JSON-serialisable values', received: 'a value JSON cannot encode' };
  }
  return undefined;
}

/** Throws AALIS_MEMORY_MESSAGE_INVALID for the first invalid message of a batch. */
export function assertValidMessages(sessionId: string, messages: readonly Message[]): void {
  if (!Array.isArray(messages)) {
    throw memoryErrors.AALIS_MEMORY_ARGUMENT_INVALID({
      operation: 'append',
      argument: 'messages',
      expected: 'an array of messages',
      received: describeReceived(messages),
    });
  }
  messages.forEach((message, index) => {
    const problem = messageIssue(message);
    if (problem) throw memoryErrors.AALIS_MEMORY_MESSAGE_INVALID({ sessionId, index, ...problem });
  });
}

/** Throws AALIS_MEMORY_ARGUMENT_INVALID unless `value` is a non-empty string. */
export function assertNonEmptyString(operation: string, argument: string, value: unknown): asserts value is string {
  if (typeof value === 'string' && value.length > 0) return;
  throw memoryErrors.AALIS_MEMORY_ARGUMENT_INVALID({
    operation,
    argument,
    expected: 'a non-empty string',
    received: describeReceived(value),
  });
}

/** Throws AALIS_MEMORY_ARGUMENT_INVALID unless `from` is absent or a non-negative integer. */
export function assertReadFrom(from: unknown): void {
  if (from === undefined || (typeof from === 'number' && Number.isInteger(from) && from >= 0)) return;
  throw memoryErrors.AALIS_MEMORY_ARGUMENT_INVALID({
    operation: 'read',
    argument: 'options.from',
    expected: 'a non-negative integer',
    received: describeReceived(from),
  });
}
