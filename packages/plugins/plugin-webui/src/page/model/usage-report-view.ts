// What the 用量/Usage section draws from an `admin.usage` report, framework-free: the cached share, the cost as
// text, the CSV export (RFC 4180), and the daily chart's bars in SVG units (stacked: uncached prompt, cached
// prompt, completion; cost as a second row of bars) — plain SVG, see docs/decisions/accounts.md.
import type { UsageReport, UsageRow } from '@aalis/session-client';

export interface UsageColumns {
  key: string;
  calls: string;
  prompt: string;
  cached: string;
  completion: string;
  cost: string;
  currency: string;
  unpriced: string;
}

/** Cached prompt tokens as a share of prompt tokens, 0–1 (0 without prompt tokens). */
export function cachedShare(row: Pick<UsageRow, 'promptTokens' | 'cachedPromptTokens'>): number {
  return row.promptTokens > 0 ? Math.min(1, row.cachedPromptTokens / row.promptTokens) : 0;
}

export function percentText(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

export function costText(row: Pick<UsageRow, 'cost' | 'currency'>): string {
  const digits = row.cost === 0 ? 2 : row.cost < 0.01 ? 4 : 2;
  return `${row.cost.toFixed(digits)}${row.currency ? ` ${row.currency}` : ''}`;
}

function csvField(value: string | number): string {
  const text = String(value);
  // A field a spreadsheet would run as a formula is written as text.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report's rows and its total as CSV, a header first (CRLF line ends, as RFC 4180 has them). */
export function usageCsv(report: UsageReport, columns: UsageColumns, totalLabel: string): string {
  const header = [
    columns.key,
    columns.calls,
    columns.prompt,
    columns.cached,
    columns.completion,
    columns.cost,
    columns.currency,
    columns.unpriced,
  ];
  const line = (row: UsageRow, key: string) =>
    [
      key,
      row.calls,
      row.promptTokens,
      row.cachedPromptTokens,
      row.completionTokens,
      Math.round(row.cost * 1e6) / 1e6,
      row.currency ?? '',
      row.unpriced,
    ]
      .map(csvField)
      .join(',');
  return `${[header.map(csvField).join(','), ...report.rows.map((row) => line(row, row.key)), line(report.total, totalLabel)].join('\r\n')}\r\n`;
}

export interface ChartBar {
  key: string;
  x: number;
  width: number;
  /** Stacked from the bottom: uncached prompt, cached prompt, completion (token chart); or the cost. */
  segments: { part: 'prompt' | 'cached' | 'completion' | 'cost'; y: number; height: number; value: number }[];
}

/** Bars of the daily series, `width` × `height` units, the tallest day reaching the top. */
export function tokenBars(daily: readonly UsageRow[], width: number, height: number): ChartBar[] {
  const most = Math.max(1, ...daily.map((row) => row.promptTokens + row.completionTokens));
  const slot = width / Math.max(1, daily.length);
  return daily.map((row, index) => {
    const parts = [
      { part: 'prompt' as const, value: row.promptTokens - Math.min(row.cachedPromptTokens, row.promptTokens) },
      { part: 'cached' as const, value: Math.min(row.cachedPromptTokens, row.promptTokens) },
      { part: 'completion' as const, value: row.completionTokens },
    ];
    let bottom = height;
    const segments = parts.map(({ part, value }) => {
      const size = (value / most) * height;
      bottom -= size;
      return { part, y: bottom, height: size, value };
    });
    return { key: row.key, x: index * slot + slot * 0.15, width: slot * 0.7, segments };
  });
}

export function costBars(daily: readonly UsageRow[], width: number, height: number): ChartBar[] {
  const most = Math.max(Number.MIN_VALUE, ...daily.map((row) => row.cost));
  const slot = width / Math.max(1, daily.length);
  return daily.map((row, index) => {
    const size = most > 0 ? (row.cost / most) * height : 0;
    return {
      key: row.key,
      x: index * slot + slot * 0.15,
      width: slot * 0.7,
      segments: [{ part: 'cost', y: height - size, height: size, value: row.cost }],
    };
  });
}
