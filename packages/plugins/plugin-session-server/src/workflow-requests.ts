// The workflow requests (docs/session-protocol.md 「Workflows」), owners only: the workflow files (read, checked as
// they are typed, saved only when valid), their graphs, starting and cancelling runs, and what each run did.
import { type WorkflowService, workflow } from '@aalis/api-workflow';
import type { RequestType, ResultOf, RunView, WorkflowView } from '@aalis/session-client';
import { badParam, optionalString, requireString } from './params.js';
import type { Routes } from './request-handler.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

type WorkflowRequest = Extract<RequestType, `workflows.${string}` | `runs.${string}`>;

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

export const WORKFLOW_ROUTES: Routes<WorkflowRequest> = {
  'workflows.list': async (deps) => ({
    workflows: (await service(deps).list()).map(({ problems, ...entry }) => ({
      ...entry,
      ...(problems ? { problems: problems.map((problem) => ({ ...problem, path: [...problem.path] })) } : {}),
    })),
  }),
  'workflows.get': async (deps, _account, params, { type }) => {
    const workflows = service(deps);
    const name = requireString(type, params, 'name', 64);
    const source = await workflows.source(name);
    if (source === undefined) await workflows.definition(name);
    return { workflow: await viewOf(workflows, name, source ?? '') };
  },
  'workflows.validate': async (deps, _account, params, { type }) => {
    const name = requireString(type, params, 'name', 64);
    const source = optionalString(type, params, 'source', MAX_SOURCE_CHARS) ?? '';
    const problems = await service(deps).validate(name, source);
    return { problems: problems.map((problem) => ({ ...problem, path: [...problem.path] })) };
  },
  'workflows.save': async (deps, _account, params, { type }) => {
    const workflows = service(deps);
    const name = requireString(type, params, 'name', 64);
    const source = requireString(type, params, 'source', MAX_SOURCE_CHARS);
    await workflows.save(name, source);
    return { workflow: await viewOf(workflows, name, source) };
  },
  'workflows.delete': async (deps, _account, params, { type }) => ({
    deleted: await service(deps).remove(requireString(type, params, 'name', 64)),
  }),
  'workflows.run': async (deps, account, params, { type }) => {
    const name = requireString(type, params, 'name', 64);
    const run = await service(deps).start(name, inputsParam(type, params), {
      trigger: 'manual',
      by: identityOf(account),
    });
    return { run: run as RunView };
  },
  'runs.list': async (deps, _account, params, { type }) => {
    const name = optionalString(type, params, 'workflow', 64);
    const limit = typeof params.limit === 'number' ? params.limit : 20;
    const runs = await service(deps).runs({ ...(name ? { workflow: name } : {}), limit });
    return { runs: runs as RunView[] };
  },
  'runs.get': async (deps, _account, params, { type }) => {
    const runId = requireString(type, params, 'runId', 64);
    const run = await service(deps).run(runId);
    if (!run) throw serverErrors.AALIS_WEBUI_NOT_FOUND({ path: runId });
    return { run: { ...run, steps: [...run.steps] } as ResultOf<'runs.get'>['run'] };
  },
  'runs.cancel': async (deps, _account, params, { type }) => ({
    cancelled: await service(deps).cancel(requireString(type, params, 'runId', 64)),
  }),
};
