// The waiting list as changes (the `queue` event): the server says what changed between two lists, every reader
// (the server's own live view, the WebUI, other clients) applies it to the list it has.
import type { SessionEvent } from './event-types.js';
import type { WaitingInput } from './timeline-types.js';

export type QueueEvent = Extract<SessionEvent, { type: 'queue' }>;

/** The `queue` event that turns `before` into `after` (undefined when nothing changed). */
export function queueChange(before: readonly WaitingInput[], after: readonly WaitingInput[]): QueueEvent | undefined {
  const afterKeys = new Set(after.map((input) => input.key));
  const removed = before.filter((input) => !afterKeys.has(input.key)).map((input) => input.key);
  const kept = before.filter((input) => afterKeys.has(input.key));
  // The entries left must lead `after` in the same order (new inputs arrive at the end); otherwise the list is
  // sent again whole, as removals and additions.
  const inOrder = kept.every((input, index) => after[index]?.key === input.key);
  if (!inOrder) {
    if (before.length === 0 && after.length === 0) return undefined;
    return { type: 'queue', removed: before.map((input) => input.key), dispositions: {}, added: [...after] };
  }
  const dispositions: Record<string, WaitingInput['disposition']> = {};
  kept.forEach((input, index) => {
    const now = after[index]!;
    if (now.disposition !== input.disposition) dispositions[input.key] = now.disposition;
  });
  const added = after.slice(kept.length);
  if (removed.length === 0 && added.length === 0 && Object.keys(dispositions).length === 0) return undefined;
  return { type: 'queue', removed, dispositions, added };
}

/** How a reader keeps its entries: the key of one, an entry made from an input, one with another disposition. */
export interface QueueEntries<T> {
  key(entry: T): string;
  entry(input: WaitingInput): T;
  withDisposition(entry: T, disposition: WaitingInput['disposition']): T;
}

/** The list of raw inputs, as the server keeps it. */
export const WAITING_INPUTS: QueueEntries<WaitingInput> = {
  key: (input) => input.key,
  entry: (input) => input,
  withDisposition: (input, disposition) => ({ ...input, disposition }),
};

/** The list after a `queue` event. */
export function applyQueueChange<T>(waiting: readonly T[], event: QueueEvent, entries: QueueEntries<T>): T[] {
  const removed = new Set(event.removed);
  const left = waiting
    .filter((entry) => !removed.has(entries.key(entry)))
    .map((entry) => {
      const disposition = event.dispositions[entries.key(entry)];
      return disposition !== undefined ? entries.withDisposition(entry, disposition) : entry;
    });
  const present = new Set(left.map((entry) => entries.key(entry)));
  return [...left, ...event.added.filter((input) => !present.has(input.key)).map((input) => entries.entry(input))];
}
