// The turn-end decision rules (plugin-agent.zh.md 「会话设置项」 historyLimit, 「Token 预算追踪与日志」 consumers).
import type { TokenBreakdown } from '@aalis/api-agent';
import { estimateMessageTokens } from '@aalis/context-budget';
import { describe, expect, it } from 'vitest';
import {
  compactionReason,
  messagesAtTurnEnd,
  nearHistoryCut,
  replyTokensOf,
  type TurnUsage,
} from './compaction-rules.js';

const breakdown = (sent: { system?: number; history?: number; toolResults?: number } = {}): TokenBreakdown => ({
  system: sent.system ?? 300,
  persona: 0,
  memorySummary: 0,
  memoryVector: 0,
  skills: 0,
  platform: 0,
  subtask: 0,
  systemOther: sent.system ?? 300,
  history: sent.history ?? 200,
  toolResults: sent.toolResults ?? 0,
  // Tool definitions count with the head; the cases that need them set them.
  toolDefs: 0,
  reservedForReply: 1024,
  injectors: {},
});

// Budget 6656 (an 8k window, 1024 output): unit 1664, step 1 cuts above 4992 of head + history; a quarter unit
// (416) before that is 4576.
const usage = (overrides: Partial<TurnUsage> = {}): TurnUsage => ({
  usageRatio: 0.1,
  trimmed: false,
  historyMessages: 3,
  historyLimit: 0,
  tokenBudget: 6656,
  breakdown: breakdown(),
  ...overrides,
});

