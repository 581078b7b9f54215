// What a room adapter remembers between an inbound message and her reply: which message each turn answers (so a
// group reply quotes the message that addressed her) and which platform messages are hers (so a reply to one of
// them addresses her). Bounded: old entries fall out first.
import type { TurnInput } from '@aalis/api-agent';
import { wasAddressed } from '@aalis/schema-message';

/** A small insertion-ordered map that forgets its oldest entries past `capacity`. */
class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
  get(key: K): V | undefined {
    return this.entries.get(key);
  }
  delete(key: K): void {
    this.entries.delete(key);
  }
}

export class RoomMemory {
  private readonly quotes = new BoundedMap<string, string>(2_000);
  private readonly own = new BoundedMap<string, true>(10_000);

  constructor(private readonly platform: string) {}

  /**
   * At the start of a turn: the message its reply quotes is the latest input of this platform that addressed
   * her and has a message id (joined inputs come later and do not move the quote).
   */
  turnStarted(turnId: string, inputs: readonly TurnInput[]): void {
    for (let index = inputs.length - 1; index >= 0; index--) {
      const message = inputs[index]?.message;
      if (!message || message.platform !== this.platform || message.messageId === undefined) continue;
      if (!wasAddressed(message)) continue;
      this.quotes.set(turnId, message.messageId);
      return;
    }
  }

  /** The message a reply of this turn quotes, if any. */
  quoteFor(turnId: string | undefined): string | undefined {
    return turnId === undefined ? undefined : this.quotes.get(turnId);
  }

  turnEnded(turnId: string): void {
    this.quotes.delete(turnId);
  }

  /** Remembers a message she sent (`chatId` scopes ids that are only unique per chat). */
  sent(chatId: string, messageId: string): void {
    this.own.set(`${chatId}\u0000${messageId}`, true);
  }

  isHers(chatId: string, messageId: string): boolean {
    return this.own.get(`${chatId}\u0000${messageId}`) === true;
  }
}
