// WeCom's stream replies: a message is answered at once with a stream (an id, no content yet — WeCom shows her as
// thinking) and WeCom then asks for it again and again (msgtype `stream` callbacks) for about six minutes, until
// an answer says `finish`. This keeps the streams: which message each answers, what it says so far, and each
// message's response_url (usable once, for a reply that comes after the stream's window). Bounded.
import { randomBytes } from 'node:crypto';
import { setBounded } from '@aalis/core';

export interface WecomStream {
  id: string;
  chatId: string;
  msgId: string;
  openedAt: number;
  content: string;
  finished: boolean;
  /** No turn of its own answers the message (kept as room context, a command): closed when WeCom next asks. */
  idle: boolean;
}

const CAPACITY = 2_000;

export class WecomStreams {
  private readonly streams = new Map<string, WecomStream>();
  private readonly byMessage = new Map<string, WecomStream>();
  private readonly responseUrls = new Map<string, { chatId: string; url: string }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens the stream answering a message (the same one again for a message WeCom delivers twice). */
  open(chatId: string, msgId: string, responseUrl?: string): WecomStream {
    const existing = this.byMessage.get(msgId);
    if (existing) return existing;
    const stream: WecomStream = {
      id: randomBytes(12).toString('hex'),
      chatId,
      msgId,
      openedAt: this.now(),
      content: '',
      finished: false,
      idle: false,
    };
    setBounded(this.streams, stream.id, stream, CAPACITY);
    setBounded(this.byMessage, msgId, stream, CAPACITY);
    if (responseUrl) setBounded(this.responseUrls, msgId, { chatId, url: responseUrl }, CAPACITY);
    return stream;
  }

  /** Keeps the response_url of a message that gets no stream (room context): a later reply may still use it. */
  keepResponseUrl(chatId: string, msgId: string, responseUrl: string): void {
    setBounded(this.responseUrls, msgId, { chatId, url: responseUrl }, CAPACITY);
  }

  /** Forgets a message's stream and response_url (its input was not stored: WeCom delivers it again). */
  discard(msgId: string): void {
    const stream = this.byMessage.get(msgId);
    if (stream) this.streams.delete(stream.id);
    this.byMessage.delete(msgId);
    this.responseUrls.delete(msgId);
  }

  get(id: string): WecomStream | undefined {
    return this.streams.get(id);
  }

  forMessage(msgId: string): WecomStream | undefined {
    return this.byMessage.get(msgId);
  }

  private live(stream: WecomStream | undefined): stream is WecomStream {
    return stream !== undefined && !stream.finished && this.now() - stream.openedAt < this.windowMs;
  }

  /**
   * The stream a reply to `chatId` goes into: the one answering `msgId` while WeCom still asks for it, else the
   * chat's oldest such stream; undefined when none is left.
   */
  target(chatId: string, msgId?: string): WecomStream | undefined {
    const own = msgId === undefined ? undefined : this.byMessage.get(msgId);
    if (this.live(own) && own.chatId === chatId) return own;
    for (const stream of this.streams.values()) {
      if (stream.chatId === chatId && this.live(stream)) return stream;
    }
    return undefined;
  }

  /** The message gets no turn of its own: its stream, unless something answers it first, closes empty. */
  idle(msgId: string): void {
    const stream = this.byMessage.get(msgId);
    if (stream) stream.idle = true;
  }

  finish(stream: WecomStream, content: string): void {
    stream.content = content;
    stream.finished = true;
  }

  /** A response_url for the chat (the one of `msgId` first, else the latest), taken: each works once. */
  takeResponseUrl(chatId: string, msgId?: string): string | undefined {
    const own = msgId === undefined ? undefined : this.responseUrls.get(msgId);
    if (own && own.chatId === chatId) {
      this.responseUrls.delete(msgId as string);
      return own.url;
    }
    const entries = [...this.responseUrls.entries()].reverse();
    const latest = entries.find(([, entry]) => entry.chatId === chatId);
    if (!latest) return undefined;
    this.responseUrls.delete(latest[0]);
    return latest[1].url;
  }
}
