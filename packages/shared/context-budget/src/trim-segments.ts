// The three segments trimMessages works on (head, history, this turn), as entries that carry each message's
// source index, its groupToolCalls unit and its estimate. Segment membership is the caller's: roles cannot tell it.
import { groupToolCalls, isControlMessage, type Message } from '@aalis/schema-message';
import { estimateMessageTokens, type MessageTokenEstimator } from './estimate-tokens.js';
import { type HistoryTrimIndex, headGroupsAlone } from './history-trim-index.js';
import { type HistoryView, viewOfEntries } from './history-view.js';
import type { HistorySegment } from './message-log.js';

/** Where the three segments of the list lie. Segment membership is not derivable from roles, so the caller says. */
export interface TrimSegments {
  /** The head is [0, headEnd): the first system message and the blocks before the first history message. */
  headEnd: number;
  /** History is [headEnd, historyEnd); this turn is [historyEnd, messages.length). */
  historyEnd: number;
}

/**
 * A call's list given as its parts instead of one array: the head (the first system message and the blocks before
 * the history), the history as a segment of its log, this turn. The list is not built unless the trim falls back
 * to grouping it whole; its indices (inputs, instructions, sources) are those of head, history and turn side by side.
 */
export interface TrimParts {
  head: readonly Message[];
  history: HistorySegment;
  turn: readonly Message[];
}

/** The list being trimmed, however it was given: read by position, built whole only when asked. */
export interface CallList {
  readonly length: number;
  readonly headEnd: number;
  readonly historyEnd: number;
  readonly head: readonly Message[];
  readonly turn: readonly Message[];
  /** The history as a log segment (parts given), else undefined: it is list[headEnd, historyEnd). */
  readonly history: HistorySegment | undefined;
  at(index: number): Message | undefined;
  toArray(): readonly Message[];
}

export function listOfArray(messages: readonly Message[], segments: TrimSegments): CallList {
  checkSegments(segments, messages.length);
  const { headEnd, historyEnd } = segments;
  return {
    length: messages.length,
    headEnd,
    historyEnd,
    head: messages.slice(0, headEnd),
    turn: messages.slice(historyEnd),
    history: undefined,
    at: (index) => messages[index],
    toArray: () => messages,
  };
}

export function listOfParts({ head, history, turn }: TrimParts): CallList {
  const headEnd = head.length;
  const historyEnd = headEnd + history.length;
  let array: Message[] | undefined;
  return {
    length: historyEnd + turn.length,
    headEnd,
    historyEnd,
    head,
    turn,
    history,
    at: (index) =>
      index < headEnd ? head[index] : index < historyEnd ? history.at(index - headEnd) : turn[index - historyEnd],
    toArray: () => {
      array ??= [...head, ...history.toArray(), ...turn];
      return array;
    },
  };
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

export function defaultInputs({ turn, historyEnd }: CallList): number[] {
  const indices: number[] = [];
  for (let index = 0; index < turn.length; index++) if (turn[index]!.role === 'user') indices.push(historyEnd + index);
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
  list: CallList,
  estimator: MessageTokenEstimator,
  index: HistoryTrimIndex | undefined,
): { head: TrimEntry[]; history: HistoryView; turn: TrimEntry[] } {
  const { headEnd, historyEnd } = list;
  if (index && estimator === estimateMessageTokens && headGroupsAlone(list.head, headEnd)) {
    // A head without calls or results is one unit per message.
    const history = list.history
      ? index.segmentView(list.history, headEnd, headEnd)
      : index.view(list.toArray(), headEnd, historyEnd, headEnd);
    if (history) {
      const head: TrimEntry[] = [];
      for (let source = 0; source < headEnd; source++) {
        const message = list.head[source]!;
        if (isControlMessage(message)) continue;
        head.push({ message, source, unit: source, group: false, tokens: estimator(message) });
      }
      const turnStart = headEnd + history.unitCount;
      const turn: TrimEntry[] = [];
      if (headGroupsAlone(list.turn, list.turn.length)) {
        // No call and no result (a turn's first call): groupToolCalls would give one unit per message, in order.
        for (let position = 0; position < list.turn.length; position++) {
          const message = list.turn[position]!;
          if (isControlMessage(message)) continue;
          turn.push({
            message,
            source: historyEnd + position,
            unit: turnStart + position,
            group: false,
            tokens: estimator(message),
          });
        }
        return { head, history, turn };
      }
      const grouped = groupToolCalls(list.turn);
      for (let unitIndex = 0; unitIndex < grouped.units.length; unitIndex++) {
        const unit = grouped.units[unitIndex]!;
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
      }
      return { head, history, turn };
    }
  }
  const { head, history, turn } = splitSegments(list.toArray(), { headEnd, historyEnd }, estimator);
  return { head, history: viewOfEntries(history), turn };
}
