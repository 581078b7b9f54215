// The three segments trimMessages works on (head, history, this turn), as entries that carry each message's
// source index, its groupToolCalls unit and its estimate. Segment membership is the caller's: roles cannot tell it.
import { groupToolCalls, isControlMessage, type Message } from '@aalis/schema-message';
import { estimateMessageTokens, type MessageTokenEstimator } from './estimate-tokens.js';
import { type HistoryTrimIndex, headGroupsAlone } from './history-trim-index.js';
import { type HistoryView, viewOfEntries } from './history-view.js';

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

/**
 * The segments with the history as a view: from the conversation's index when it can stand for the history (the
 * default estimator, a head without calls or results, a history without incomplete groups), else from scratch.
 * Grouping the three segments apart then equals grouping the whole list: no call of the head or the history looks
 * for a result past its own segment, and a later call never claims an earlier result.
 */
export function segmentsOf(
  messages: readonly Message[],
  segments: TrimSegments,
  estimator: MessageTokenEstimator,
  index: HistoryTrimIndex | undefined,
): { head: TrimEntry[]; history: HistoryView; turn: TrimEntry[] } {
  const { headEnd, historyEnd } = segments;
  if (index && estimator === estimateMessageTokens && headGroupsAlone(messages, headEnd)) {
    // A head without calls or results is one unit per message.
    const history = index.view(messages, headEnd, historyEnd, headEnd);
    if (history) {
      const head: TrimEntry[] = [];
      for (let source = 0; source < headEnd; source++) {
        const message = messages[source]!;
        if (isControlMessage(message)) continue;
        head.push({ message, source, unit: source, group: false, tokens: estimator(message) });
      }
      const turnStart = headEnd + history.unitCount;
      const grouped = groupToolCalls(messages.slice(historyEnd));
      const turn: TrimEntry[] = [];
      grouped.units.forEach((unit, unitIndex) => {
        for (let position = unit.start; position < unit.end; position++) {
          const message = grouped.messages[position]!;
          if (isControlMessage(message)) continue;
          turn.push({
            message,
            source: historyEnd + grouped.sourceIndex[position]!,
            unit: turnStart + unitIndex,
            group: unit.group,
            tokens: estimator(message),
          });
        }
      });
      return { head, history, turn };
    }
  }
  const { head, history, turn } = splitSegments(messages, segments, estimator);
  return { head, history: viewOfEntries(history), turn };
}
