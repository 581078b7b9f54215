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
    redactor: () => storageRedactor(page),
    awaitingConfirmation: (sessionId, callId) =>
      page.confirmations
        .getSnapshot()
        .some((request) => request.callId === callId && (request.sessionId ?? sessionId) === sessionId),
    watch: (listener) => page.confirmations.subscribe(listener),
  };
}

/**
 * The page's redactor (every sensitive value it shows now, replaced by its marker), extended to the escaped form a
 * value takes inside JSON text (a tool message's content is JSON), which matching the plain text would miss.
 */
function storageRedactor(page: Page): (text: string) => string {
  const redact = page.redactor();
  const escaped: Array<[string, string]> = [];
  for (const [marker, real] of page.sensitiveValues()) {
    if (typeof real !== 'string' || real.length < MIN_SCRUB_LENGTH) continue;
    const inJson = JSON.stringify(real).slice(1, -1);
    if (inJson !== real) escaped.push([inJson, marker]);
  }
  return (text) => {
    let redacted = redact(text);
    for (const [needle, marker] of escaped) redacted = redacted.split(needle).join(marker);
    return redacted;
  };
}
