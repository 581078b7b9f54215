// An append-only list of a conversation's messages and the history segments read from it, so a trim index can
// trust what it indexed from the same log by identity and length alone (no pass over the history per call), and a
// call's message list need not be built unless something asks for it. A rewrite of the history (a compaction, a
// rollback, a regroup) is a new log: what was indexed from the old one is checked again or rebuilt.
import type { Message } from '@aalis/schema-message';

/** Messages that can only be appended: the first `n` of a log never change while the log exists. */
export class MessageLog {
  private readonly items: Message[] = [];

  get length(): number {
    return this.items.length;
  }

  at(index: number): Message | undefined {
    return this.items[index];
  }

  append(messages: readonly Message[]): void {
    for (const message of messages) this.items.push(message);
  }

  /** The first `length` messages (default: all of them now) followed by `tail`, as one history segment. */
  segment(length = this.items.length, tail: readonly Message[] = []): HistorySegment {
    return new HistorySegment(this, Math.min(length, this.items.length), tail);
  }
}

/**
 * A history segment: the first `logLength` messages of a log as they were when it was taken (later appends are
 * not part of it), then `tail`. Read by position in O(1); the array is built only when asked for, and kept.
 */
export class HistorySegment {
  private array: Message[] | undefined;

  constructor(
    readonly log: MessageLog,
    readonly logLength: number,
    readonly tail: readonly Message[],
  ) {}

  get length(): number {
    return this.logLength + this.tail.length;
  }

  at(index: number): Message | undefined {
    if (index < 0) return undefined;
    return index < this.logLength ? this.log.at(index) : this.tail[index - this.logLength];
  }

  /** The segment as one array (built on the first call: O(length)). */
  toArray(): Message[] {
    if (!this.array) {
      const array = new Array<Message>(this.length);
      for (let index = 0; index < this.logLength; index++) array[index] = this.log.at(index)!;
      for (let index = 0; index < this.tail.length; index++) array[this.logLength + index] = this.tail[index]!;
      this.array = array;
    }
    return this.array;
  }
}
