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
