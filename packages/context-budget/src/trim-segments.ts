// The three segments trimMessages works on (head, history, this turn), as entries that carry each message's
// source index, its groupToolCalls unit and its estimate. Segment membership is the caller's: roles cannot tell it.
import { groupToolCalls, isControlMessage, type Message } from '@aalis/schema-message';
import type { MessageTokenEstimator } from './estimate-tokens.js';

/** Where the three segments of the list lie. Segment membership is not derivable from roles, so the caller says. */
export interface TrimSegments {
  /** The head is [0, headEnd): the first system message and the blocks before the first history message. */
  headEnd: number;
  /** History is [headEnd, historyEnd); this turn is [historyEnd, messages.length). */
  historyEnd: number;
}

/** One message of the list being trimmed. */
export interface TrimEntry {
  message: Message;
  /** Index in the caller's list. */
  source: number;
  /** groupToolCalls unit the message belongs to. */
  unit: number;
  group: boolean;
  tokens: number;
}

export function checkSegments({ headEnd, historyEnd }: TrimSegments, length: number): void {
  if (
    !Number.isInteger(headEnd) ||
    !Number.isInteger(historyEnd) ||
    headEnd < 0 ||
    headEnd > historyEnd ||
    historyEnd > length
  ) {
    throw new RangeError(
      `trimMessages: segments must satisfy 0 ≤ headEnd ≤ historyEnd ≤ messages.length (${length}); got headEnd ${headEnd}, historyEnd ${historyEnd}.`,
    );
  }
}

export function defaultInputs(messages: readonly Message[], { historyEnd }: TrimSegments): number[] {
  const indices: number[] = [];
  for (let index = historyEnd; index < messages.length; index++)
    if (messages[index]!.role === 'user') indices.push(index);
  return indices;
}

/**
 * Groups the list with groupToolCalls (incomplete groups and orphan results are left out, as they would make an
 * invalid provider sequence), drops control messages, and files each unit under the segment of its first message.
 */
export function splitSegments(
  messages: readonly Message[],
  { headEnd, historyEnd }: TrimSegments,
  estimator: MessageTokenEstimator,
): { head: TrimEntry[]; history: TrimEntry[]; turn: TrimEntry[] } {
  const grouped = groupToolCalls(messages);
  const segments: [TrimEntry[], TrimEntry[], TrimEntry[]] = [[], [], []];
  let previous = 0;
  grouped.units.forEach((unit, unitIndex) => {
    const first = grouped.sourceIndex[unit.start]!;
    const segment = first < headEnd ? 0 : first < historyEnd ? 1 : 2;
    if (segment < previous) {
      throw new RangeError(
        `trimMessages: message ${first} falls before the segment of an earlier message; check segments.`,
      );
    }
    previous = segment;
    for (let index = unit.start; index < unit.end; index++) {
      const message = grouped.messages[index]!;
      if (isControlMessage(message)) continue;
      segments[segment].push({
        message,
        source: grouped.sourceIndex[index]!,
        unit: unitIndex,
        group: unit.group,
        tokens: estimator(message),
      });
    }
  });
  return { head: segments[0], history: segments[1], turn: segments[2] };
}

export function unitEnds(entries: readonly TrimEntry[]): number[] {
  const ends = new Array<number>(entries.length);
  for (let index = entries.length - 1; index >= 0; index--) {
    const next = entries[index + 1];
    ends[index] = next && next.unit === entries[index]!.unit ? ends[index + 1]! : index;
  }
  return ends;
}

export function firstOfUnit(entries: readonly TrimEntry[], index: number): number {
  let first = index;
  while (first > 0 && entries[first - 1]!.unit === entries[index]!.unit) first--;
  return first;
}
