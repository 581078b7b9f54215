// An incremental copy of what trimMessages computes over a session's history segment (groupToolCalls units, the
// estimates, their prefix sums), so a call over a history that only grew since the last one does work for the new
// messages and what is sent, not for the whole history. It gives exactly the from-scratch result: it holds only
// frozen messages (unchanged while the same object is in the list), checks each by identity before reusing it, and
// declines — the trim then works from scratch — whenever grouping the segment alone could differ from grouping the
// whole list.
import { groupToolCalls, hasToolCalls, isControlMessage, type Message } from '@aalis/schema-message';
import { estimateMessageTokensUncached } from './estimate-tokens.js';
import { HistoryView } from './history-view.js';
import type { HistorySegment, MessageLog } from './message-log.js';

/**
 * Freezes a message where trimming reads it (the message, its calls and their functions, its attachments, its
 * metadata), in place, and returns it. A frozen message cannot change between two calls, so the index may reuse
 * what it computed for it by identity alone (reading a field of every history message per call costs more than
 * the whole trim of what is sent).
 */
export function freezeMessage<T extends Message>(message: T): T {
  // Indexed loops: every appended message passes here, on a young process unoptimised (for…of allocates per step).
  const calls = message.toolCalls;
  if (calls) {
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index]!;
      Object.freeze(call.function);
      Object.freeze(call);
    }
    Object.freeze(calls);
  }
  const attachments = message.attachments;
  if (attachments) {
    for (let index = 0; index < attachments.length; index++) Object.freeze(attachments[index]);
    Object.freeze(attachments);
  }
  if (message.metadata) Object.freeze(message.metadata);
  return Object.freeze(message);
}

/** Whether every field trimming reads is frozen (what freezeMessage does). */
function isFrozenForTrim(message: Message): boolean {
  if (!Object.isFrozen(message)) return false;
  const calls = message.toolCalls;
  if (calls) {
    if (!Object.isFrozen(calls)) return false;
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index]!;
      if (!Object.isFrozen(call) || !Object.isFrozen(call.function)) return false;
    }
  }
  const attachments = message.attachments;
  if (attachments) {
    if (!Object.isFrozen(attachments)) return false;
    for (let index = 0; index < attachments.length; index++) if (!Object.isFrozen(attachments[index])) return false;
  }
  return true;
}

/**
 * One per conversation (the agent keeps one per session). Pass it as TrimOptions.historyIndex; it is only used with
 * the default estimator (estimateMessageTokens), and only for a history of frozen messages (freezeMessage): a
 * segment with a message that could have been edited in place is trimmed from scratch.
 */
export class HistoryTrimIndex {
  /** The history segment's messages as indexed. */
  private readonly source: Message[] = [];
  // Entries (control messages left out) in grouped order.
  private readonly messages: Message[] = [];
  private readonly sources: number[] = [];
  private readonly units: number[] = [];
  private readonly groups: boolean[] = [];
  private readonly tokens: number[] = [];
  private readonly prefix: number[] = [0];
  private readonly unitEnd: number[] = [];
  private unitCount = 0;
  /** The log the held messages were read from, and how many of its first messages they are (see segmentView). */
  private log: MessageLog | undefined;
  private trusted = 0;
  /** Messages added since creation or the last rebuild (for tests and benchmarks). */
  indexedMessages = 0;
  /** How often what was held had to be dropped and indexed again (for tests and benchmarks). */
  rebuilds = 0;

  /**
   * The view of `list[start, end)` for trimMessages, or undefined when grouping the segment alone may differ from
   * grouping the whole list (an incomplete tool-call group in the segment). What is held is checked against the
   * list by identity (a pass over the history); a segment of a MessageLog (segmentView) skips that pass.
   */
  view(list: readonly Message[], start: number, end: number, unitOffset: number): HistoryView | undefined {
    this.log = undefined;
    this.trusted = 0;
    return this.grown(end - start, (index) => list[start + index]!, start, unitOffset);
  }

