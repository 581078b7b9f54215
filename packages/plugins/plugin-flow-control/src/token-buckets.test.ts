import { describe, expect, it } from 'vitest';
import { inQuietHours } from './quiet-hours.js';
import { TokenBuckets } from './token-buckets.js';

describe('TokenBuckets', () => {
  it('allows the burst, then one per refill interval', () => {
    const buckets = new TokenBuckets({ perMinute: 6, burst: 2 });
    expect(buckets.waitFor('a', 0)).toBe(0);
    buckets.take('a', 0);
    buckets.take('a', 0);
    expect(buckets.waitFor('a', 0)).toBe(10_000);
    expect(buckets.waitFor('a', 5_000)).toBe(5_000);
    expect(buckets.waitFor('a', 10_000)).toBe(0);
    expect(buckets.waitFor('b', 0)).toBe(0);
  });

  it('is off at 0 per minute and forgets the least recent key past its bound', () => {
    expect(new TokenBuckets({ perMinute: 0, burst: 0 }).waitFor('a', 0)).toBe(0);
    const buckets = new TokenBuckets({ perMinute: 1, burst: 1 }, 2);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 0);
    expect(buckets.waitFor('a', 0)).toBe(0);
    expect(buckets.waitFor('c', 0)).toBeGreaterThan(0);
  });
});

describe('inQuietHours', () => {
  const at = (iso: string) => Date.parse(iso);
  it('reads local time in the zone, across midnight', () => {
    const quiet = { from: '23:00', to: '07:00', timeZone: 'Asia/Shanghai' };
    expect(inQuietHours(at('2026-12-07T15:30:00Z'), quiet)).toBe(true); // 23:30 in Shanghai
    expect(inQuietHours(at('2026-12-06T22:59:00Z'), quiet)).toBe(true); // 06:59
    expect(inQuietHours(at('2026-12-06T23:00:00Z'), quiet)).toBe(false); // 07:00
    expect(inQuietHours(at('2026-12-07T04:00:00Z'), quiet)).toBe(false); // 12:00
  });

  it('handles a span within one day, and none', () => {
    expect(inQuietHours(at('2026-12-07T13:00:00Z'), { from: '12:00', to: '14:00', timeZone: 'UTC' })).toBe(true);
    expect(inQuietHours(at('2026-12-07T13:00:00Z'), { from: '', to: '', timeZone: 'UTC' })).toBe(false);
  });
});
