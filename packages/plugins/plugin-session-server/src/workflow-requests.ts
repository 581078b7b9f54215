// The workflow requests (docs/session-protocol.md 「Workflows」), owners only: the workflow files (read, checked as
// they are typed, saved only when valid), their graphs, starting and cancelling runs, and what each run did.
import { type WorkflowService, workflow } from '@aalis/api-workflow';
import type { Account, ResultOf, RunView, WorkflowView } from '@aalis/session-client';
import { badParam, optionalString, requireString } from './params.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

/** A workflow file is a page of YAML; its editor sends the whole text with each check. */
const MAX_SOURCE_CHARS = 256 * 1024;

function service(deps: ServerDeps): WorkflowService {
  const selected = deps.services.selected(workflow);
  if (!selected) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'workflow' });
  return selected.impl;
}

async function viewOf(workflows: WorkflowService, name: string, source: string): Promise<WorkflowView> {
  const problems = await workflows.validate(name, source);
  if (problems.length > 0)
    return {
      name,
      source,
      problems: problems.map((problem) => ({ ...problem, path: [...problem.path] })),
      nodes: [],
      inputs: {},
    };
  const definition = await workflows.definition(name).catch(() => undefined);
  if (!definition) return { name, source, problems: [], nodes: [], inputs: {} };
  return {
    name,
    source,
    ...(definition.description ? { description: definition.description } : {}),
    problems: [],
    nodes: definition.nodes.map((node) => ({
      id: node.id,
      kind: node.kind,
      needs: [...node.needs],
      ...(node.when !== undefined ? { when: node.when } : {}),
    })),
    inputs: Object.fromEntries(Object.entries(definition.inputs).map(([key, input]) => [key, { ...input }])),
    triggers: { ...definition.triggers, schedule: [...definition.triggers.schedule] },
  };
}

function inputsParam(type: string, params: Record<string, unknown>): Record<string, unknown> {
  const inputs = params.inputs;
  if (inputs === undefined || inputs === null) return {};
  if (typeof inputs !== 'object' || Array.isArray(inputs)) badParam(type, 'inputs', 'object', inputs);
  return inputs as Record<string, unknown>;
}

export async function workflowRequest(
  deps: ServerDeps,
  account: Account,
  type: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  const workflows = service(deps);
  switch (type) {
    case 'workflows.list':
      return {
        workflows: (await workflows.list()).map(({ problems, ...entry }) => ({
          ...entry,
          ...(problems ? { problems: problems.map((problem) => ({ ...problem, path: [...problem.path] })) } : {}),
        })),
      } satisfies ResultOf<'workflows.list'>;
    case 'workflows.get': {
      const name = requireString(type, params, 'name', 64);
      const source = await workflows.source(name);
      if (source === undefined) await workflows.definition(name);
      return { workflow: await viewOf(workflows, name, source ?? '') } satisfies ResultOf<'workflows.get'>;
    }
    case 'workflows.validate': {
      const name = requireString(type, params, 'name', 64);
      const source = optionalString(type, params, 'source', MAX_SOURCE_CHARS) ?? '';
      const problems = await workflows.validate(name, source);
      return {
        problems: problems.map((problem) => ({ ...problem, path: [...problem.path] })),
      } satisfies ResultOf<'workflows.validate'>;
    }
    case 'workflows.save': {
      const name = requireString(type, params, 'name', 64);
      const source = requireString(type, params, 'source', MAX_SOURCE_CHARS);
      await workflows.save(name, source);
      return { workflow: await viewOf(workflows, name, source) } satisfies ResultOf<'workflows.save'>;
    }
    case 'workflows.delete':
      return {
        deleted: await workflows.remove(requireString(type, params, 'name', 64)),
      } satisfies ResultOf<'workflows.delete'>;
    case 'workflows.run': {
      const name = requireString(type, params, 'name', 64);
      const run = await workflows.start(name, inputsParam(type, params), {
        trigger: 'manual',
        by: identityOf(account),
      });
      return { run: run as RunView } satisfies ResultOf<'workflows.run'>;
    }
    case 'runs.list': {
      const name = optionalString(type, params, 'workflow', 64);
      const limit = typeof params.limit === 'number' ? params.limit : 20;
      const runs = await workflows.runs({ ...(name ? { workflow: name } : {}), limit });
      return { runs: runs as RunView[] } satisfies ResultOf<'runs.list'>;
    }
    case 'runs.get': {
      const runId = requireString(type, params, 'runId', 64);
      const run = await workflows.run(runId);
      if (!run) throw serverErrors.AALIS_WEBUI_NOT_FOUND({ path: runId });
      return { run: { ...run, steps: [...run.steps] } as ResultOf<'runs.get'>['run'] } satisfies ResultOf<'runs.get'>;
    }
    case 'runs.cancel':
      return {
        cancelled: await workflows.cancel(requireString(type, params, 'runId', 64)),
      } satisfies ResultOf<'runs.cancel'>;
    default:
      throw serverErrors.AALIS_WEBUI_UNKNOWN_REQUEST({ type, known: 'workflows.*, runs.*' });
  }
}
