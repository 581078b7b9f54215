// Durations as people type them in a chat: a number and a unit (s/m/h/d, or 秒/分/分钟/小时/时/天), several
// parts allowed ("1h30m"); a bare number is minutes. Undefined when the text is not one.
const UNIT_MS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  秒: 1000,
  m: 60_000,
  min: 60_000,
  分: 60_000,
  分钟: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  小时: 3_600_000,
  时: 3_600_000,
  d: 86_400_000,
  天: 86_400_000,
};

/** Longest duration accepted (a year): a typo of many zeros must not overflow a timestamp. */
export const MAX_DURATION_MS = 366 * 86_400_000;

export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number(trimmed) * 60_000, MAX_DURATION_MS) || undefined;
  const part = /(\d+(?:\.\d+)?)\s*(分钟|小时|sec|min|hr|[smhd秒分时天])/gy;
  let total = 0;
  let index = 0;
  for (let match = part.exec(trimmed); match; match = part.exec(trimmed)) {
    total += Number(match[1]) * (UNIT_MS[match[2]!] ?? 0);
    index = part.lastIndex;
  }
  if (index !== trimmed.length || total <= 0) return undefined;
  return Math.min(total, MAX_DURATION_MS);
}
