import { estimateTextTokens } from '@aalis/context-budget';
import { describe, expect, it } from 'vitest';
import { blockCosts, excerptLabel, headerTokens, LineCosts, recallBlock } from './recall-block.js';
import type { RecallEntry } from './recall-store.js';

const entry = (messageId: string, at: number, text: string): RecallEntry => ({
  messageId,
  sessionId: 'qq:group:7',
  audience: 'room:qq:7',
  speaker: 'Ann',
  role: 'user',
  at,
  text,
});
const options = (timeZone: string, locale: 'en' | 'zh-CN' = 'en') => ({
  sessionId: 'qq:group:1',
  locale,
  timeZone,
  itemMaxChars: 200,
  neighbourMaxChars: 90,
});

describe('recalled block labels', () => {
  it('labels each excerpt with its own minute, in the time zone and locale asked, the same when asked again', () => {
    const morning = entry('a', Date.UTC(2025, 2, 3, 10, 0, 30), 'first');
    const sameMinute = entry('b', Date.UTC(2025, 2, 3, 10, 0, 59), 'second');
    const nextMinute = entry('c', Date.UTC(2025, 2, 3, 10, 1, 0), 'third');
    expect(excerptLabel(morning, options('UTC'))).toBe('[2025-03-03 10:00] qq group 7:');
    expect(excerptLabel(sameMinute, options('UTC'))).toBe('[2025-03-03 10:00] qq group 7:');
    expect(excerptLabel(nextMinute, options('UTC'))).toBe('[2025-03-03 10:01] qq group 7:');
    // Another zone or locale is not served the first one's words.
    expect(excerptLabel(morning, options('Asia/Shanghai'))).toBe('[2025-03-03 18:00] qq group 7:');
    expect(excerptLabel(morning, options('Asia/Shanghai', 'zh-CN'))).toBe('[2025-03-03 18:00] qq 群 7:');
    expect(excerptLabel(morning, options('UTC'))).toBe('[2025-03-03 10:00] qq group 7:');
  });

  it('prices the header as rendered, per locale', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const block = recallBlock(
        [{ entries: [entry('a', 0, 'x')], matched: new Set(['a']), dense: new Set(), score: 1 }],
        options('UTC', locale),
      )!;
      const [header, preamble] = block.split('\n');
      const expected = estimateTextTokens(header!) + estimateTextTokens(preamble!) + 4;
      expect(headerTokens(locale)).toBe(expected);
      expect(headerTokens(locale)).toBe(expected);
    }
    expect(headerTokens('en')).not.toBe(headerTokens('zh-CN'));
  });

  it('prices a line the same from kept costs, per locale and length, and anew once emptied', () => {
    const long = entry('a', 0, 'word '.repeat(200));
    const kept = new LineCosts(3);
    for (const locale of ['en', 'zh-CN'] as const) {
      const fresh = blockCosts(options('UTC', locale));
      const keeping = blockCosts(options('UTC', locale), kept);
      for (const matched of [true, false]) {
        expect(keeping.line(long, matched)).toBe(fresh.line(long, matched));
        expect(keeping.line(long, matched)).toBe(fresh.line(long, matched));
      }
    }
    // A match is priced at its full length, a neighbour cut short.
    const costs = blockCosts(options('UTC'), kept);
    expect(costs.line(long, true)).toBeGreaterThan(costs.line(long, false));
    let estimated = 0;
    kept.of('k', () => ++estimated);
    kept.of('k', () => ++estimated);
    expect(estimated).toBe(1);
    kept.clear();
    kept.of('k', () => ++estimated);
    expect(estimated).toBe(2);
  });
});
