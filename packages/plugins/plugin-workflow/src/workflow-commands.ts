// /workflow list | run <name> [key=value …] | runs [name] | show <run id> | cancel <run id> (owners).
import { authorisedIdentityOf } from '@aalis/api-authority';
import type { CommandDefinition } from '@aalis/api-commands';
import type { RunInfo, WorkflowService } from '@aalis/api-workflow';
import { textRef } from '@aalis/core';

/** `key=value` arguments; a value that reads as JSON (a number, true, a list) is taken as such. */
export function inputsOfArgs(args: readonly string[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at <= 0) continue;
    const raw = arg.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    inputs[arg.slice(0, at)] = value;
  }
  return inputs;
}

export function workflowCommands(service: () => WorkflowService): CommandDefinition[] {
  return [
    {
      name: 'workflow',
      description: textRef('workflow.command.description'),
      usage: textRef('workflow.command.usage'),
      level: 'owner',
      async handler(context) {
        const [action, ...rest] = context.args;
        const status = (run: RunInfo) => context.t(textRef(`workflow.status.${run.status}`));
        const line = (run: RunInfo) =>
          `${run.id} ${run.workflow} · ${status(run)} · ${new Date(run.createdAt).toISOString()}${run.error ? ` · ${run.error}` : ''}`;
        switch (action) {
          case 'run': {
            const [name, ...pairs] = rest;
            if (!name) return context.t(textRef('workflow.command.usage'));
            const by = authorisedIdentityOf(context.message);
            const run = await service().start(name, inputsOfArgs(pairs), { trigger: 'command', ...(by ? { by } : {}) });
            return context.t(textRef('workflow.tool.started', { run: run.id, workflow: name }));
          }
          case 'runs': {
            const runs = await service().runs({ ...(rest[0] ? { workflow: rest[0] } : {}), limit: 20 });
            return runs.length === 0 ? context.t(textRef('workflow.command.runs.empty')) : runs.map(line).join('\n');
          }
          case 'show': {
            const run = rest[0] ? await service().run(rest[0]) : undefined;
            if (!run) return context.t(textRef('error.AALIS_WORKFLOW_RUN_UNKNOWN', { id: rest[0] ?? '' }));
            const steps = run.steps.map(
              (step) =>
                `- ${step.key} (${step.kind}) ${context.t(textRef(`workflow.status.${step.status}`))}${step.error ? `: ${step.error}` : ''}`,
            );
            return [line(run), ...steps].join('\n');
          }
          case 'cancel': {
            const id = rest[0];
            if (!id) return context.t(textRef('workflow.command.usage'));
            if (await service().cancel(id)) return context.t(textRef('workflow.command.cancelled', { run: id }));
            const run = await service().run(id);
            return context.t(textRef('workflow.command.notRunning', { run: id, status: run ? status(run) : '?' }));
          }
          default: {
            const workflows = await service().list();
            if (workflows.length === 0) return context.t(textRef('workflow.command.list.empty'));
            return workflows
              .map((entry) =>
                entry.problems
                  ? `${entry.name} ⚠ ${entry.problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`).join('; ')}`
                  : `${entry.name}${entry.description ? ` — ${entry.description}` : ''}`,
              )
              .join('\n');
          }
        }
      },
    },
  ];
}
