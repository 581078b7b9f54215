// After start, what a migration left out of the full-text index is indexed again in the background, in small
// batches that each commit (a restart goes on where the last one stopped), with progress in the log; recall works
// meanwhile on what is indexed. A start never waits for it.
import type { Logger } from '@aalis/core';
import type { RecallStore } from './recall-store.js';

/** Entries per write: a batch holds the event loop for some tens of milliseconds at most. */
export const BACKFILL_BATCH = 500;
/** Progress is logged at most this often. */
const PROGRESS_EVERY_MS = 30_000;

export async function backfill({
  store,
  log,
  stopped,
  batch = BACKFILL_BATCH,
}: {
  store: RecallStore;
  log: Logger;
  stopped(): boolean;
  batch?: number;
}): Promise<void> {
  if (!store.backfill) return;
  const began = Date.now();
  let indexed = 0;
  let loggedAt = began;
  try {
    while (!stopped()) {
      const step = await store.backfill(batch);
      if (step === undefined) break;
      if (indexed === 0) {
        log.info('long-term memory: indexing the stored messages again in the background (the index changed)', {
          messages: step.indexed + step.left,
        });
      }
      indexed += step.indexed;
      if (step.left === 0) break;
      if (Date.now() - loggedAt >= PROGRESS_EVERY_MS) {
        loggedAt = Date.now();
        log.info('long-term memory: indexing stored messages again', { indexed, left: step.left });
      }
      // Turns, appends and requests go first between two batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (indexed > 0 && !stopped()) {
      log.info('long-term memory: stored messages indexed again', {
        messages: indexed,
        seconds: Math.round((Date.now() - began) / 1000),
      });
    }
  } catch (error) {
    log.warn('long-term memory could not index stored messages again; it goes on at the next start', {
      indexed,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
