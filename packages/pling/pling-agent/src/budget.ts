// Budgets per run: the tokens and the estimated cost one send() may use (config.budget), and a host hook for a
// budget the runtime cannot see (a tenant's, across sessions and pages). Checked before every model request;
// reaching one ends the run with a notice, like maxTurns — a limit, not a failure.
import type { PricingConfig } from './config.js';
import { estimateCost, type TelemetrySnapshot } from './telemetry.js';
import type { RuntimeTexts } from './texts.js';

/** Limits on one run (one send()), both optional. */
export interface BudgetConfig {
  /** Prompt plus completion tokens of every model call of the run (reported usage, else the estimate). */
  maxRunTokens?: number;
  /** Estimated cost of the run, in the currency of `pricing`; needs `pricing`. */
  maxRunCost?: number;
}

/** What a run has used so far. */
export interface RunUsage {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Undefined without `pricing`. */
  estimatedCost: number | undefined;
}

export interface BudgetCheckContext {
  sessionId: string;
  /** The turn about to start, from 1. */
  turn: number;
  run: RunUsage;
  /** The runtime's telemetry so far (every session, since the last reset). */
  telemetry: TelemetrySnapshot;
}

/**
 * A host's budget (e.g. per tenant), asked before every model request: return `{ exceeded: true, reason? }` to end
 * the run with a budget notice (the reason is shown in it), anything else to go on.
 */
export type BudgetCheck = (context: BudgetCheckContext) => BudgetDecision | Promise<BudgetDecision>;
// biome-ignore lint/suspicious/noConfusingVoidType: a check that lets the run go on returns nothing
export type BudgetDecision = { exceeded: true; reason?: string } | undefined | void | false;

export class RunBudget {
  private usage: RunUsage;

  constructor(private readonly pricing: PricingConfig | undefined) {
    this.usage = { modelCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, estimatedCost: undefined };
    if (pricing) this.usage.estimatedCost = 0;
  }

  record({ promptTokens, completionTokens }: { promptTokens: number; completionTokens: number }): void {
    const next = {
      modelCalls: this.usage.modelCalls + 1,
      promptTokens: this.usage.promptTokens + promptTokens,
      completionTokens: this.usage.completionTokens + completionTokens,
    };
    this.usage = {
      ...next,
      totalTokens: next.promptTokens + next.completionTokens,
      estimatedCost: this.pricing ? estimateCost(this.pricing, next) : undefined,
    };
  }

  get run(): RunUsage {
    return { ...this.usage };
  }

  /** The notice's detail when a configured limit is reached, else undefined. */
  reached(budget: BudgetConfig | undefined, texts: RuntimeTexts): string | undefined {
    if (!budget) return undefined;
    const { totalTokens, estimatedCost } = this.usage;
    if (budget.maxRunTokens !== undefined && totalTokens >= budget.maxRunTokens) {
      return texts.budgetTokens(totalTokens, budget.maxRunTokens);
    }
    if (budget.maxRunCost !== undefined && estimatedCost !== undefined && estimatedCost >= budget.maxRunCost) {
      return texts.budgetCost(round(estimatedCost), budget.maxRunCost);
    }
    return undefined;
  }
}

function round(cost: number): number {
  return Math.round(cost * 1e6) / 1e6;
}
