import { describe, expect, it } from 'vitest';
import { describeTime, isTimeZone } from './basic-tools.js';

describe('describeTime', () => {
  it('gives the ISO time and the local time of a zone', () => {
    const text = describeTime(new Date('2026-01-02T03:04:05Z'), 'Asia/Shanghai');
    expect(JSON.parse(text)).toEqual({
      iso: '2026-01-02T03:04:05.000Z',
      timeZone: 'Asia/Shanghai',
      local: '2026-01-02 11:04:05',
      weekday: 'Friday',
      offset: 'GMT+08:00',
    });
  });

  it('refuses an unknown zone with a coded error', () => {
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(() => describeTime(new Date(), 'Mars/Olympus')).toThrow(
      expect.objectContaining({ code: 'AALIS_TIME_ZONE_UNKNOWN' }),
    );
  });
});
