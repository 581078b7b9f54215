// The usage panel's figures from a `usage` entry: the parts as a stacked bar over the context window and as rows,
// drawn in the order given and coloured by position — the page never looks at a part's label or key, so a part a
// plugin adds later is drawn like the others. Pure.
import type { Locale } from '@aalis/core';
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
  /** The figures are the host's estimate (the snapshot after subscribe, a provider without usage), not a call's. */
  estimate: boolean;
  /** The sum of the parts (estimates): what the rows add up to. */
  partsTotal: number;
  /** The parts' sum differs from `used`, the model's own count: the page says so instead of letting it look wrong. */
  partsDiffer: boolean;
  /** The last real model call of the session, as stored with its turn (shown after a reload instead of an estimate). */
  lastCall?: {
    at: number;
    promptTokens: number;
    completionTokens: number;
    cachedPromptTokens?: number;
    model?: string;
  };
}

function share(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** `locale` is the page's: a part's label in it when the server sent both (`labels`), else as sent. */
export function usageView(entry: UsageEntry, locale?: Locale): UsageView {
  // An entry of a real call says so (measured); an older server only by naming the turn.
  const estimate = entry.measured === undefined ? entry.turnId === undefined : !entry.measured;
  const partsTotal = entry.partsTotal ?? entry.parts.reduce((sum, part) => sum + Math.max(0, part.tokens), 0);
  const last = estimate ? entry.lastCall : undefined;
  const used = last ? last.promptTokens : entry.used;
  const ratio = last ? (entry.contextWindow > 0 ? used / entry.contextWindow : 0) : entry.usageRatio;
  const level = ratio < 0.5 ? 'ok' : ratio < 0.7 ? 'info' : ratio < 0.85 ? 'warn' : 'critical';
  return {
    used,
    contextWindow: entry.contextWindow,
    percent: share(used, entry.contextWindow),
    level,
    segments: entry.parts
      .filter((part) => part.tokens > 0)
      .map((part, index) => ({
        label: (locale && part.labels?.[locale]) || part.label,
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
    cachedPromptTokens: last ? last.cachedPromptTokens : entry.cachedPromptTokens,
    completionTokens: last ? last.completionTokens : entry.completionTokens,
    model: last?.model ?? entry.model,
    // With the last call's figures the panel shows a real count again, not an estimate.
    estimate: estimate && !last,
    partsTotal,
    partsDiffer: Math.abs(partsTotal - used) > Math.max(1, used * 0.005),
    ...(last
      ? {
          lastCall: {
            at: last.at,
            promptTokens: last.promptTokens,
            completionTokens: last.completionTokens,
            ...(last.cachedPromptTokens !== undefined ? { cachedPromptTokens: last.cachedPromptTokens } : {}),
            ...(last.model !== undefined ? { model: last.model } : {}),
          },
        }
      : {}),
  };
}