describe('compaction rules', () => {
  it('usage line: the turn’s last usageRatio at or above the line compacts', () => {
    expect(compactionReason({ usage: usage({ usageRatio: 0.8 }), outcome: 'replied', autoCompactRatio: 0.8 })).toBe(
      'usage-line',
    );
    expect(compactionReason({ usage: usage({ usageRatio: 0.93 }), outcome: 'silent', autoCompactRatio: 0.8 })).toBe(
      'usage-line',
    );
  });

  it('usage line: below the line nothing happens', () => {
    expect(
      compactionReason({ usage: usage({ usageRatio: 0.799 }), outcome: 'replied', autoCompactRatio: 0.8 }),
    ).toBeUndefined();
  });

  it('trimmed: a hard-trimmed turn compacts even below the line', () => {
    expect(
      compactionReason({ usage: usage({ usageRatio: 0.3, trimmed: true }), outcome: 'replied', autoCompactRatio: 0.8 }),
    ).toBe('trimmed');
  });

  it('before-trim: the sent messages within a quarter unit of step 1’s cut line compact before any history is dropped', () => {
    const near = usage({ breakdown: breakdown({ system: 576, history: 3800, toolResults: 200 }) }); // 4576
    const below = usage({ breakdown: breakdown({ system: 576, history: 3799, toolResults: 200 }) }); // 4575
    expect(nearHistoryCut(near)).toBe(true);
    expect(nearHistoryCut(below)).toBe(false);
    expect(compactionReason({ usage: near, outcome: 'replied', autoCompactRatio: 0.8 })).toBe('before-trim');
    expect(compactionReason({ usage: below, outcome: 'replied', autoCompactRatio: 0.8 })).toBeUndefined();
    // The tool definitions count with the head in the trim budget, so they bring the cut nearer.
    expect(nearHistoryCut(usage({ breakdown: { ...breakdown({ history: 4000 }), toolDefs: 500 } }))).toBe(true);
    expect(nearHistoryCut(usage({ breakdown: { ...breakdown({ history: 3000 }), toolDefs: 500 } }))).toBe(false);
    // The reply reserve does not.
    expect(nearHistoryCut(usage({ breakdown: { ...breakdown({ history: 4000 }), reservedForReply: 9000 } }))).toBe(
      false,
    );
  });

  it('before-trim counts the final reply: a reply that takes the next turn to the cut line compacts now', () => {
    // 4376 sent: 200 under the early line (4576). The reply is history in the next turn, so it decides.
    const sent = usage({ breakdown: breakdown({ system: 576, history: 3600, toolResults: 200 }) });
    const long = 'x'.repeat(1200);
    const replyTokens = estimateMessageTokens({ role: 'assistant', content: long });
    expect(replyTokens).toBeGreaterThanOrEqual(200);
    expect(nearHistoryCut(sent)).toBe(false);
    expect(nearHistoryCut(sent, replyTokens)).toBe(true);
    expect(compactionReason({ usage: sent, outcome: 'replied', autoCompactRatio: 0.8, reply: long })).toBe(
      'before-trim',
    );
    // A short reply leaves room; a turn that stored no reply adds nothing; line 0 still switches it off.
    expect(compactionReason({ usage: sent, outcome: 'replied', autoCompactRatio: 0.8, reply: 'ok' })).toBeUndefined();
    expect(compactionReason({ usage: sent, outcome: 'silent', autoCompactRatio: 0.8, reply: long })).toBeUndefined();
    expect(replyTokensOf({ reply: long, outcome: 'aborted' })).toBe(0);
    expect(compactionReason({ usage: sent, outcome: 'replied', autoCompactRatio: 0, reply: long })).toBeUndefined();
  });

  it('before-trim: the reply counts towards the one unit of history a compaction needs', () => {
    // Head 3000: 4600 sent is past the early line (4576), but 1600 of history is under a unit (1664) on its own.
    const sent = usage({ breakdown: breakdown({ system: 3000, history: 1600 }) });
    expect(nearHistoryCut(sent)).toBe(false);
    expect(nearHistoryCut(sent, 100)).toBe(true);
  });

  it('before-trim: not while history and tool results are under one unit (the head fills the budget)', () => {
    // 3000 + 1663 is past the line, but compacting 1663 tokens would not make room: step 1 would drop them anyway.
    expect(nearHistoryCut(usage({ breakdown: breakdown({ system: 3000, history: 1663 }) }))).toBe(false);
    expect(nearHistoryCut(usage({ breakdown: breakdown({ system: 3000, history: 1600, toolResults: 64 }) }))).toBe(
      true,
    );
  });

  it('before-trim: a trimmed turn reports `trimmed`; line 0 switches it off', () => {
    const near = usage({ breakdown: breakdown({ history: 4400 }) });
    expect(compactionReason({ usage: { ...near, trimmed: true }, outcome: 'replied', autoCompactRatio: 0.8 })).toBe(
      'trimmed',
    );
    expect(compactionReason({ usage: near, outcome: 'replied', autoCompactRatio: 0 })).toBeUndefined();
  });

  it('line 0 = off: neither the ratio nor trimming compacts', () => {
    expect(
      compactionReason({ usage: usage({ usageRatio: 0.99, trimmed: true }), outcome: 'replied', autoCompactRatio: 0 }),
    ).toBeUndefined();
  });

  it('historyLimit: reaching the limit compacts everything, whatever the line', () => {
    expect(
      compactionReason({
        usage: usage({ historyMessages: 4, historyLimit: 4 }),
        outcome: 'silent',
        autoCompactRatio: 0,
      }),
    ).toBe('history-limit');
    expect(
      compactionReason({
        usage: usage({ usageRatio: 0.9, historyMessages: 9, historyLimit: 4 }),
        outcome: 'replied',
        autoCompactRatio: 0.8,
      }),
    ).toBe('history-limit');
  });

  it('historyLimit: the final reply of a replied turn counts (it is stored after the last call)', () => {
    const lastCall = usage({ historyMessages: 3, historyLimit: 4 });
    expect(messagesAtTurnEnd({ usage: lastCall, outcome: 'replied' })).toBe(4);
    expect(compactionReason({ usage: lastCall, outcome: 'replied', autoCompactRatio: 0 })).toBe('history-limit');
    expect(compactionReason({ usage: lastCall, outcome: 'aborted', autoCompactRatio: 0 })).toBeUndefined();
  });

  it('historyLimit 0 = no count limit', () => {
    expect(
      compactionReason({
        usage: usage({ historyMessages: 500, historyLimit: 0 }),
        outcome: 'replied',
        autoCompactRatio: 0,
      }),
    ).toBeUndefined();
  });
});
