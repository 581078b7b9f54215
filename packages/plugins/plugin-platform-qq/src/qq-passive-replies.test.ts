import { describe, expect, it } from 'vitest';
import { PASSIVE_REPLIES_PER_MESSAGE, PassiveReplies } from './qq-passive-replies.js';

describe('PassiveReplies', () => {
  it('answers the quoted message with growing msg_seq, at most five times, then the chat’s latest message', () => {
    const now = 0;
    const replies = new PassiveReplies(() => now);
    replies.receivedMessage('group', 'g1', 'm1');
    replies.receivedMessage('group', 'g1', 'm2');
    const seqs = Array.from({ length: PASSIVE_REPLIES_PER_MESSAGE }, () => replies.next('g1', 'm1'));
    expect(seqs.map((next) => next?.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(seqs.every((next) => next?.msgId === 'm1')).toBe(true);
    // m1 is used up: the chat's latest message is answered instead.
    expect(replies.next('g1', 'm1')).toEqual({ msgId: 'm2', seq: 1 });
    // Another chat's message is never used.
    expect(replies.next('g2', 'm2')).toBeUndefined();
  });

  it('keeps the window: 5 minutes in groups, 60 in private chats', () => {
    let now = 0;
    const replies = new PassiveReplies(() => now);
    replies.receivedMessage('group', 'g1', 'm1');
    replies.receivedMessage('private', 'u1', 'p1');
    now = 5 * 60_000 + 1;
    expect(replies.next('g1')).toBeUndefined();
    expect(replies.next('u1')).toEqual({ msgId: 'p1', seq: 1 });
    now = 60 * 60_000 + 1;
    expect(replies.next('u1')).toBeUndefined();
  });
});
