// Decodes a streamed Chat Completions body (bytes or text, in pieces of any size) into events and the final
// response. Malformed data, error events and early ends throw WireStreamError; nothing is silently dropped.
import { SseParser } from './sse-parser.js';
import { StreamAssembler } from './stream-assembler.js';
import type { AssembledResponse, WireStreamEvent } from './stream-events.js';
import { fromErrorObject, parseWireError, shorten, WireStreamError } from './wire-error.js';
import type { ChatCompletionChunk } from './wire-types.js';

export interface ChatStreamDecoderOptions {
  /** Lines that are not SSE (reported, then skipped: they carry no data the response could lose). */
  onUnknownLine?: (line: string) => void;
}

/** One options object for every piece (not a literal per network read). */
const STREAMING: TextDecodeOptions = Object.freeze({ stream: true });

export class ChatStreamDecoder {
  private readonly assembler = new StreamAssembler();
  private readonly parser: SseParser;
  private readonly text = new TextDecoder();
  private out: WireStreamEvent[] = [];
  private done = false;
  private failure: WireStreamError | undefined;

  constructor({ onUnknownLine }: ChatStreamDecoderOptions = {}) {
    this.parser = new SseParser({ onData: (data, event) => this.onData(data, event), onUnknownLine });
  }

  /** Whether `[DONE]` arrived. */
  get sawDone(): boolean {
    return this.done;
  }

  /**
   * Feeds a piece of the body; returns the events it completed. When the piece also holds bad data, the events
   * before it are returned first and the error is thrown by the next push, `throwIfFailed()` or `response()`.
   */
  push(piece: Uint8Array | string): WireStreamEvent[] {
    if (this.failure) throw this.failure;
    this.parser.push(typeof piece === 'string' ? piece : this.text.decode(piece, STREAMING));
    const events = this.out;
    if (events.length > 0) this.out = [];
    else if (this.failure) throw this.failure;
    return events;
  }

  /** Throws the stream's failure, if bad data has arrived (call after handing out the events of a push). */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** The body ended: returns the events still pending. Bad data after them is thrown by `response()`. */
  end(): WireStreamEvent[] {
    if (!this.failure) {
      const tail = this.text.decode();
      if (tail) this.parser.push(tail);
      this.parser.end();
    }
    const events = this.out;
    this.out = [];
    return events;
  }

  /**
   * The assembled response, after `end()`. Throws the stream's WireStreamError, or one of kind 'truncated' when the
   * stream stopped before `[DONE]` or a finish reason.
   */
  response(): AssembledResponse {
    if (this.failure) throw this.failure;
    if (!this.done && !this.assembler.finished) throw new WireStreamError({ kind: 'truncated' });
    return this.assembler.finish();
  }

  private onData(data: string, event: string | undefined): void {
    if (this.done || this.failure) return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    if (event === 'error') {
      this.failure = new WireStreamError({ kind: 'error-event', error: parseWireError({ body: data }) });
      return;
    }
    let chunk: ChatCompletionChunk | null;
    try {
      chunk = JSON.parse(data) as ChatCompletionChunk | null;
    } catch {
      chunk = null;
    }
    if (typeof chunk !== 'object' || chunk === null) {
      this.failure = new WireStreamError({ kind: 'malformed-data', line: shorten(data) });
      return;
    }
    if (chunk.error) {
      this.failure = new WireStreamError({ kind: 'error-event', error: fromErrorObject(chunk.error) });
      return;
    }
    this.assembler.push(chunk, this.out);
  }
}
