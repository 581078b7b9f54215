import type { UsageEntry } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { USAGE_COLOURS, usageView } from './usage-view.js';

const entry: UsageEntry = {
  turnId: 't1',
  used: 7200,
  contextWindow: 10_000,
  usageRatio: 0.72,
  maxTokens: 1000,
  tokenBudget: 8488,
  trimmed: false,
  historyMessages: 12,
  historyLimit: 0,
  parts: [
    { label: '历史消息', tokens: 5000 },
    { label: '工具定义', tokens: 0 },
    { label: 'A part nobody planned for', tokens: 1200 },
    { label: '其余系统提示', tokens: 1000, injectors: { 'memory/notes': 300, 'skills/x': 700, 'idle/y': 0 } },
  ],
  cachedPromptTokens: 4096,
};

describe('usageView', () => {
  it('draws every non-empty part in the given order, sized against the context window, whatever its label', () => {
    const view = usageView(entry);
    expect(view.segments.map((segment) => [segment.label, segment.tokens, segment.percent, segment.colour])).toEqual([
      ['历史消息', 5000, 50, 0],
      ['A part nobody planned for', 1200, 12, 1],
      ['其余系统提示', 1000, 10, 2],
    ]);
    expect(view.segments[2]!.details).toEqual([
      { name: 'skills/x', tokens: 700 },
      { name: 'memory/notes', tokens: 300 },
    ]);
    expect(view).toMatchObject({
      percent: 72,
      level: 'warn',
      reservedPercent: 10,
      cachedPromptTokens: 4096,
      estimate: false,
    });
  });

  it('names each part in the page’s language when the server sent both, else as sent', () => {
    const both: UsageEntry = {
      ...entry,
      parts: [
        { label: '历史消息', labels: { 'zh-CN': '历史消息', en: 'History' }, tokens: 5000 },
        { label: 'A part nobody planned for', tokens: 1200 },
      ],
    };
    expect(usageView(both, 'en').segments.map((segment) => segment.label)).toEqual([
      'History',
      'A part nobody planned for',
    ]);
    expect(usageView(both, 'zh-CN').segments[0]!.label).toBe('历史消息');
    expect(usageView(both).segments[0]!.label).toBe('历史消息');
  });

  it('levels follow the budget tool thresholds; a snapshot is an estimate; colours cycle', () => {
    expect(usageView({ ...entry, usageRatio: 0.49 }).level).toBe('ok');
    expect(usageView({ ...entry, usageRatio: 0.5 }).level).toBe('info');
    expect(usageView({ ...entry, usageRatio: 0.85 }).level).toBe('critical');
    expect(usageView({ ...entry, turnId: undefined }).estimate).toBe(true);
    const many = Array.from({ length: USAGE_COLOURS + 2 }, (_, index) => ({ label: `p${index}`, tokens: 1 }));
    expect(usageView({ ...entry, parts: many }).segments.at(-1)!.colour).toBe(1);
    expect(usageView({ ...entry, contextWindow: 0 }).percent).toBe(0);
  });

  it('after a reload shows the last real call’s figures, not the estimate, and says when the parts add up to less', () => {
    const snapshot: UsageEntry = {
      ...entry,
      turnId: undefined,
      used: 7000,
      measured: false,
      partsTotal: 7200,
      lastCall: {
        turnId: 't9',
        at: 5,
        promptTokens: 6400,
        completionTokens: 120,
        cachedPromptTokens: 4096,
        model: 'openai/m',
      },
    };
    const view = usageView(snapshot);
    expect(view).toMatchObject({
      estimate: false,
      used: 6400,
      percent: 64,
      completionTokens: 120,
      cachedPromptTokens: 4096,
      model: 'openai/m',
      partsTotal: 7200,
      partsDiffer: true,
      lastCall: { at: 5, promptTokens: 6400 },
    });
    // A snapshot without any call yet is an estimate; the parts are the estimate, so they add up.
    const fresh = usageView({ ...snapshot, lastCall: undefined, partsTotal: 7000 });
    expect(fresh).toMatchObject({ estimate: true, used: 7000, partsDiffer: false });
    // A real call: the model's count, the parts (estimates) beside it.
    expect(usageView({ ...entry, measured: true, partsTotal: 7200 })).toMatchObject({
      estimate: false,
      partsDiffer: false,
    });
  });
});
