// The workflow_run tool: starts a workflow with the turn's authorised identity and waits for it; a stopped turn
// stops the waiting, never the run (plugin-agent.zh.md: 编排运行 are not stopped with the turn; they are cancelled
// under 「最近运行」 on the workflows page).
import { closedParameters, type Tool } from '@aalis/api-tools';
import type { WorkflowService } from '@aalis/api-workflow';
import { AalisError, type I18n, translatorOf } from '@aalis/core';

export const WORKFLOW_RUN_TOOL = 'workflow_run';

export function workflowRunTool(
  service: () => WorkflowService,
  i18n: I18n,
): Tool<{
  name: string;
  inputs?: Record<string, unknown>;
  wait?: boolean;
}> {
  const t = translatorOf(i18n);
  return {
    name: WORKFLOW_RUN_TOOL,
    description: t('workflow.tool.run'),
    group: 'workflow',
    level: 'owner',
    parameters: closedParameters(
      {
        name: { type: 'string', description: t('workflow.tool.run.name') },
        inputs: { type: 'object', description: t('workflow.tool.run.inputs') },
        wait: { type: 'boolean', description: t('workflow.tool.run.wait') },
      },
      ['name'],
    ),
    async handler({ name, inputs, wait }, context) {
      const by = context.authorised?.find((identity) => identity !== undefined);
      try {
        const run = await service().start(name, inputs ?? {}, { trigger: 'tool', ...(by ? { by } : {}) });
        if (wait === false) return t('workflow.tool.started', { run: run.id, workflow: name });
        const ended = await service().wait(run.id, { signal: context.signal });
        if (!ended) return { content: t('workflow.tool.aborted', { run: run.id }), isError: true };
        const status = t(`workflow.status.${ended.status}`);
        const summary = t('workflow.tool.finished', { run: run.id, status });
        if (ended.status !== 'succeeded') return { content: `${summary} ${ended.error ?? ''}`.trim(), isError: true };
        return `${summary}\n${typeof ended.output === 'string' ? ended.output : JSON.stringify(ended.output)}`;
      } catch (error) {
        if (AalisError.isInstance(error))
          return { content: error.localized(i18n.locale), isError: true, code: error.code };
        throw error;
      }
    },
  };
}
