import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelay, sleep } from './retry-delay.js';

const settings = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('retryDelay', () => {
  it('doubles the ceiling per attempt, keeps half of it fixed, and caps it', () => {
    expect(retryDelay({ attempt: 0, settings, random: () => 0 })).toBe(50);
    expect(retryDelay({ attempt: 0, settings, random: () => 1 })).toBe(100);
    expect(retryDelay({ attempt: 2, settings, random: () => 0.5 })).toBe(300);
    expect(retryDelay({ attempt: 2, settings: { ...settings, maxDelayMs: 200 }, random: () => 1 })).toBe(200);
  });

  it('stops after maxRetries', () => {
    expect(retryDelay({ attempt: 3, settings })).toBeUndefined();
  });

  it('uses Retry-After as given, unless it exceeds maxDelayMs', () => {
    expect(retryDelay({ attempt: 0, settings, retryAfterMs: 700 })).toBe(700);
    expect(retryDelay({ attempt: 0, settings, retryAfterMs: 5_000 })).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  const from = (headers: Record<string, string>) =>
    parseRetryAfter({ header: (name) => headers[name], now: Date.parse('2025-01-01T00:00:00Z') });

  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(from({ 'retry-after-ms': '250' })).toBe(250);
    expect(from({ 'retry-after': '2' })).toBe(2_000);
    expect(from({ 'retry-after': '1.5' })).toBe(1_500);
    expect(from({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' })).toBe(3_000);
    expect(from({ 'retry-after': 'soon' })).toBeUndefined();
    expect(from({})).toBeUndefined();
  });
});

describe('sleep', () => {
  it('ends early with the abort reason', async () => {
    const controller = new AbortController();
    const waiting = sleep({ ms: 60_000, signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
