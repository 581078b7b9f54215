// Which updates the poller confirms to Telegram. getUpdates' offset confirms every update below it, and Telegram
// forgets what was confirmed: the offset moves only past updates that were stored (or needed no storing), and stops
// at the first one whose input could not be stored, so Telegram delivers it again. Later updates of the same batch
// that were stored meanwhile are remembered as stored above the offset (kept with it), so the repeated batch does
// not hand them over twice.
import type { Receipt } from '@aalis/api-gateway';
import type { KeptOffset } from './telegram-offset-store.js';

export interface SettledBatch {
  /** Whether the offset or the stored-above ids changed (to be saved). */
  readonly changed: boolean;
  /** The first update of the batch that was not stored (the offset stops at it). */
  readonly unstored?: number;
}

export class UpdateOffset {
  private nextOffset: number | undefined;
  private readonly above: Set<number>;

  constructor(kept: KeptOffset) {
    this.nextOffset = kept.nextOffset;
    this.above = new Set(kept.storedAbove.filter((id) => kept.nextOffset === undefined || id >= kept.nextOffset));
  }

  /** The offset to ask getUpdates from (undefined before the first update). */
  get next(): number | undefined {
    return this.nextOffset;
  }

  /** Updates at or above the offset that are stored already, in order. */
  get storedAbove(): number[] {
    return [...this.above].sort((a, b) => a - b);
  }

  /** Whether this update was stored already (a repeat of one above the offset): not to be handed over again. */
  isStored(updateId: number): boolean {
    return this.above.has(updateId) || (this.nextOffset !== undefined && updateId < this.nextOffset);
  }

  /** Applies a batch's receipts, in the order Telegram gave the updates. */
  settle(batch: readonly { updateId: number; receipt: Receipt }[]): SettledBatch {
    const before = this.snapshot();
    let unstored: number | undefined;
    for (const { updateId, receipt } of batch) {
      if (receipt === 'failed') {
        unstored ??= updateId;
        continue;
      }
      if (unstored === undefined) this.nextOffset = Math.max(this.nextOffset ?? 0, updateId + 1);
      else this.above.add(updateId);
    }
    this.prune();
    return { changed: this.snapshot() !== before, ...(unstored !== undefined ? { unstored } : {}) };
  }

  /** Moves past an update the poller gave up on (logged by the caller). */
  skip(updateId: number): void {
    this.nextOffset = Math.max(this.nextOffset ?? 0, updateId + 1);
    this.prune();
  }

  /** The offset climbs over stored ids that now follow it directly; ids below it are forgotten. */
  private prune(): void {
    if (this.nextOffset === undefined) return;
    while (this.above.has(this.nextOffset)) this.nextOffset += 1;
    for (const id of this.above) if (id < this.nextOffset) this.above.delete(id);
  }

  private snapshot(): string {
    return `${this.nextOffset}:${this.storedAbove.join(',')}`;
  }
}
