import { describe, expect, it } from 'vitest';
import { isTimeZone, zonedTime } from './zoned-time.js';

describe('zonedTime', () => {
  it('gives the wall-clock parts, weekday and offset in a zone', () => {
    expect(zonedTime(Date.UTC(2026, 0, 2, 3, 4, 5), 'Asia/Shanghai')).toEqual({
      year: '2026',
      month: '01',
      day: '02',
      hour: '11',
      minute: '04',
      second: '05',
      weekday: 'Friday',
      offset: 'GMT+08:00',
    });
  });

  it('writes midnight as 00, not 24', () => {
    const parts = zonedTime(new Date('2026-12-08T00:00:00Z'), 'UTC');
    expect([parts.day, parts.hour, parts.minute]).toEqual(['08', '00', '00']);
    expect(parts.offset).toMatch(/^GMT(\+00:00)?$/);
  });

  it('follows summer time', () => {
    expect(zonedTime(Date.UTC(2026, 6, 1, 12), 'Europe/Paris').offset).toBe('GMT+02:00');
    expect(zonedTime(Date.UTC(2026, 0, 1, 12), 'Europe/Paris').offset).toBe('GMT+01:00');
  });

  it('throws a RangeError for a zone the runtime does not know', () => {
    expect(() => zonedTime(0, 'Mars/Olympus')).toThrow(RangeError);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('America/New_York')).toBe(true);
  });
});
