// @aalis/api-budget: what the budgets have used against their limits, and adjusting the limits. The budget plugin
// provides it; the WebUI's budget panel (through the session server) and /budget read and change the same numbers.
import { defineService, type ServiceDescriptor } from '@aalis/core';

/** A person's budget per day, a room's (session's) per day, the whole deployment's per month. */
export type BudgetKind = 'person' | 'room' | 'deployment';
export const BUDGET_KINDS: readonly BudgetKind[] = ['person', 'room', 'deployment'];

export type BudgetUnit = 'tokens' | 'money';

/** One budget of one subject now. */
export interface BudgetLine {
  kind: BudgetKind;
  /** 'deployment', 'room:<sessionId>' or 'person:<platform>:<userId>'. */
  scope: string;
  /** The day ('2026-12-07') or month ('2026-12') it counts, in the budget's time zone. */
  period: string;
  used: number;
  /** 0 = no limit. */
  limit: number;
}

/** The limit of a kind: the configured one, or the one adjusted from the WebUI or /budget (stored, shared). */
export interface BudgetLimit {
  kind: BudgetKind;
  /** In force now; 0 = no limit. */
  limit: number;
  /** The configuration's value (plugins.budget.personPerDay / roomPerDay / deploymentPerMonth). */
  configured: number;
  /** An adjusted limit is stored and wins over the configured one. */
  adjusted: boolean;
}

/** What one room or person has used in the current day. */
export interface BudgetSpend {
  /** The session id of a room; '<platform>:<userId>' of a person. */
  id: string;
  used: number;
}

export interface BudgetOverview {
  unit: BudgetUnit;
  /** How money amounts are labelled (unit 'money'). */
  currency: string;
  timeZone: string;
  /** The current day and month in the budget's time zone. */
  day: string;
  month: string;
  /** The share of a budget at which the owners are told (0–1). */
  warnAt: number;
  limits: BudgetLimit[];
  /** The deployment's use this month. */
  deployment: { used: number; limit: number };
  /** Today's rooms and people, most used first (at most `top` each). */
  rooms: BudgetSpend[];
  people: BudgetSpend[];
}

export interface BudgetService {
  overview(options?: { top?: number }): Promise<BudgetOverview>;
  /** Every budget that counts for a session and (when given) a person ('<platform>:<userId>'), deployment first. */
  lines(subject: { sessionId: string; person?: string }): Promise<BudgetLine[]>;
  /** Stores a kind's limit (0 = none) for every process; undefined goes back to the configured value. */
  setLimit(kind: BudgetKind, amount: number | undefined): Promise<BudgetLimit>;
}

export const budgets: ServiceDescriptor<BudgetService> = defineService<BudgetService>('budgets');
