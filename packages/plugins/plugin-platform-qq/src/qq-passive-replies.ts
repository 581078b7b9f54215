// QQ's passive replies: a message sent with the `msg_id` of a message she received (and a `msg_seq` unique for that
// id) is a reply, allowed within a window (5 minutes in groups, 60 in private chats) and at most 5 times per
// received message. Anything else is an active message, which QQ allows only a few of per month. This keeps, per
// chat, the messages she may still answer and hands out the id and the next sequence number.
import { setBounded } from '@aalis/core';
import type { ChatType } from '@aalis/platform-room';

export const PASSIVE_WINDOW_MS: Record<ChatType, number> = { group: 5 * 60_000, private: 60 * 60_000 };
export const PASSIVE_REPLIES_PER_MESSAGE = 5;
const CAPACITY = 5_000;

interface Received {
  chatId: string;
  chatType: ChatType;
  at: number;
  used: number;
}

export class PassiveReplies {
  private readonly received = new Map<string, Received>();
  private readonly latest = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a message she received (so it can be answered). */
  receivedMessage(chatType: ChatType, chatId: string, msgId: string): void {
    setBounded(this.received, msgId, { chatId, chatType, at: this.now(), used: 0 }, CAPACITY);
    setBounded(this.latest, chatId, msgId, CAPACITY);
  }

  /**
   * The `msg_id` and `msg_seq` for the next message to `chatId`: answering `replyTo` when it can still be answered,
   * else the chat's latest received message; undefined when neither can (the message goes out as an active one).
   */
  next(chatId: string, replyTo?: string): { msgId: string; seq: number } | undefined {
    for (const msgId of [replyTo, this.latest.get(chatId)]) {
      if (msgId === undefined) continue;
      const entry = this.received.get(msgId);
      if (!entry || entry.chatId !== chatId) continue;
      if (this.now() - entry.at > PASSIVE_WINDOW_MS[entry.chatType]) continue;
      if (entry.used >= PASSIVE_REPLIES_PER_MESSAGE) continue;
      entry.used += 1;
      return { msgId, seq: entry.used };
    }
    return undefined;
  }
}
