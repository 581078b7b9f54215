import type { UsageReport, UsageRow } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { cachedShare, costBars, costText, percentText, tokenBars, usageCsv } from './usage-report-view.js';

function row(key: string, overrides: Partial<UsageRow> = {}): UsageRow {
  return {
    key,
    calls: 1,
    promptTokens: 100,
    completionTokens: 50,
    cachedPromptTokens: 40,
    cost: 0.25,
    unpriced: 0,
    currency: 'USD',
    ...overrides,
  };
}

const columns = {
  key: 'Item',
  calls: 'Calls',
  prompt: 'Prompt',
  cached: 'Cached',
  completion: 'Completion',
  cost: 'Cost',
  currency: 'Currency',
  unpriced: 'Unpriced',
};

describe('usage report view', () => {
  it('says the cached share and the cost', () => {
    expect(cachedShare(row('a'))).toBe(0.4);
    expect(cachedShare(row('a', { promptTokens: 0, cachedPromptTokens: 0 }))).toBe(0);
    expect(percentText(0.4567)).toBe('45.7%');
    expect(costText(row('a'))).toBe('0.25 USD');
    expect(costText(row('a', { cost: 0.0012, currency: undefined }))).toBe('0.0012');
  });

  it('exports the rows and the total as CSV, quoting commas, quotes and formula starts', () => {
    const report: UsageReport = {
      from: 0,
      to: 1,
      days: 30,
      groupBy: 'session',
      rows: [row('webui:owner:1'), row('a "quoted", name', { calls: 2 }), row('=HYPERLINK("x")')],
      total: row('total', { calls: 4, cost: 0.75 }),
      daily: [],
    };
    const csv = usageCsv(report, columns, 'Total');
    expect(csv.split('\r\n')).toEqual([
      'Item,Calls,Prompt,Cached,Completion,Cost,Currency,Unpriced',
      'webui:owner:1,1,100,40,50,0.25,USD,0',
      '"a ""quoted"", name",2,100,40,50,0.25,USD,0',
      `"'=HYPERLINK(""x"")",1,100,40,50,0.25,USD,0`,
      'Total,4,100,40,50,0.75,USD,0',
      '',
    ]);
  });

  it('stacks each day into uncached prompt, cached prompt and completion, the tallest day at full height', () => {
    const bars = tokenBars(
      [row('d1'), row('d2', { promptTokens: 200, cachedPromptTokens: 0, completionTokens: 100 })],
      200,
      100,
    );
    expect(bars.map((bar) => bar.x)).toEqual([15, 115]);
    // The tallest day has 300 tokens: the first day's 60 uncached, 40 cached and 50 completion tokens in 100 units.
    expect(bars[0]!.segments.map((segment) => [segment.part, Math.round(segment.height * 100) / 100])).toEqual([
      ['prompt', 20],
      ['cached', 13.33],
      ['completion', 16.67],
    ]);
    const tallest = bars[1]!.segments;
    expect(tallest.at(-1)!.y).toBeCloseTo(0, 9);
    const cost = costBars([row('d1', { cost: 1 }), row('d2', { cost: 0 })], 100, 50);
    expect(cost.map((bar) => bar.segments[0]!.height)).toEqual([50, 0]);
    expect(costBars([row('d1', { cost: 0 })], 100, 50)[0]!.segments[0]!.height).toBe(0);
  });
});
