// `admin.usage` (docs/session-protocol.md 「Usage page」): the calls of the last `days` days summed by day, model,
// account, session or platform, their total, and one row per day for the chart. Days are the reader's (their UTC
// offset), so 「today」 on the page is the reader's today.
import type { ResultOf, UsageGroupBy, UsageRow } from '@aalis/session-client';
import { integerParam } from '../accounts/account-params.js';
import { badParam } from '../params.js';
import type { UsageStore } from './usage-store.js';

const GROUPS: readonly UsageGroupBy[] = ['day', 'model', 'account', 'session', 'platform'];
const DAY_MS = 86_400_000;

function rowOf(sum: UsageRow): UsageRow {
  return { ...sum };
}

function emptyRow(key: string): UsageRow {
  return { key, calls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, cost: 0, unpriced: 0 };
}

/** YYYY-MM-DD of a moment in the reader's offset. */
function dayKey(at: number, offsetMs: number): string {
  return new Date(at + offsetMs).toISOString().slice(0, 10);
}

export async function usageReport(
  store: UsageStore,
  params: Record<string, unknown>,
  now = Date.now(),
): Promise<ResultOf<'admin.usage'>> {
  const type = 'admin.usage';
  const groupBy = params.groupBy;
  if (typeof groupBy !== 'string' || !(GROUPS as readonly string[]).includes(groupBy)) {
    badParam(type, 'groupBy', 'oneOf', groupBy, { values: GROUPS.join(', ') });
  }
  const days = integerParam(type, params, 'days', { min: 1, max: 90, fallback: 30 });
  const offsetMs = integerParam(type, params, 'utcOffsetMinutes', { min: -840, max: 840, fallback: 0 }) * 60_000;
  const limit = integerParam(type, params, 'limit', { min: 1, max: 1000, fallback: 200 });
  // From the start of the reader's day `days - 1` days ago to now.
  const todayStart = Math.floor((now + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
  const from = todayStart - (days - 1) * DAY_MS;
  const to = now + 1;
  const period = { from, to, offsetMs };
  const [grouped, daily] = await Promise.all([
    store.sums({ ...period, groupBy: groupBy as UsageGroupBy, limit }),
    store.sums({ ...period, groupBy: 'day', limit: 100 }),
  ]);
  const byDay = new Map(daily.map((sum) => [sum.key, sum]));
  const series: UsageRow[] = [];
  for (let index = 0; index < days; index++) {
    const key = dayKey(from + index * DAY_MS, offsetMs);
    const sum = byDay.get(key);
    series.push(sum ? rowOf(sum) : emptyRow(key));
  }
  const total = emptyRow('total');
  for (const row of series) {
    total.calls += row.calls;
    total.promptTokens += row.promptTokens;
    total.completionTokens += row.completionTokens;
    total.cachedPromptTokens += row.cachedPromptTokens;
    total.cost += row.cost;
    total.unpriced += row.unpriced;
    total.currency ??= row.currency;
  }
  return { from, to, days, groupBy: groupBy as UsageGroupBy, rows: grouped.map(rowOf), total, daily: series };
}
