// The usage ratio buckets shared by plugin-agent's [token-usage:TAG] log line and the prompt_budget_info tool:
// < 0.5 OK, 0.5–0.7 INFO, 0.7–0.85 WARN, ≥ 0.85 CRITICAL.

export type UsageTag = 'OK' | 'INFO' | 'WARN' | 'CRITICAL';

export function usageTag(ratio: number): UsageTag {
  if (ratio >= 0.85) return 'CRITICAL';
  if (ratio >= 0.7) return 'WARN';
  if (ratio >= 0.5) return 'INFO';
  return 'OK';
}
