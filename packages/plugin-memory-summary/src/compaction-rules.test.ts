// The turn-end decision rules (plugin-agent.zh.md 「会话设置项」 historyLimit, 「Token 预算追踪与日志」 consumers).
import { describe, expect, it } from 'vitest';
import { compactionReason, messagesAtTurnEnd, type TurnUsage } from './compaction-rules.js';

const usage = (overrides: Partial<TurnUsage> = {}): TurnUsage => ({
  usageRatio: 0.1,
  trimmed: false,
  historyMessages: 3,
  historyLimit: 0,
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
