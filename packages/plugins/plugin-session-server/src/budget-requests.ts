// The budget requests (docs/session-protocol.md 「Budgets」): the owner's overview of every budget with what was
// spent today and this month (admin.budgets.get), adjusting a kind's limit (admin.budgets.set, audited), and the
// budgets that count for one session, for whoever may see it (session.budget). The numbers are the budget
// plugin's own (@aalis/api-budget): the same ones /budget shows and the model-call check uses.
import { BUDGET_KINDS, type BudgetKind, type BudgetOverview, type BudgetService, budgets } from '@aalis/api-budget';
import { defineCatalogue } from '@aalis/core';
import type { BudgetOverviewView } from '@aalis/session-client';
import { recordAudit } from './audit.js';
import { badParam } from './params.js';
import type { Handler } from './request-handler.js';
import { type ServerDeps, WEBUI_PLATFORM } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession, ownSessionPrefix } from './session-access.js';

defineCatalogue({
  'zh-CN': { 'sessionServer.expected.budgetLimit': '0 到 1000000000000 之间的数（0 表示不限），或 null（回到配置值）' },
  en: {
    'sessionServer.expected.budgetLimit':
      'a number from 0 to 1000000000000 (0 = no limit), or null (back to the configured value)',
  },
});

/** The largest limit the console takes: far above any real budget, and exact as a double. */
const MAX_LIMIT = 1e12;
const DEFAULT_TOP = 20;
const MAX_TOP = 100;

function budgetService(deps: ServerDeps): BudgetService | undefined {
  return deps.services.selected(budgets)?.impl;
}

async function overviewView(deps: ServerDeps, service: BudgetService, top: number): Promise<BudgetOverviewView> {
  const overview: BudgetOverview = await service.overview({ top });
  const titles = new Map<string, string>();
  if (deps.sessionManager.available) {
    for (const room of overview.rooms) {
      const title = (await deps.sessionManager.use.get(room.id))?.title;
      if (title) titles.set(room.id, title);
    }
  }
  return {
    ...overview,
    limits: overview.limits.map((limit) => ({ ...limit })),
    rooms: overview.rooms.map((room) => ({
      ...room,
      ...(titles.has(room.id) ? { title: titles.get(room.id) } : {}),
    })),
    people: overview.people.map((person) => ({ ...person })),
  };
}

export const budgetsGet: Handler<'admin.budgets.get'> = async (deps, _account, params, { type }) => {
  const top = params.top ?? DEFAULT_TOP;
  if (typeof top !== 'number' || !Number.isInteger(top) || top < 1 || top > MAX_TOP) {
    badParam(type, 'top', 'integer', params.top, { min: '1', max: String(MAX_TOP) });
  }
  const service = budgetService(deps);
  if (!service) return { enabled: false };
  return { enabled: true, overview: await overviewView(deps, service, top) };
};

export const budgetsSet: Handler<'admin.budgets.set'> = async (deps, account, params, { type }) => {
  const { kind, limit } = params;
  if (typeof kind !== 'string' || !(BUDGET_KINDS as readonly string[]).includes(kind)) {
    badParam(type, 'kind', 'oneOf', kind, { values: BUDGET_KINDS.map((k) => `"${k}"`).join(', ') });
  }
  if (limit !== null && (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0 || limit > MAX_LIMIT)) {
    badParam(type, 'limit', 'budgetLimit', limit);
  }
  const service = budgetService(deps);
  if (!service) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'budgets' });
  const before = (await service.overview({ top: 1 })).limits.find((entry) => entry.kind === kind);
  const after = await service.setLimit(kind as BudgetKind, limit === null ? undefined : (limit as number));
  await recordAudit(deps, account, {
    action: 'budgets.set',
    key: `budget.${kind}`,
    ...(before ? { old: before.adjusted ? before.limit : null } : {}),
    new: after.adjusted ? after.limit : null,
  });
  return { limit: { ...after }, overview: await overviewView(deps, service, DEFAULT_TOP) };
};

export const sessionBudget: Handler<'session.budget'> = async (deps, account, params, { type }) => {
  const session = await accessibleSession(deps, account, params.sessionId, type);
  const service = budgetService(deps);
  if (!service) return { enabled: false, lines: [] };
  // In the account's own chats the turns it opens count against its own budget as well (webui:<userId>).
  const own = session.id.startsWith(ownSessionPrefix(account));
  const lines = await service.lines({
    sessionId: session.id,
    ...(own ? { person: `${WEBUI_PLATFORM}:${account.userId}` } : {}),
  });
  const overview = await service.overview({ top: 1 });
  return {
    enabled: true,
    unit: overview.unit,
    currency: overview.currency,
    warnAt: overview.warnAt,
    lines: lines.map(({ kind, period, used, limit }) => ({ kind, period, used, limit })),
  };
};
