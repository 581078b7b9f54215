// The history segment as trimMessages reads it: entries in grouped order with prefix sums of their estimates and
// the end of each entry's groupToolCalls unit, so steps 1 and 3 find their cut without walking the history and
// only the entries from the cut on (what is sent) are materialised.
import { historyCut } from './history-cut.js';
import type { TrimEntry } from './trim-segments.js';

export interface HistoryEntries {
  messages: readonly TrimEntry['message'][];
  /** Index of each entry's message in the history segment (grouped order can differ from the segment's). */
  sources: readonly number[];
  /** groupToolCalls unit of each entry, counted from the segment's first unit. */
  units: readonly number[];
  groups: readonly boolean[];
  tokens: readonly number[];
  /** No estimate is negative (a custom estimator could return one): the cut can be found by bisection. */
  monotonic: boolean;
  /** Units of the segment (control-only units included). */
  unitCount: number;
  /** prefix[i] = tokens of entries [0, i); prefix.length = entries + 1. */
  prefix: readonly number[];
  /** Index of the last entry of the unit each entry belongs to. */
  unitEnd: readonly number[];
}

export class HistoryView {
  readonly length: number;
  readonly tokens: number;
  readonly unitCount: number;

  constructor(
    private readonly entries: HistoryEntries,
    /** Index of the segment's first message in the caller's list. */
    private readonly sourceOffset: number,
    /** Units before the segment (the head's), so unit numbers are those groupToolCalls gives the whole list. */
    private readonly unitOffset: number,
  ) {
    this.length = entries.messages.length;
    this.tokens = entries.prefix[this.length]!;
    this.unitCount = entries.unitCount;
  }

  tokensBefore(index: number): number {
    return this.entries.prefix[index]!;
  }

  /**
   * How many entries to drop, from the earliest, so that the dropped tokens first reach `target`; a cut inside a
   * unit takes the rest of the unit; everything when the history never reaches it (see historyCut).
   */
  cut(target: number): number {
    if (target <= 0) return 0;
    const { prefix, unitEnd } = this.entries;
    if (!this.entries.monotonic) return historyCut(this.entries.tokens, unitEnd, target);
    if (prefix[this.length]! < target) return this.length;
    // No estimate is negative, so prefix is non-decreasing: the first entry whose running total reaches it.
    let low = 0;
    let high = this.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (prefix[middle + 1]! >= target) high = middle;
      else low = middle + 1;
    }
    return unitEnd[low]! + 1;
  }

  /** Index of the first entry of the last unit (0 without entries). */
  lastUnitStart(): number {
    const { units } = this.entries;
    let first = this.length - 1;
    if (first <= 0) return 0;
    while (first > 0 && units[first - 1] === units[this.length - 1]) first--;
    return first;
  }

  /** Appends the messages and estimates of entries [start, length) to the given arrays (no entry objects). */
  appendFrom(start: number, messages: TrimEntry['message'][], tokens: number[]): void {
    const entries = this.entries;
    for (let index = start; index < this.length; index++) {
      messages.push(entries.messages[index]!);
      tokens.push(entries.tokens[index]!);
    }
  }

  /** Entries [start, length) as trim entries with sources and units of the caller's list. */
  entriesFrom(start: number): TrimEntry[] {
    const { messages, sources, units, groups, tokens } = this.entries;
    const output: TrimEntry[] = new Array(Math.max(0, this.length - start));
    for (let index = start; index < this.length; index++) {
      output[index - start] = {
        message: messages[index]!,
        source: sources[index]! + this.sourceOffset,
        unit: units[index]! + this.unitOffset,
        group: groups[index]!,
        tokens: tokens[index]!,
      };
    }
    return output;
  }
}

/** The view of entries computed from scratch (splitSegments' history), sources and units already absolute. */
export function viewOfEntries(history: readonly TrimEntry[]): HistoryView {
  const prefix = new Array<number>(history.length + 1);
  prefix[0] = 0;
  for (let index = 0; index < history.length; index++) {
    prefix[index + 1] = prefix[index]! + history[index]!.tokens;
  }
  const unitEnd = new Array<number>(history.length);
  for (let index = history.length - 1; index >= 0; index--) {
    const next = history[index + 1];
    unitEnd[index] = next && next.unit === history[index]!.unit ? unitEnd[index + 1]! : index;
  }
  return new HistoryView(
    {
      messages: history.map((entry) => entry.message),
      sources: history.map((entry) => entry.source),
      units: history.map((entry) => entry.unit),
      groups: history.map((entry) => entry.group),
      tokens: history.map((entry) => entry.tokens),
      monotonic: history.every((entry) => entry.tokens >= 0),
      unitCount: 0, // sources and units are already those of the caller's list
      prefix,
      unitEnd,
    },
    0,
    0,
  );
}
