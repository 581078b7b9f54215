// Taking what other processes hand over on one queue, the same way wherever it is done (the holder of an adapter's
// connection sending the replies other processes produced, a terminal showing what other processes ran for it):
// woken by each put of that name, one drain at a time (a put during a drain drains again), items taken oldest first in
// batches and each finished with its outcome before the next batch.
import type { HandOverItem, HandOverService } from './index.js';

export interface HandOverTakerOptions {
  queue: HandOverService;
  /** The queue's name (the lease name of what the taker holds). */
  name: string;
  /** Items taken per batch. */
  limit: number;
  /** Runs one item; what it resolves to is its outcome (`finish`, read by whoever put it). */
  run(item: HandOverItem): Promise<string>;
  /** A drain failed (the storage could not be read): the taker goes on at the next put. */
  failed(error: unknown): void;
}

export class HandOverTaker {
  private taking = false;
  private draining = false;
  private again = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: HandOverTakerOptions) {}

  /** Takes what waits and, from now on, what is handed over. */
  start(): void {
    this.taking = true;
    this.unsubscribe ??= this.options.queue.onPut((name) => {
      if (name === this.options.name) this.pump();
    });
    this.pump();
  }

  /** Takes nothing more (a batch under way ends with the item being run). */
  stop(): void {
    this.taking = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private pump(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    void this.drain()
      .catch((error: unknown) => this.options.failed(error))
      .finally(() => {
        this.draining = false;
        if (this.again && this.taking) {
          this.again = false;
          this.pump();
        }
      });
  }

  private async drain(): Promise<void> {
    const { queue, name, limit, run } = this.options;
    while (this.taking) {
      this.again = false;
      const items = await queue.take(name, { limit });
      if (items.length === 0) return;
      for (const item of items) await queue.finish(item.id, await run(item));
    }
  }
}
