// What prompt_budget_info answers: the figures of a token:usage event as compact JSON, tagged with the same
// thresholds as plugin-agent's [token-usage:TAG] log line (usageTag), and one advice sentence for the tag.
import type { TokenBreakdown, TokenUsageEvent } from '@aalis/api-agent';
import { usageTag } from '@aalis/api-agent';

export type BudgetTag = ReturnType<typeof usageTag>;

export interface BudgetFigures {
  used: number;
  contextWindow: number;
  /** Rounded to three decimals. */
  usageRatio: number;
  tag: BudgetTag;
  tokenBudget: number;
  trimmed: boolean;
  historyMessages: number;
  historyLimit: number;
  /** Without `injectors` when there are none. */
  breakdown: Partial<TokenBreakdown>;
  /** Present (true) when the figures come from a token:request snapshot rather than a model call. */
  snapshot?: true;
}

export function budgetFigures(event: TokenUsageEvent): BudgetFigures {
  const { injectors, ...buckets } = event.breakdown;
  const figures: BudgetFigures = {
    used: event.used,
    contextWindow: event.contextWindow,
    usageRatio: Math.round(event.usageRatio * 1000) / 1000,
    tag: usageTag(event.usageRatio),
    tokenBudget: event.tokenBudget,
    trimmed: event.trimmed,
    historyMessages: event.historyMessages,
    historyLimit: event.historyLimit,
    breakdown: Object.keys(injectors).length > 0 ? { ...buckets, injectors } : buckets,
  };
  if (event.turnId === undefined) figures.snapshot = true;
  return figures;
}

/** The tool's text: one line of JSON, then the advice for its tag. */
export function budgetReport(event: TokenUsageEvent, advice: (tag: BudgetTag) => string): string {
  const figures = budgetFigures(event);
  return `${JSON.stringify(figures)}\n${advice(figures.tag)}`;
}
