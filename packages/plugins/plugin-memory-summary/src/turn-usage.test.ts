// Usage-triggered consumers keep the last usage of each turn and exclude snapshots (api-agent.zh.md 「用量」).
import type { TokenUsageEvent } from '@aalis/api-agent';
import { describe, expect, it } from 'vitest';
import { TurnUsageTracker } from './turn-usage.js';

const event = (turnId: string | undefined, usageRatio: number): TokenUsageEvent => ({
  sessionId: 's',
  ...(turnId === undefined ? {} : { turnId }),
  platform: 'cli',
  contextWindow: 1000,
  maxTokens: 100,
  tokenBudget: 388,
  used: usageRatio * 1000,
  usageRatio,
  trimmed: false,
  untrimmedHistory: 0,
  historyMessages: 1,
  historyLimit: 0,
  breakdown: {
    system: 0,
    persona: 0,
    memorySummary: 0,
    memoryVector: 0,
    skills: 0,
    platform: 0,
    subtask: 0,
    systemOther: 0,
    history: 0,
    toolResults: 0,
    toolDefs: 0,
    reservedForReply: 100,
    injectors: {},
  },
  parts: [],
});

describe('TurnUsageTracker', () => {
  it('keeps the last usage of a turn: a later call replaces an earlier one', () => {
    const tracker = new TurnUsageTracker();
    tracker.record(event('t1', 0.9));
    tracker.record(event('t1', 0.2));
    expect(tracker.take('t1')?.usageRatio).toBe(0.2);
  });

  it('ignores snapshots: an event without turnId never becomes a turn’s usage', () => {
    const tracker = new TurnUsageTracker();
    tracker.record(event('t1', 0.2));
    tracker.record(event(undefined, 0.99));
    expect(tracker.take('t1')?.usageRatio).toBe(0.2);
  });

  it('hands a turn’s usage out once', () => {
    const tracker = new TurnUsageTracker();
    tracker.record(event('t1', 0.5));
    expect(tracker.take('t1')).toBeDefined();
    expect(tracker.take('t1')).toBeUndefined();
    expect(tracker.take('never')).toBeUndefined();
  });

  it('forgets the oldest turns whose end never came', () => {
    const tracker = new TurnUsageTracker();
    for (let index = 0; index < 300; index++) tracker.record(event(`t${index}`, 0.1));
    expect(tracker.take('t0')).toBeUndefined();
    expect(tracker.take('t299')).toBeDefined();
  });
});
