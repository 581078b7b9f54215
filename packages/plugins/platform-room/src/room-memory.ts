// What a room adapter remembers between an inbound message and her reply: which message each turn answers (so a
// group reply quotes the message that addressed her) and which platform messages are hers (so a reply to one of
// them addresses her). Bounded: old entries fall out first.
import type { TurnInput } from '@aalis/api-agent';
import { setBounded } from '@aalis/core';
import { wasAddressed } from '@aalis/schema-message';

const MAX_QUOTES = 2_000;
const MAX_OWN = 10_000;

export class RoomMemory {
  private readonly quotes = new Map<string, string>();
  private readonly own = new Map<string, true>();

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
      setBounded(this.quotes, turnId, message.messageId, MAX_QUOTES);
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
    setBounded(this.own, `${chatId}\u0000${messageId}`, true, MAX_OWN);
  }

  isHers(chatId: string, messageId: string): boolean {
    return this.own.get(`${chatId}\u0000${messageId}`) === true;
  }
}
