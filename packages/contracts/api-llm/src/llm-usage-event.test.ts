import { describe, expect, it } from 'vitest';
import { estimateCost, usageEvent } from './llm-usage-event.js';

describe('estimateCost', () => {
  it('charges cached prompt tokens at their own price, or the prompt price when none is given', () => {
    const usage = { promptTokens: 1_000, completionTokens: 100, cachedPromptTokens: 400 };
    expect(
      estimateCost({ usage, prices: { promptPerMillion: 1, completionPerMillion: 10, cachedPromptPerMillion: 0.1 } }),
    ).toBeCloseTo((600 * 1 + 400 * 0.1 + 100 * 10) / 1e6);
    expect(estimateCost({ usage, prices: { promptPerMillion: 1, completionPerMillion: 10 } })).toBeCloseTo(2_000 / 1e6);
  });
});

describe('usageEvent', () => {
  it('carries session, purpose, provider, model, tokens, latency, and cost when prices are given', () => {
    expect(
      usageEvent({
        request: { sessionId: 's', purpose: 'subtask' },
        usage: { promptTokens: 10, completionTokens: 2 },
        provider: 'p',
        model: 'p/m',
        latencyMs: 12,
      }),
    ).toEqual({
      sessionId: 's',
      purpose: 'subtask',
      provider: 'p',
      model: 'p/m',
      promptTokens: 10,
      completionTokens: 2,
      latencyMs: 12,
    });
    expect(
      usageEvent({
        request: { sessionId: 's', purpose: 'conversation' },
        usage: { promptTokens: 1_000_000, completionTokens: 0, cachedPromptTokens: 0 },
        provider: 'p',
        model: 'p/m',
        latencyMs: 1,
        prices: { promptPerMillion: 3, completionPerMillion: 0, currency: 'EUR' },
      }),
    ).toMatchObject({ cachedPromptTokens: 0, estimatedCost: 3, currency: 'EUR' });
  });
});

describe('estimateCost with cache writes', () => {
  it('prices read, written and uncached prompt tokens each at their own price', () => {
    const prices = {
      promptPerMillion: 3,
      completionPerMillion: 15,
      cachedPromptPerMillion: 0.3,
      cacheWritePromptPerMillion: 3.75,
    };
    const usage = {
      promptTokens: 1_000_000,
      completionTokens: 0,
      cachedPromptTokens: 600_000,
      cacheCreationPromptTokens: 300_000,
    };
    // 100k uncached × 3 + 600k read × 0.3 + 300k written × 3.75, per million.
    expect(estimateCost({ usage, prices })).toBeCloseTo(0.3 + 0.18 + 1.125, 10);
    const { cacheWritePromptPerMillion: _, ...withoutWritePrice } = prices;
    expect(estimateCost({ usage, prices: withoutWritePrice })).toBeCloseTo(0.3 + 0.18 + 0.9, 10);
  });
});
