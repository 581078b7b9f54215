// Texts of the budget views: the admin area's 预算/Budgets section and the session panel's budget lines, in zh-CN
// and en, beside the page's other texts.
import { defineCatalogue } from '@aalis/core';
import { pageTranslator } from './page-translator.js';

export const BUDGET_TEXTS = defineCatalogue({
  'zh-CN': {
    'budget-page.title': '预算',
    'budget-page.intro':
      '按 {unit}计；时区 {timeZone}；今天 {day}，本月 {month}。用到 {warnAt}% 时告诉 owner 一次，超出后用一条提示代替模型调用（owner 不受限）。',
    'budget-page.unit.tokens': ' token ',
    'budget-page.unit.money': '金额（{currency}）',
    'budget-page.disabled':
      '预算插件没有启用。在 aalis.config.yaml 里加上 plugins.budget 段（例如 personPerDay: 200000），或在上面的插件列表里启用「budget」。',
    'budget-page.kind.person': '每人每天',
    'budget-page.kind.room': '每个会话每天',
    'budget-page.kind.deployment': '整个部署每月',
    'budget-page.limit': '上限',
    'budget-page.limitOf': '{kind}的上限',
    'budget-page.limitHint': '0 表示不限。',
    'budget-page.source': '来源',
    'budget-page.source.configured': '配置值',
    'budget-page.source.adjusted': '已调整（配置值 {configured}）',
    'budget-page.save': '保存',
    'budget-page.saveOf': '保存{kind}的上限',
    'budget-page.reset': '恢复配置值',
    'budget-page.resetOf': '{kind}恢复配置值',
    'budget-page.saved': '{kind}的上限已设为 {limit}。',
    'budget-page.invalid': '上限应为不小于 0 的数（0 表示不限）。',
    'budget-page.unlimited': '不限',
    'budget-page.deployment': '本月全部已用',
    'budget-page.usedOf': '{used} / {limit}',
    'budget-page.percent': '{percent}%',
    'budget-page.rooms': '今天用得最多的会话',
    'budget-page.people': '今天用得最多的人',
    'budget-page.room': '会话',
    'budget-page.person': '用户',
    'budget-page.used': '已用',
    'budget-page.share': '占上限',
    'budget-page.none': '今天还没有用量。',
    'budget-page.refresh': '刷新',
    'budget-page.session': '预算',
    'budget-page.session.deployment': '本月全部',
    'budget-page.session.room': '这个会话今天',
    'budget-page.session.person': '你今天',
    'budget-page.session.line': '{label}（{period}）',
  },
  en: {
    'budget-page.title': 'Budgets',
    'budget-page.intro':
      'Counted in {unit}; time zone {timeZone}; today is {day}, this month {month}. The owners are told once at {warnAt}%; over a budget, a short notice replaces the model call (owners are exempt).',
    'budget-page.unit.tokens': 'tokens',
    'budget-page.unit.money': 'money ({currency})',
    'budget-page.disabled':
      'The budget plugin is not enabled. Add a plugins.budget section to aalis.config.yaml (for example personPerDay: 200000), or enable “budget” in the plugin list above.',
    'budget-page.kind.person': 'Per person per day',
    'budget-page.kind.room': 'Per chat per day',
    'budget-page.kind.deployment': 'Whole deployment per month',
    'budget-page.limit': 'Limit',
    'budget-page.limitOf': 'Limit: {kind}',
    'budget-page.limitHint': '0 = no limit.',
    'budget-page.source': 'Source',
    'budget-page.source.configured': 'Configured',
    'budget-page.source.adjusted': 'Adjusted (configured: {configured})',
    'budget-page.save': 'Save',
    'budget-page.saveOf': 'Save limit: {kind}',
    'budget-page.reset': 'Back to configured',
    'budget-page.resetOf': 'Back to configured: {kind}',
    'budget-page.saved': '{kind} is now {limit}.',
    'budget-page.invalid': 'The limit must be a number of at least 0 (0 = no limit).',
    'budget-page.unlimited': 'no limit',
    'budget-page.deployment': 'Used this month by everyone',
    'budget-page.usedOf': '{used} of {limit}',
    'budget-page.percent': '{percent}%',
    'budget-page.rooms': 'Chats that used the most today',
    'budget-page.people': 'People who used the most today',
    'budget-page.room': 'Chat',
    'budget-page.person': 'User',
    'budget-page.used': 'Used',
    'budget-page.share': 'Of the limit',
    'budget-page.none': 'Nothing used today yet.',
    'budget-page.refresh': 'Refresh',
    'budget-page.session': 'Budget',
    'budget-page.session.deployment': 'Everyone this month',
    'budget-page.session.room': 'This chat today',
    'budget-page.session.person': 'You today',
    'budget-page.session.line': '{label} ({period})',
  },
});

export type BudgetTextKey = keyof (typeof BUDGET_TEXTS)['en'];

/** A text of the budget views in the page's language. */
export const tb = pageTranslator<BudgetTextKey>();
