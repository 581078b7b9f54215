// Every user-visible text of plugin-budget, zh-CN and en.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const budgetTexts = defineCatalogue({
  'zh-CN': {
    'budget.scope.person': '你今天的额度',
    'budget.scope.room': '这个会话今天的额度',
    'budget.scope.deployment': '本月全部的额度',
    'budget.over': '{scope}用完了（已用 {used}，上限 {limit}），这次先不回答了。额度重置后再来吧。',
    'budget.warning':
      '[预算提醒] {scope}已用到额度的 {percent}%（已用 {used}，上限 {limit}；{target}）。可用 /budget 查看与调整。',
    'budget.warning.person': '用户 {who}',
    'budget.warning.room': '会话 {who}',
    'budget.warning.deployment': '整个部署',
    'budget.command': '查看用量与预算；owner 可用 /budget set person|room|deployment <额度|off|default> 调整',
    'budget.command.usage': '[set person|room|deployment <额度|off|default>]',
    'budget.show': '预算（按{unit}计）：\n{lines}',
    'budget.line': '· {scope}：已用 {used} / {limit}',
    'budget.unlimited': '不限',
    'budget.unit.tokens': ' token',
    'budget.amount.tokens': '{amount} token',
    'budget.unit.money': '金额',
    'budget.unit.tokensName': 'token',
    'budget.set.done': '已把{scope}设为 {limit}。',
    'budget.set.ownerOnly': '只有 owner 能调整预算。',
  },
  en: {
    'budget.scope.person': 'Your daily budget',
    'budget.scope.room': "This chat's daily budget",
    'budget.scope.deployment': "This month's budget for everyone",
    'budget.over': '{scope} is used up ({used} of {limit}), so I am not answering this time. Try again once it resets.',
    'budget.warning':
      '[Budget] {scope} has reached {percent}% of its budget ({used} of {limit}; {target}). See and adjust it with /budget.',
    'budget.warning.person': 'user {who}',
    'budget.warning.room': 'session {who}',
    'budget.warning.deployment': 'the whole deployment',
    'budget.command':
      'Shows usage and budgets; owners adjust them with /budget set person|room|deployment <amount|off|default>',
    'budget.command.usage': '[set person|room|deployment <amount|off|default>]',
    'budget.show': 'Budgets (in {unit}):\n{lines}',
    'budget.line': '· {scope}: {used} used of {limit}',
    'budget.unlimited': 'no limit',
    'budget.unit.tokens': ' tokens',
    'budget.amount.tokens': '{amount, plural, one {# token} other {# tokens}}',
    'budget.unit.money': 'money',
    'budget.unit.tokensName': 'tokens',
    'budget.set.done': '{scope} is now {limit}.',
    'budget.set.ownerOnly': 'Only an owner can adjust budgets.',
  },
});

export const budgetErrors = defineErrors({
  AALIS_BUDGET_SET_INVALID: {
    'zh-CN':
      '看不懂「{text}」。写 /budget set person|room|deployment <额度>，额度是不小于 0 的数（off 表示不限，default 表示回到配置值）。',
    en: 'Cannot read "{text}". Write /budget set person|room|deployment <amount>, the amount a number of at least 0 (off = no limit, default = back to the configured value).',
  },
});
