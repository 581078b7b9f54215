import { describe, expect, it } from 'vitest';
import { trimBudget } from './trim-budget.js';

describe('trimBudget', () => {
  it('budget = context length × trimThresholdRatio − max output tokens − 512', () => {
    expect(trimBudget({ contextWindow: 128_000, maxOutputTokens: 8_192 }).budget).toBe(128_000 - 8_192 - 512);
    expect(trimBudget({ contextWindow: 64_000, maxOutputTokens: 4_000, trimThresholdRatio: 0.75 }).budget).toBe(
      48_000 - 4_000 - 512,
    );
  });

  it('the budget is never below 1024', () => {
    expect(trimBudget({ contextWindow: 2_000, maxOutputTokens: 1_500 }).budget).toBe(1024);
  });

  it('the unit is a quarter of the budget, rounded up', () => {
    expect(trimBudget({ contextWindow: 4_514, maxOutputTokens: 0 })).toEqual({ budget: 4_002, unit: 1_001 });
  });

  it('rejects negative or non-finite figures', () => {
    expect(() => trimBudget({ contextWindow: Number.NaN, maxOutputTokens: 0 })).toThrow(RangeError);
    expect(() => trimBudget({ contextWindow: 1000, maxOutputTokens: -1 })).toThrow(RangeError);
  });
});
