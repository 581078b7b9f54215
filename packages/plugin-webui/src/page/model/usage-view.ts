// The usage panel's figures from a `usage` entry: the parts as a stacked bar over the context window and as rows,
// drawn in the order given and coloured by position — the page never looks at a part's label or key, so a part a
// plugin adds later is drawn like the others. Pure.
import type { UsageEntry } from '@aalis/session-client';

/** How many distinct colours the bar cycles through (the stylesheet defines --usage-0 … --usage-9). */
export const USAGE_COLOURS = 10;

export interface UsageSegment {
  label: string;
  tokens: number;
  /** Share of the context window, 0–100. */
  percent: number;
  /** Index into the palette. */
  colour: number;
  /** Sub-rows (by injector), when the part has them. */
  details: { name: string; tokens: number }[];
}

export interface UsageView {
  used: number;
  contextWindow: number;
  /** used ÷ context window, 0–100 (may exceed 100). */
  percent: number;
  /** The level the prompt_budget_info tool uses: <50 ok, <70 info, <85 warn, else critical. */
  level: 'ok' | 'info' | 'warn' | 'critical';
  segments: UsageSegment[];
  /** Room the bar leaves for the reply (maxTokens), as a share of the window. */
  reservedPercent: number;
  maxTokens: number;
  tokenBudget: number;
  trimmed: boolean;
  historyMessages: number;
  historyLimit: number;
  cachedPromptTokens?: number;
  completionTokens?: number;
  model?: string;
  /** A snapshot (token:request) rather than a real model call. */
  estimate: boolean;
}

function share(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

export function usageView(entry: UsageEntry): UsageView {
  const ratio = entry.usageRatio;
  const level = ratio < 0.5 ? 'ok' : ratio < 0.7 ? 'info' : ratio < 0.85 ? 'warn' : 'critical';
  return {
    used: entry.used,
    contextWindow: entry.contextWindow,
    percent: share(entry.used, entry.contextWindow),
    level,
    segments: entry.parts
      .filter((part) => part.tokens > 0)
      .map((part, index) => ({
        label: part.label,
        tokens: part.tokens,
        percent: share(part.tokens, entry.contextWindow),
        colour: index % USAGE_COLOURS,
        details: Object.entries(part.injectors ?? {})
          .filter(([, tokens]) => tokens > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([name, tokens]) => ({ name, tokens })),
      })),
    reservedPercent: share(entry.maxTokens, entry.contextWindow),
    maxTokens: entry.maxTokens,
    tokenBudget: entry.tokenBudget,
    trimmed: entry.trimmed,
    historyMessages: entry.historyMessages,
    historyLimit: entry.historyLimit,
    cachedPromptTokens: entry.cachedPromptTokens,
    completionTokens: entry.completionTokens,
    model: entry.model,
    estimate: entry.turnId === undefined,
  };
}
