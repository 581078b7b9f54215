import { describe, expect, it } from 'vitest';
import { inboundLimits } from './inbound-limits.js';

describe('inboundLimits', () => {
  it('maps a section’s room limits to what inboundContent takes', () => {
    expect(
      inboundLimits({
        maxInboundLength: 500,
        image: { maxBytes: 2_048, fetchTimeoutMs: 300 },
        file: { maxBytes: 4_096, fetchTimeoutMs: 600 },
      }),
    ).toEqual({
      maxLength: 500,
      image: { maxBytes: 2_048, timeoutMs: 300 },
      file: { maxBytes: 4_096, timeoutMs: 600 },
    });
  });
});
