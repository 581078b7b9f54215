// The single implementation of tool-call grouping. History loading, trimming, historyLimit cuts and compaction
// all go through it, so an invalid provider sequence cannot be produced by any of them.
import { hasToolCalls, type Message } from './message.js';

/** A slice [start, end) of GroupedMessages.messages that must be kept or dropped whole. */
export interface MessageUnit {
  start: number;
  end: number;
  /** True when the unit is an assistant with tool calls followed by all its results. */
  group: boolean;
}

export interface IncompleteToolGroup {
  /** Index of the assistant message in the input. */
  index: number;
  assistant: Message;
  /** Call ids without a result. */
  missing: string[];
  /** Results that were found but left out with their incomplete group. */
  results: Message[];
}

export interface OrphanToolResult {
  index: number;
  message: Message;
}

export interface GroupedMessages {
  /** A valid provider sequence: every group complete and contiguous, no orphan tool results. */
  messages: Message[];
  /** `messages` split into whole units, in order. */
  units: MessageUnit[];
  /** For each output message, its index in the input. */
  sourceIndex: number[];
  incomplete: IncompleteToolGroup[];
  orphans: OrphanToolResult[];
}

/**
 * Groups each assistant-with-toolCalls message with its tool results (in call order), moves messages that fall
 * between a call and its results to after the group, leaves out incomplete groups and orphan results, and reports
 * both. The input is not mutated.
 */
export function groupToolCalls(messages: readonly Message[]): GroupedMessages {
  if (!hasCallsOrResults(messages)) return ungrouped(messages);
  const claimedBy = new Map<number, number>(); // tool message index -> assistant index
  const resultsOf = new Map<number, number[]>(); // assistant index -> result indices in call order
  const incomplete: IncompleteToolGroup[] = [];

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (!hasToolCalls(message)) continue;
    const found: number[] = [];
    const missing: string[] = [];
    const seenIds = new Set<string>();
    for (const call of message.toolCalls) {
      if (seenIds.has(call.id)) continue; // a duplicated call id is answered once
      seenIds.add(call.id);
      const resultIndex = findResult(messages, index + 1, call.id, claimedBy);
      if (resultIndex === -1) missing.push(call.id);
      else found.push(resultIndex);
    }
    for (const resultIndex of found) claimedBy.set(resultIndex, index);
    if (missing.length > 0) {
      incomplete.push({ index, assistant: message, missing, results: found.map((i) => messages[i]!) });
    } else {
      resultsOf.set(index, found);
    }
  }

  const output: Message[] = [];
  const sourceIndex: number[] = [];
  const units: MessageUnit[] = [];
  const orphans: OrphanToolResult[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      if (!claimedBy.has(index)) orphans.push({ index, message });
      continue;
    }
    if (hasToolCalls(message)) {
      const results = resultsOf.get(index);
      if (!results) continue; // incomplete: reported above
      const start = output.length;
      output.push(message);
      sourceIndex.push(index);
      for (const resultIndex of results) {
        output.push(messages[resultIndex]!);
        sourceIndex.push(resultIndex);
      }
      units.push({ start, end: output.length, group: true });
      continue;
    }
    units.push({ start: output.length, end: output.length + 1, group: false });
    output.push(message);
    sourceIndex.push(index);
  }
  return { messages: output, units, sourceIndex, incomplete, orphans };
}

function hasCallsOrResults(messages: readonly Message[]): boolean {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool' || hasToolCalls(message)) return true;
  }
  return false;
}

/**
 * What the grouping gives a list without calls and results (most appends, a turn's first call): one unit per
 * message, in order, without the claim maps.
 */
function ungrouped(messages: readonly Message[]): GroupedMessages {
  const output: Message[] = new Array(messages.length);
  const sourceIndex: number[] = new Array(messages.length);
  const units: MessageUnit[] = new Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    output[index] = messages[index]!;
    sourceIndex[index] = index;
    units[index] = { start: index, end: index + 1, group: false };
  }
  return { messages: output, units, sourceIndex, incomplete: [], orphans: [] };
}

function findResult(messages: readonly Message[], from: number, callId: string, claimed: Map<number, number>): number {
  for (let index = from; index < messages.length; index++) {
    const candidate = messages[index]!;
    if (candidate.role === 'tool' && candidate.toolCallId === callId && !claimed.has(index)) return index;
  }
  return -1;
}
