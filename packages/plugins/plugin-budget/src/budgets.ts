// What counts against which budget, and whether a model call may run: a person's usage per day, a room's (session's)
// per day, the deployment's per month, each in tokens (prompt + completion) or money (llm:usage's estimatedCost,
// from the per-model prices). Counted in the storage engine's database, so every process adds to and reads the same
// counters.
import type { BudgetKind, BudgetLimit, BudgetLine, BudgetOverview } from '@aalis/api-budget';
import type { LlmUsageEvent } from '@aalis/api-llm';
import { dayOf, monthOf } from './budget-periods.js';
import type { BudgetStore, BudgetUsage } from './budget-store.js';

export { BUDGET_KINDS, type BudgetKind, type BudgetLine } from '@aalis/api-budget';

export interface BudgetLimits {
  unit: 'tokens' | 'money';
  person: number;
  room: number;
  deployment: number;
  timeZone: string;
  warnAt: number;
}

export interface Subject {
  sessionId: string;
  /** '<platform>:<userId>' of who opened the turn; undefined for nobody in particular. */
  person: string | undefined;
}

export class Budgets {
  constructor(
    private readonly store: BudgetStore,
    private readonly limits: BudgetLimits,
  ) {}

  get unit(): 'tokens' | 'money' {
    return this.limits.unit;
  }

  amountOf(usage: BudgetUsage): number {
    return this.limits.unit === 'money' ? usage.cost : usage.tokens;
  }

  scopes(subject: Subject, now: number): { kind: BudgetKind; scope: string; period: string }[] {
    const day = dayOf(now, this.limits.timeZone);
    const scopes: { kind: BudgetKind; scope: string; period: string }[] = [
      { kind: 'deployment', scope: 'deployment', period: monthOf(now, this.limits.timeZone) },
      { kind: 'room', scope: `room:${subject.sessionId}`, period: day },
    ];
    if (subject.person) scopes.push({ kind: 'person', scope: `person:${subject.person}`, period: day });
    return scopes;
  }

  async limitOf(kind: BudgetKind): Promise<number> {
    return (await this.store.limit(kind)) ?? this.limits[kind];
  }

  async setLimit(kind: BudgetKind, amount: number | undefined): Promise<void> {
    await this.store.setLimit(kind, amount);
  }

  async limitView(kind: BudgetKind): Promise<BudgetLimit> {
    const stored = await this.store.limit(kind);
    return { kind, limit: stored ?? this.limits[kind], configured: this.limits[kind], adjusted: stored !== undefined };
  }

  /** The limits, the deployment's month, and today's rooms and people most used first (`top` each). */
  async overview(now: number, top: number): Promise<Omit<BudgetOverview, 'currency'>> {
    const day = dayOf(now, this.limits.timeZone);
    const month = monthOf(now, this.limits.timeZone);
    const by = this.limits.unit === 'money' ? 'cost' : 'tokens';
    const limits = [await this.limitView('person'), await this.limitView('room'), await this.limitView('deployment')];
    const spends = async (prefix: string) =>
      (await this.store.top(prefix, day, by, top)).map((row) => ({
        id: row.scope.slice(prefix.length),
        used: this.amountOf(row),
      }));
    return {
      unit: this.limits.unit,
      timeZone: this.limits.timeZone,
      day,
      month,
      warnAt: this.limits.warnAt,
      limits,
      deployment: {
        used: this.amountOf(await this.store.used('deployment', month)),
        limit: limits[2]!.limit,
      },
      rooms: await spends('room:'),
      people: await spends('person:'),
    };
  }

  /** Every budget of the subject now, used and limit. */
  async lines(subject: Subject, now: number): Promise<BudgetLine[]> {
    const lines: BudgetLine[] = [];
    for (const { kind, scope, period } of this.scopes(subject, now)) {
      lines.push({
        kind,
        scope,
        period,
        used: this.amountOf(await this.store.used(scope, period)),
        limit: await this.limitOf(kind),
      });
    }
    return lines;
  }

  /** The first budget the subject is over (deployment, room, person), or undefined when a call may run. */
  async exhausted(subject: Subject, now: number): Promise<BudgetLine | undefined> {
    for (const line of await this.lines(subject, now)) {
      if (line.limit > 0 && line.used >= line.limit) return line;
    }
    return undefined;
  }

  /**
   * Counts one call's usage against the subject's budgets; returns the budgets that crossed the warning line with
   * this call and whose warning this caller claimed (so each is told once, whichever process counted it).
   */
  async count(subject: Subject, event: LlmUsageEvent, now: number): Promise<BudgetLine[]> {
    const usage = { tokens: event.promptTokens + event.completionTokens, cost: event.estimatedCost ?? 0 };
    const scopes = this.scopes(subject, now);
    await this.store.add(scopes, usage);
    const warnings: BudgetLine[] = [];
    for (const line of await this.lines(subject, now)) {
      if (line.limit <= 0 || line.used < line.limit * this.limits.warnAt) continue;
      if (await this.store.claimWarning(line.scope, line.period)) warnings.push(line);
    }
    return warnings;
  }
}
