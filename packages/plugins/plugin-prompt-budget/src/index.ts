// @aalis/plugin-prompt-budget: the AI self-check tool prompt_budget_info (plugin-agent.zh.md 「Token 预算追踪与
// 日志」 consumers): the calling session's latest token:usage figures, tagged OK/INFO/WARN/CRITICAL with the
// thresholds of the agent's usage log line, and one piece of advice.
import type {} from '@aalis/api-agent';
import type {} from '@aalis/api-session-manager';
import { closedParameters, tools } from '@aalis/api-tools';
import { config, definePlugin, events, i18n, s, textRef } from '@aalis/core';
import { budgetReport } from './budget-report.js';
import { LatestUsage } from './latest-usage.js';
import './budget-texts.js';

export { type BudgetFigures, type BudgetTag, budgetFigures, budgetReport } from './budget-report.js';
export { LatestUsage } from './latest-usage.js';

export const PROMPT_BUDGET_TOOL = 'prompt_budget_info';

export const promptBudgetConfigSchema = s
  .object({
    group: s
      .string()
      .nonEmpty()
      .optional()
      .describe('Tool group of prompt_budget_info (offered only where the group is enabled); unset = always offered.'),
  })
  .describe('The prompt_budget_info self-check tool.');

export default definePlugin({
  name: '@aalis/plugin-prompt-budget',
  uses: { config, events, i18n, tools },
  config: promptBudgetConfigSchema,
  apply(handles) {
    const latest = new LatestUsage();
    const t = (key: string) => handles.i18n.use.t(textRef(key));
    handles.events.use.on('token:usage', (event) => latest.record(event));
    handles.events.use.on('session:deleted', ({ sessionId }) => latest.forget(sessionId));
    const group = handles.config.use.group;
    handles.tools.use.register({
      name: PROMPT_BUDGET_TOOL,
      description: t('promptBudget.tool.description'),
      parameters: closedParameters({}),
      ...(group === undefined ? {} : { group }),
      handler(_args, context) {
        const event = latest.of(context.sessionId);
        if (!event) return t('promptBudget.noUsage');
        return budgetReport(event, (tag) => t(`promptBudget.advice.${tag}`));
      },
    });
  },
});
