// Inputs whose archiving failed (a full disk, a lost database connection): their hand-over items are not finished,
// so the input is taken and placed again once storage works (docs/decisions/durable-acknowledgement.md). Keyed by
// the input object itself: a taken item is parsed into a fresh object each time, so an earlier failure never sticks
// to a later attempt.
import type { IncomingMessage } from '@aalis/schema-message';

const unstored = new WeakSet<IncomingMessage>();

export function markUnstored(message: IncomingMessage): void {
  unstored.add(message);
}

/** Whether storing the input failed: its item must stay in the queue. */
export function isUnstored(message: IncomingMessage): boolean {
  return unstored.has(message);
}
