// What the page layer adds to the runtime's cross-document checkpoints: its redaction (values the page shows as
// sensitive() are stored as their markers, never as the values — also inside JSON text such as a tool result), which
// calls are waiting for the person's confirmation (asked again after a reload), and a save when that changes.
import type { CheckpointOptions } from '@plingjs/agent';
import type { Page } from './page.js';
import { MIN_SCRUB_LENGTH } from './sensitive-vault.js';

/** The host's part of the checkpoint options: where checkpoints are kept, their bound, the key prefix. */
export type PageCheckpointOptions = Pick<CheckpointOptions, 'storage' | 'maxBytes' | 'keyPrefix'>;

export function pageCheckpointOptions(page: Page, options: PageCheckpointOptions = {}): CheckpointOptions {
  return {
    ...options,
    redact: (text) => redactForStorage(page, text),
    awaitingConfirmation: (sessionId, callId) =>
      page.confirmations
        .getSnapshot()
        .some((request) => request.callId === callId && (request.sessionId ?? sessionId) === sessionId),
    watch: (listener) => page.confirmations.subscribe(listener),
  };
}

/**
 * Every sensitive value the page shows now, replaced by its marker: as plain text (page.redactText), and in the
 * escaped form it takes inside JSON text (a tool message's content is JSON), which plain matching would miss.
 */
function redactForStorage(page: Page, text: string): string {
  let redacted = page.redactText(text);
  for (const [marker, real] of page.sensitiveValues()) {
    if (typeof real !== 'string' || real.length < MIN_SCRUB_LENGTH) continue;
    const escaped = JSON.stringify(real).slice(1, -1);
    if (escaped !== real) redacted = redacted.split(escaped).join(marker);
  }
  return redacted;
}
