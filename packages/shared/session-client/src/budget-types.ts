// What the budget requests carry (docs/session-protocol.md 「Budgets」): the owner's overview of every budget (a
// person per day, a room per day, the deployment per month) with what was spent, adjusting a kind's limit, and the
// budgets that count for one session (its settings panel). Amounts are tokens or money, as `unit` says.

export type BudgetKindView = 'person' | 'room' | 'deployment';

export interface BudgetLimitView {
  kind: BudgetKindView;
  /** In force now; 0 = no limit. */
  limit: number;
  /** The configuration's value (plugins.budget.personPerDay / roomPerDay / deploymentPerMonth). */
  configured: number;
  /** Adjusted from the console or /budget: stored, wins over the configured value. */
  adjusted: boolean;
}

export interface BudgetSpendView {
  /** A room's session id, or a person's '<platform>:<userId>'. */
  id: string;
  used: number;
  /** A room's title when the host knows it. */
  title?: string;
}

export interface BudgetOverviewView {
  unit: 'tokens' | 'money';
  currency: string;
  timeZone: string;
  day: string;
  month: string;
  warnAt: number;
  limits: BudgetLimitView[];
  deployment: { used: number; limit: number };
  /** Today's rooms and people, most used first. */
  rooms: BudgetSpendView[];
  people: BudgetSpendView[];
}

export interface BudgetLineView {
  kind: BudgetKindView;
  /** The day or month it counts. */
  period: string;
  used: number;
  /** 0 = no limit. */
  limit: number;
}

export interface BudgetRequests {
  /** Owner: every budget and today's spending. `enabled: false` when no budget plugin runs. */
  'admin.budgets.get': {
    params: { top?: number };
    result: { enabled: boolean; overview?: BudgetOverviewView };
  };
  /** Owner: a kind's limit (a number ≥ 0; 0 = no limit), or null to go back to the configured value. Audited. */
  'admin.budgets.set': {
    params: { kind: BudgetKindView; limit: number | null };
    result: { limit: BudgetLimitView; overview: BudgetOverviewView };
  };
  /** Anyone who may see the session: the budgets that count for it (and for this account in its own chats). */
  'session.budget': {
    params: { sessionId: string };
    result: {
      enabled: boolean;
      unit?: 'tokens' | 'money';
      currency?: string;
      /** The share of a budget at which the owners are told (0–1). */
      warnAt?: number;
      lines: BudgetLineView[];
    };
  };
}

export const BUDGET_OWNER_REQUESTS = ['admin.budgets.get', 'admin.budgets.set'] as const;
export const BUDGET_REQUESTS = [...BUDGET_OWNER_REQUESTS, 'session.budget'] as const;
