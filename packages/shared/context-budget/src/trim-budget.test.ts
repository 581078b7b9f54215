import { describe, expect, it } from 'vitest';
import { charEstimator, system, text, user, windowFor } from './test-fixtures.case.js';
import { historyCutLine, trimBudget, trimUnit } from './trim-budget.js';
import { trimMessages } from './trim-messages.js';

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

describe('historyCutLine', () => {
  it('is the budget less one unit: step 1 drops history exactly when head + history exceed it', () => {
    expect(trimUnit(4000)).toBe(1000);
    expect(historyCutLine(4000)).toBe(3000);
    expect(historyCutLine(4002)).toBe(4002 - 1001);
    // Head 200 + history 2800 = 3000 keeps everything; one token more drops history (budget 4000, one per char).
    const outcome = (historyChars: number) =>
      trimMessages({
        messages: [system(text(200, 's')), user(text(historyChars, 'h')), user('now')],
        segments: { headEnd: 1, historyEnd: 2 },
        ...windowFor(4000),
        estimator: charEstimator,
      });
    expect(outcome(2800).removed).toBe(0);
    expect(outcome(2801).removed).toBe(1);
  });
});
