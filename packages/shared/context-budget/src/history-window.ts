// The historyLimit window (会话设置项 「历史条数上限」): once the active history exceeds the limit, drop the earliest
// half of the limit (rounded up) in one go, then let it grow back to the limit. The start depends only on the
// active count and the limit, so between two drops the history sent to the model begins with the same messages.
import {
  groupToolCalls,
  type IncompleteToolGroup,
  isControlMessage,
  type Message,
  type OrphanToolResult,
} from '@aalis/schema-message';

/**
 * How many conversation messages (control messages excluded) to skip, from the earliest: 0 while the active count
 * is within the limit or the limit is 0; above it, whole halves of the limit (⌈limit / 2⌉), so that between
 * limit + 1 − ⌈limit / 2⌉ and limit messages remain.
 */
export function historyWindowStart(activeCount: number, limit: number): number {
  if (!Number.isInteger(activeCount) || activeCount < 0) {
    throw new RangeError(`historyWindowStart: activeCount must be an integer ≥ 0, got ${activeCount}.`);
  }
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`historyWindowStart: limit (historyLimit) must be an integer ≥ 0, got ${limit}.`);
  }
  if (limit === 0 || activeCount <= limit) return 0;
  const half = Math.ceil(limit / 2);
  return Math.ceil((activeCount - limit) / half) * half;
}

export interface ApplyHistoryWindowOptions {
  /** Active history in stored order, control messages included; or the slice after `skipped` conversation messages. */
  messages: readonly Message[];
  /** historyLimit; 0 = no limit. */
  limit: number;
  /** Conversation messages the memory service already left out before `messages[0]` (countHistory + slice read). */
  skipped?: number;
}

export interface HistoryWindow {
  /** What to send: a valid provider sequence without control messages. */
  messages: Message[];
  /** Conversation messages in the whole active history (skipped + those in `messages`). */
  activeCount: number;
  /** historyWindowStart(activeCount, limit). */
  start: number;
  /**
   * Results left without their call: those of a group whose head fell before the start, and true orphans.
   * Indices are into the `messages` given.
   */
  orphans: OrphanToolResult[];
  /** Groups whose results are missing; left out with the results they had. Indices are into `messages`. */
  incomplete: IncompleteToolGroup[];
}

/**
 * Applies the window to a loaded history: drops the conversation messages before the start (control messages are
 * never sent), then groups tool calls. A start inside a tool-call group drops the group's head, and its remaining
 * results go with it; messages that fell between the call and its results stay.
 */
export function applyHistoryWindow({ messages, limit, skipped = 0 }: ApplyHistoryWindowOptions): HistoryWindow {
  const conversationIndices: number[] = [];
  messages.forEach((message, index) => {
    if (!isControlMessage(message)) conversationIndices.push(index);
  });
  const activeCount = skipped + conversationIndices.length;
  const start = historyWindowStart(activeCount, limit);
  if (skipped > start) {
    throw new RangeError(
      `applyHistoryWindow: ${skipped} messages were skipped before the slice but the window starts at ${start}; read from historyWindowStart(activeCount, limit).`,
    );
  }
  const kept = conversationIndices.slice(start - skipped);
  const grouped = groupToolCalls(kept.map((index) => messages[index]!));
  return {
    messages: grouped.messages,
    activeCount,
    start,
    orphans: grouped.orphans.map((orphan) => ({ ...orphan, index: kept[orphan.index]! })),
    incomplete: grouped.incomplete.map((group) => ({ ...group, index: kept[group.index]! })),
  };
}
