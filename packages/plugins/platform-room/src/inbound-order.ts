// Keeps a chat's inbound messages in the order the platform delivered them. Reading one (image fetches, look-ups)
// takes a varying time, so messages read side by side could reach the gateway in another order than they were
// said: a later text overtaking an earlier image would open the turn the image then joins. Messages of one chat are
// read one after another and handed over in turn; other chats do not wait for them.

export class InboundOrder {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `read` after every earlier one of the same chat has finished (failed ones included); resolves with it. */
  run<T>(chat: string, read: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(chat) ?? Promise.resolve();
    const next = previous.then(read, read);
    const tail = next.then(
      () => {},
      () => {},
    );
    this.tails.set(chat, tail);
    void tail.then(() => {
      if (this.tails.get(chat) === tail) this.tails.delete(chat);
    });
    return next;
  }
}
