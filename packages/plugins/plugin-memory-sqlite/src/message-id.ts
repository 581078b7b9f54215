// Ids for stored messages: UUIDs of version 7 (RFC 9562), whose first 48 bits are the Unix time in milliseconds, so
// the ids a store hands out in one moment sit next to each other in the `memory_messages.id` index. With random
// (version 4) ids every append wrote a leaf page at a random place of that index: as the table grows those pages fall
// out of the page cache and each commit carries one more page per message (docs/decisions/time-ordered-message-ids.md).
import { randomUUID } from 'node:crypto';

let prefixMs = -1;
let prefix = '';

/**
 * A new message id: 48 bits of `Date.now()`, the version nibble 7, then the rest of a random version-4 UUID (its 12
 * random bits after the version, the variant and 62 random bits), which stays unique as a version-4 UUID does.
 * Ids of one millisecond are in random order among themselves; across milliseconds they sort by time.
 */
export function newMessageId(now: number = Date.now()): string {
  if (now !== prefixMs) {
    const time = now.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixMs = now;
  }
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; index 14 is its version nibble, 15… the rest.
  return prefix + randomUUID().slice(15);
}
