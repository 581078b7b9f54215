import { describe, expect, it } from 'vitest';
import { formatArchiveTime } from './format-archive-time.js';

describe('formatArchiveTime', () => {
  it('stamps the minute in the time zone, and moves on at each minute boundary (the per-minute reuse)', () => {
    const base = Date.UTC(2026, 10, 29, 21, 5, 0);
    expect(formatArchiveTime({ time: base, timeZone: 'Asia/Shanghai' })).toBe('[2026-11-30 05:05]');
    expect(formatArchiveTime({ time: base + 59_999, timeZone: 'Asia/Shanghai' })).toBe('[2026-11-30 05:05]');
    expect(formatArchiveTime({ time: base + 60_000, timeZone: 'Asia/Shanghai' })).toBe('[2026-11-30 05:06]');
    // Another zone at the same minute is formatted on its own, then the first zone is right again.
    expect(formatArchiveTime({ time: base + 60_000, timeZone: 'Asia/Kathmandu' })).toBe('[2026-11-30 02:51]');
    expect(formatArchiveTime({ time: base - 60_000, timeZone: 'Asia/Shanghai' })).toBe('[2026-11-30 05:04]');
    expect(formatArchiveTime({ time: base + 60_000 })).toBe('[2026-11-29 21:06]');
  });
});
