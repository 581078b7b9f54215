// prompt_budget_info's answer: the figures, the tag with the log line's thresholds, and the advice.
import type { TokenUsageEvent } from '@aalis/api-agent';
import { usageTag } from '@aalis/api-agent';
import { describe, expect, it } from 'vitest';
import { budgetFigures, budgetReport } from './budget-report.js';

const event = (usageRatio: number, overrides: Partial<TokenUsageEvent> = {}): TokenUsageEvent => ({
  sessionId: 's',
  turnId: 't',
  platform: 'cli',
  contextWindow: 32_000,
  maxTokens: 1_024,
  tokenBudget: 30_464,
  used: Math.round(usageRatio * 32_000),
  usageRatio,
  trimmed: false,
  untrimmedHistory: 900,
  historyMessages: 7,
  historyLimit: 20,
  breakdown: {
    system: 300,
    persona: 100,
    memorySummary: 50,
    memoryVector: 0,
    skills: 0,
    platform: 0,
    subtask: 0,
    systemOther: 150,
    history: 800,
    toolResults: 100,
    toolDefs: 200,
    reservedForReply: 1_024,
    injectors: {},
  },
  parts: [],
  ...overrides,
});

describe('budgetFigures', () => {
  it('tags the ratio with the thresholds of the [token-usage] log line (< 0.5 / 0.5–0.7 / 0.7–0.85 / ≥ 0.85)', () => {
    for (const ratio of [0, 0.49, 0.5, 0.69, 0.7, 0.849, 0.85, 1.2]) {
      expect(budgetFigures(event(ratio)).tag).toBe(usageTag(ratio));
    }
    expect([0.1, 0.5, 0.7, 0.85].map((ratio) => budgetFigures(event(ratio)).tag)).toEqual([
      'OK',
      'INFO',
      'WARN',
      'CRITICAL',
    ]);
  });

  it('carries the figures, the ratio to three decimals, and the breakdown without empty injectors', () => {
    expect(budgetFigures(event(0.123456))).toEqual({
      used: 3951,
      contextWindow: 32_000,
      usageRatio: 0.123,
      tag: 'OK',
      tokenBudget: 30_464,
      trimmed: false,
      historyMessages: 7,
      historyLimit: 20,
      breakdown: {
        system: 300,
        persona: 100,
        memorySummary: 50,
        memoryVector: 0,
        skills: 0,
        platform: 0,
        subtask: 0,
        systemOther: 150,
        history: 800,
        toolResults: 100,
        toolDefs: 200,
        reservedForReply: 1_024,
      },
    });
  });

  it('keeps injectors when there are some, and marks snapshot figures', () => {
    const { turnId: _turnId, ...snapshot } = event(0.3);
    snapshot.breakdown = { ...snapshot.breakdown, injectors: { 'skills/x': 40 } };
    const figures = budgetFigures(snapshot);
    expect(figures.breakdown.injectors).toEqual({ 'skills/x': 40 });
    expect(figures.snapshot).toBe(true);
    expect(budgetFigures(event(0.3)).snapshot).toBeUndefined();
  });
});

describe('budgetReport', () => {
  it('is one line of JSON, then the advice of the tag', () => {
    const [json, advice, ...rest] = budgetReport(event(0.9), (tag) => `advice for ${tag}`).split('\n');
    expect(JSON.parse(json!)).toMatchObject({ tag: 'CRITICAL', usageRatio: 0.9 });
    expect(advice).toBe('advice for CRITICAL');
    expect(rest).toEqual([]);
  });
});
