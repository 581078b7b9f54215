import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDuration } from './parse-duration.js';

describe('parseDuration', () => {
  it('reads a number and a unit, in English or Chinese, and several parts', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('10分钟')).toBe(600_000);
    expect(parseDuration('1天')).toBe(86_400_000);
    expect(parseDuration('2小时')).toBe(7_200_000);
  });

  it('reads a bare number as minutes and caps at a year', () => {
    expect(parseDuration('15')).toBe(900_000);
    expect(parseDuration('99999999d')).toBe(MAX_DURATION_MS);
  });

  it('refuses what is not a duration', () => {
    for (const text of ['', 'soon', '10x', 'm10', '0', '0m', '-5m']) expect(parseDuration(text)).toBeUndefined();
  });
});
