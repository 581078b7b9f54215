// @aalis/plugin-budget: token or money budgets per person, room and deployment, counted from llm:usage.
export {
  BUDGET_PLUGIN,
  type BudgetConfig,
  budgetConfigSchema,
  createBudgetPlugin,
  default,
} from './budget-plugin.js';
export { type BudgetStore, type BudgetUsage, postgresBudgetStore, sqliteBudgetStore } from './budget-store.js';
export { budgetErrors, budgetTexts } from './budget-texts.js';
export { BUDGET_KINDS, type BudgetKind, type BudgetLine, Budgets } from './budgets.js';
