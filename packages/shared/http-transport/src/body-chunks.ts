// A response body read chunk by chunk as a plain async iterator: the chunks `for await (… of response)` gives (each
// `read()` after 'readable', the end and errors through stream.finished, as Node's own iterator does), without its
// async generator and the exchange's generator around it — one promise per chunk, none when data is waiting.
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';

export interface BodyChunksHooks {
  /** Reading starts (the first next(), as a generator's body would). */
  onStart(): void;
  /** A chunk is about to be handed out (the idle timer starts again). */
  onChunk(): void;
  /** What a failure of the stream is thrown as. */
  failure(error: unknown): unknown;
  /** The body ended without a stream error: throws if it still failed or was cut short. */
  onEnd(): void;
  /** Reading is over (ended, failed or given up): called once. */
  onDone(): void;
  /** The reader gave up before the end (return()): ends the exchange. */
  abandon(): void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true as const });

export class BodyChunks implements AsyncIterableIterator<Buffer> {
  /** undefined while the body runs; null once it ended cleanly; the error once it failed. */
  private ended: unknown = undefined;
  private started = false;
  private over = false;
  private wake: (() => void) | undefined;
  private readonly onReadable = () => this.poke();

  constructor(
    private readonly stream: IncomingMessage,
    private readonly hooks: BodyChunksHooks,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Buffer, undefined>> {
    if (this.over) return Promise.resolve(DONE);
    if (!this.started) this.start();
    try {
      const result = this.step();
      if (result !== undefined) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const retry = () => {
        try {
          const result = this.step();
          if (result === undefined) this.wake = retry;
          else resolve(result);
        } catch (error) {
          reject(error);
        }
      };
      this.wake = retry;
    });
  }

  return(): Promise<IteratorResult<Buffer, undefined>> {
    if (!this.over) {
      this.over = true;
      // Given up before it began: nothing was read, nothing to end (a generator's body would not have run either).
      if (this.started) {
        this.finish();
        this.hooks.abandon();
      }
    }
    return Promise.resolve(DONE);
  }

  private start(): void {
    this.started = true;
    this.stream.on('readable', this.onReadable);
    finished(this.stream, { writable: false }, (error) => {
      this.ended = error ?? null;
      this.poke();
    });
    this.hooks.onStart();
  }

  /** The next chunk, the end, or undefined to wait for 'readable' or the end. Throws the stream's failure. */
  private step(): IteratorResult<Buffer, undefined> | undefined {
    const chunk = this.stream.destroyed ? null : (this.stream.read() as Buffer | null);
    if (chunk !== null) {
      this.hooks.onChunk();
      return { value: chunk, done: false };
    }
    if (this.ended === undefined) return undefined;
    this.finish();
    if (this.ended !== null) throw this.hooks.failure(this.ended);
    this.hooks.onEnd();
    return DONE;
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private finish(): void {
    this.over = true;
    this.wake = undefined;
    this.stream.off('readable', this.onReadable);
    this.hooks.onDone();
  }
}
