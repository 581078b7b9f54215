// The config keys every room adapter has for what it accepts from people: the longest inbound text, and the size
// and time limits of fetching inbound images, files and voice recordings. Spread into an adapter's own section schema.
import { s } from '@aalis/core';

export function roomLimitsShape() {
  return {
    maxInboundLength: s
      .number()
      .integer()
      .min(100)
      .default(20_000)
      .describe('Longer inbound messages are cut to this many characters, with a note saying so.'),
    image: s.object({
      maxBytes: s
        .number()
        .integer()
        .min(1_024)
        .default(10 * 1024 * 1024)
        .describe('Largest inbound image fetched.'),
      fetchTimeoutMs: s
        .number()
        .integer()
        .min(100)
        .default(15_000)
        .describe('How long fetching an inbound image may take.'),
    }),
    file: s.object({
      maxBytes: s
        .number()
        .integer()
        .min(1_024)
        .default(20 * 1024 * 1024)
        .describe('Largest inbound file or voice recording fetched (the file reader has its own limit after).'),
      fetchTimeoutMs: s
        .number()
        .integer()
        .min(100)
        .default(30_000)
        .describe('How long fetching an inbound file or voice recording may take.'),
    }),
  };
}
