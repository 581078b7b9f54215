// The workflow service: the files checked against what the host has now (its tools, the other workflows), runs
// started with checked inputs, waited for and cancelled here or in the process that runs them.

import { timingSafeEqual } from 'node:crypto';
import type { HandOverService, LeasesService } from '@aalis/api-storage';
import {
  type RunDetail,
  type RunInfo,
  type StartOptions,
  WORKFLOW_NAME_PATTERN,
  type WorkflowDefinition,
  type WorkflowProblem,
  type WorkflowService,
  type WorkflowSummary,
  workflowErrors,
} from '@aalis/api-workflow';
import type { Logger } from '@aalis/core';
import { isPlainObject } from '@aalis/schema-message';
import { parseWorkflow, type Translate } from './definition-parser.js';
import type { RunEngine } from './run-engine.js';
import type { RunRow, RunStore } from './run-store.js';
import { MAX_WORKFLOW_BYTES, type WorkflowFiles } from './workflow-files.js';

/** How deep workflow nodes may nest runs (a workflow that starts itself would never end). */
export const MAX_RUN_DEPTH = 5;
/** Lease names of runs: the process holding `workflow:run:<id>` executes it. */
export const RUN_LEASE_PREFIX = 'workflow:run:';

export interface WorkflowHostDeps {
  readonly files: WorkflowFiles;
  readonly store: RunStore;
  readonly engine: RunEngine;
  readonly t: Translate;
  readonly toolExists: (name: string) => boolean;
  readonly leases?: LeasesService;
  readonly handOver?: HandOverService;
  readonly logger: Logger;
  /** How often a waiter looks for the end of a run that runs in another process. */
  readonly pollMs?: number;
  /** The webhook secret ('' = webhooks off). */
  readonly webhookSecret: string;
}

