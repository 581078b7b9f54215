// Normalises the argument of MemoryService.clear into the 'memory:clear' context value.
import { describeReceived } from '@aalis/core';
import { memoryErrors } from './memory-errors.js';

/** `undefined` → every session; a string → that one; a list → those (deduplicated, in order). */
export function clearTargets(sessionIds: string | readonly string[] | undefined): readonly string[] | undefined {
  if (sessionIds === undefined) return undefined;
  const list = typeof sessionIds === 'string' ? [sessionIds] : sessionIds;
  if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' || id.length === 0)) {
    throw memoryErrors.AALIS_MEMORY_ARGUMENT_INVALID({
      operation: 'clear',
      argument: 'sessionIds',
      expected: 'a non-empty string, an array of them, or nothing (= every session)',
      received: describeReceived(sessionIds),
    });
  }
  return [...new Set(list)];
}
