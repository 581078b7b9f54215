// The trim budget and its unit (上下文裁剪算法): context length × trimThresholdRatio − max output − 512, at least 1024;
// the unit of history drops is a quarter of the budget, rounded up.

export const SAFETY_MARGIN_TOKENS = 512;
export const MIN_TRIM_BUDGET = 1024;

export interface TrimBudgetOptions {
  contextWindow: number;
  maxOutputTokens: number;
  /** Default 1 (use the whole window minus the output reserve). */
  trimThresholdRatio?: number;
}

export interface TrimBudget {
  budget: number;
  unit: number;
}

export function trimBudget({ contextWindow, maxOutputTokens, trimThresholdRatio = 1 }: TrimBudgetOptions): TrimBudget {
  // Plain calls, not a loop over pairs: this runs on every model call, mostly before V8 optimises it.
  checkFigure('contextWindow', contextWindow);
  checkFigure('maxOutputTokens', maxOutputTokens);
  checkFigure('trimThresholdRatio', trimThresholdRatio);
  const budget = Math.max(
    MIN_TRIM_BUDGET,
    Math.floor(contextWindow * trimThresholdRatio - maxOutputTokens - SAFETY_MARGIN_TOKENS),
  );
  return { budget, unit: trimUnit(budget) };
}

function checkFigure(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`trimBudget: ${name} must be a finite number ≥ 0, got ${value}.`);
  }
}

/** The unit in which step 1 drops history: a quarter of the budget, rounded up. */
export function trimUnit(budget: number): number {
  return Math.ceil(budget / 4);
}

/**
 * Head plus history above this many tokens makes step 1 drop history (history over its available amount: the
 * budget less the head and one unit kept for this turn).
 */
export function historyCutLine(budget: number): number {
  return budget - trimUnit(budget);
}