function problemsText(problems: readonly WorkflowProblem[]): string {
  return problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`).join('; ');
}

function infoOf(row: RunRow): RunInfo {
  const { definition: _definition, ...info } = row;
  return info;
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: isPlainObject,
  array: (value) => Array.isArray(value),
};

export class WorkflowHost implements WorkflowService {
  constructor(private readonly deps: WorkflowHostDeps) {}

  private async parse(name: string, text: string, names?: readonly string[]) {
    const known = new Set(names ?? (await this.deps.files.names()));
    return parseWorkflow(name, text, {
      t: this.deps.t,
      toolExists: this.deps.toolExists,
      workflowExists: (other) => known.has(other),
    });
  }

  async list(): Promise<WorkflowSummary[]> {
    const names = await this.deps.files.names();
    const summaries: WorkflowSummary[] = [];
    for (const name of names) {
      const text = (await this.deps.files.read(name)) ?? '';
      const result = await this.parse(name, text, names);
      summaries.push(
        result.ok
          ? { name, ...(result.definition.description ? { description: result.definition.description } : {}) }
          : { name, problems: result.problems },
      );
    }
    return summaries;
  }

  source(name: string): Promise<string | undefined> {
    return this.deps.files.read(name);
  }

  async definition(name: string): Promise<WorkflowDefinition> {
    const text = await this.deps.files.read(name);
    if (text === undefined) throw workflowErrors.AALIS_WORKFLOW_UNKNOWN({ name });
    const result = await this.parse(name, text);
    if (!result.ok) {
      throw workflowErrors.AALIS_WORKFLOW_INVALID(
        { name, problems: problemsText(result.problems) },
        { details: { problems: result.problems }, statusCode: 400 },
      );
    }
    return result.definition;
  }

  async validate(name: string, yaml: string): Promise<WorkflowProblem[]> {
    if (!WORKFLOW_NAME_PATTERN.test(name)) throw workflowErrors.AALIS_WORKFLOW_NAME_INVALID({ name });
    if (Buffer.byteLength(yaml, 'utf8') > MAX_WORKFLOW_BYTES) {
      return [
        {
          path: [],
          line: 1,
          column: 1,
          message: this.deps.t('workflow.problem.yaml', { reason: `> ${MAX_WORKFLOW_BYTES} bytes` }),
        },
      ];
    }
    const result = await this.parse(name, yaml);
    return result.ok ? [] : result.problems;
  }

  async save(name: string, yaml: string): Promise<void> {
    const problems = await this.validate(name, yaml);
    if (problems.length > 0) {
      throw workflowErrors.AALIS_WORKFLOW_INVALID(
        { name, problems: problemsText(problems) },
        { details: { problems }, statusCode: 400 },
      );
    }
    await this.deps.files.write(name, yaml);
  }

  remove(name: string): Promise<boolean> {
    return this.deps.files.remove(name);
  }

  /** Checks the inputs against the definition, filling in defaults. */
  inputsFor(definition: WorkflowDefinition, given: Record<string, unknown>): Record<string, unknown> {
    const problems: string[] = [];
    const inputs: Record<string, unknown> = {};
    for (const key of Object.keys(given)) {
      if (!(key in definition.inputs)) problems.push(this.deps.t('workflow.input.unknown', { input: key }));
    }
    for (const [key, input] of Object.entries(definition.inputs)) {
      const value = given[key] ?? input.default;
      if (value === undefined) {
        if (input.required) problems.push(this.deps.t('workflow.input.missing', { input: key }));
        continue;
      }
      if (!TYPE_CHECKS[input.type]!(value))
        problems.push(this.deps.t('workflow.input.type', { input: key, type: input.type }));
      inputs[key] = value;
    }
    if (problems.length > 0) {
      throw workflowErrors.AALIS_WORKFLOW_INPUT_INVALID(
        { name: definition.name, problems: problems.join('; ') },
        { details: { problems }, statusCode: 400 },
      );
    }
    return inputs;
  }

  async start(name: string, given: Record<string, unknown>, options: StartOptions): Promise<RunInfo> {
    const definition = await this.definition(name);
    const inputs = this.inputsFor(definition, given);
    let depth = 1;
    for (let parent = options.parentRunId; parent !== undefined; depth += 1) {
      if (depth >= MAX_RUN_DEPTH)
        throw workflowErrors.AALIS_WORKFLOW_TOO_DEEP({ name, depth: depth + 1, limit: MAX_RUN_DEPTH });
      parent = (await this.deps.store.getRun(parent))?.parentRunId;
    }
    const lease = this.deps.leases;
    const row = await this.deps.engine.start({
      definition,
      inputs,
      trigger: options.trigger,
      ...(options.by ? { by: options.by } : {}),
      ...(options.parentRunId ? { parentRunId: options.parentRunId } : {}),
      // The run is this process's from the moment it exists: another process's sweep never takes it while it lives.
      ...(lease ? { claim: (id: string) => lease.tryAcquire(`${RUN_LEASE_PREFIX}${id}`) } : {}),
    });
    return infoOf(row);
  }

  async webhook(name: string, secret: string, inputs: Record<string, unknown>): Promise<RunInfo> {
    const expected = Buffer.from(this.deps.webhookSecret, 'utf8');
    const given = Buffer.from(secret, 'utf8');
    const secretHolds = expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
    const definition = secretHolds ? await this.definition(name).catch(() => undefined) : undefined;
    if (!definition?.triggers.webhook) throw workflowErrors.AALIS_WORKFLOW_WEBHOOK_REFUSED();
    return this.start(name, inputs, { trigger: 'webhook' });
  }

  async wait(runId: string, options: { signal?: AbortSignal } = {}): Promise<RunInfo | undefined> {
    const { signal } = options;
    const aborted = new Promise<undefined>((resolve) => {
      if (signal?.aborted) resolve(undefined);
      signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    for (;;) {
      const live = this.deps.engine.whenDone(runId);
      if (live) {
        const row = await Promise.race([live, aborted]);
        return row ? infoOf(row) : undefined;
      }
      const row = await this.deps.store.getRun(runId);
      if (!row) throw workflowErrors.AALIS_WORKFLOW_RUN_UNKNOWN({ id: runId });
      if (row.status !== 'running') return infoOf(row);
      // It runs in another process (or is about to resume here): look again shortly.
      const pause = new Promise<'again'>((resolve) => setTimeout(() => resolve('again'), this.deps.pollMs ?? 250));
      if ((await Promise.race([pause, aborted])) === undefined) return undefined;
    }
  }

  async cancel(runId: string): Promise<boolean> {
    if (this.deps.engine.cancel(runId)) {
      await this.deps.engine.whenDone(runId);
      return true;
    }
    const row = await this.deps.store.getRun(runId);
    if (!row) throw workflowErrors.AALIS_WORKFLOW_RUN_UNKNOWN({ id: runId });
    if (row.status !== 'running') return false;
    const lease = await this.deps.leases?.tryAcquire(`${RUN_LEASE_PREFIX}${runId}`);
    if (lease || !this.deps.leases) {
      // Nobody executes it (its process died): it ends here.
      try {
        return await this.deps.store.endRun(runId, {
          status: 'cancelled',
          error: this.deps.t('workflow.step.cancelled'),
          endedAt: Date.now(),
        });
      } finally {
        await lease?.release();
      }
    }
    // Another process executes it: it is told, and stops it there.
    await this.deps.handOver?.signal(`${RUN_LEASE_PREFIX}${runId}`, 'cancel');
    return true;
  }

  async runs(options: { workflow?: string; limit?: number } = {}): Promise<RunInfo[]> {
    const limit = Math.min(Math.max(1, options.limit ?? 20), 200);
    const rows = await this.deps.store.listRuns({ ...(options.workflow ? { workflow: options.workflow } : {}), limit });
    return rows.map(infoOf);
  }

  async run(runId: string): Promise<RunDetail | undefined> {
    const row = await this.deps.store.getRun(runId);
    if (!row) return undefined;
    const steps = await this.deps.store.steps(runId);
    return {
      ...infoOf(row),
      steps: steps.map(({ runId: _runId, ...step }) => step),
    };
  }
}