  /**
   * The view of a history segment read from a MessageLog. The log only grows, so what was indexed from its first
   * messages is still them: only what was indexed past the part of the log it trusts (an earlier segment's tail) is
   * checked by identity, and only the messages added since are indexed — the work is what is new, not the history.
   */
  segmentView(segment: HistorySegment, sourceOffset: number, unitOffset: number): HistoryView | undefined {
    const trusted = this.log === segment.log ? Math.min(this.trusted, segment.logLength) : 0;
    const view = this.grown(segment.length, (index) => segment.at(index)!, sourceOffset, unitOffset, trusted);
    if (view) {
      this.log = segment.log;
      this.trusted = segment.logLength;
    }
    return view;
  }

  /** Grows (or rebuilds) the index to `length` messages read by `at`, the first `trusted` known to be held. */
  private grown(
    length: number,
    at: (index: number) => Message,
    sourceOffset: number,
    unitOffset: number,
    trusted = 0,
  ): HistoryView | undefined {
    if (!(this.source.length <= length && this.holds(at, trusted))) this.reset();
    if (this.source.length < length) {
      const added: Message[] = new Array(length - this.source.length);
      for (let index = this.source.length; index < length; index++) added[index - this.source.length] = at(index);
      if (!this.add(added)) {
        this.reset();
        return undefined;
      }
    }
    return new HistoryView(
      {
        messages: this.messages,
        sources: this.sources,
        units: this.units,
        groups: this.groups,
        tokens: this.tokens,
        monotonic: true, // estimateMessageTokens is at least the message overhead
        unitCount: this.unitCount,
        prefix: this.prefix,
        unitEnd: this.unitEnd,
      },
      sourceOffset,
      unitOffset,
    );
  }

  /** Whether the messages held from `from` on are those `at` reads, the same objects. */
  private holds(at: (index: number) => Message, from: number): boolean {
    for (let index = from; index < this.source.length; index++) if (at(index) !== this.source[index]) return false;
    return true;
  }

  /**
   * Appends messages. Grouping them alone gives what grouping the whole segment gives as long as the messages held
   * so far have no incomplete group (no earlier call can claim a later result) — true for every state kept.
   */
  private add(added: readonly Message[]): boolean {
    for (let index = 0; index < added.length; index++) if (!isFrozenForTrim(added[index]!)) return false;
    const grouped = groupToolCalls(added);
    if (grouped.incomplete.length > 0) return false;
    const base = this.source.length;
    for (let index = 0; index < added.length; index++) this.source.push(added[index]!);
    this.indexedMessages += added.length;
    for (let position = 0; position < grouped.units.length; position++) {
      const unit = grouped.units[position]!;
      const unitIndex = this.unitCount++;
      const first = this.messages.length;
      for (let index = unit.start; index < unit.end; index++) {
        const message = grouped.messages[index]!;
        if (isControlMessage(message)) continue;
        // Kept here, so not in the estimate cache as well (one entry per history message).
        const tokens = estimateMessageTokensUncached(message);
        this.messages.push(message);
        this.sources.push(base + grouped.sourceIndex[index]!);
        this.units.push(unitIndex);
        this.groups.push(unit.group);
        this.tokens.push(tokens);
        this.prefix.push(this.prefix[this.prefix.length - 1]! + tokens);
      }
      for (let index = first; index < this.messages.length; index++) this.unitEnd.push(this.messages.length - 1);
    }
    return true;
  }

  private reset(): void {
    if (this.source.length > 0) this.rebuilds++;
    for (const array of [
      this.source,
      this.messages,
      this.sources,
      this.units,
      this.groups,
      this.tokens,
      this.unitEnd,
    ]) {
      array.length = 0;
    }
    this.prefix.length = 1;
    this.unitCount = 0;
    this.log = undefined;
    this.trusted = 0;
    this.indexedMessages = 0;
  }
}

/** The head may take part in grouping only when it holds no call and no result (true for system blocks). */
export function headGroupsAlone(messages: readonly Message[], headEnd: number): boolean {
  for (let index = 0; index < headEnd; index++) {
    const message = messages[index]!;
    if (message.role === 'tool' || hasToolCalls(message)) return false;
  }
  return true;
}
