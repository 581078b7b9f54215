// The workflow service: the workflow files, starting and cancelling runs, and what the runs did.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import type { WorkflowDefinition } from './workflow-definition.js';
import type { WorkflowProblem } from './workflow-problems.js';
import type { RunDetail, RunInfo, RunTrigger } from './workflow-run.js';

export interface WorkflowSummary {
  readonly name: string;
  readonly description?: string;
  /** Undefined when the file is valid; else its problems (a file edited by hand may be broken). */
  readonly problems?: readonly WorkflowProblem[];
}

export interface StartOptions {
  readonly trigger: RunTrigger;
  readonly by?: Identity;
  readonly parentRunId?: string;
}

export interface WorkflowService {
  list(): Promise<WorkflowSummary[]>;
  /** The YAML text of a workflow file; undefined when there is none. */
  source(name: string): Promise<string | undefined>;
  /** The checked definition; throws AALIS_WORKFLOW_INVALID (with the problems) or AALIS_WORKFLOW_UNKNOWN. */
  definition(name: string): Promise<WorkflowDefinition>;
  /** Checks a YAML text without saving it: the problems, [] when it is valid. */
  validate(name: string, yaml: string): Promise<WorkflowProblem[]>;
  /** Saves a valid YAML text as the workflow's file; throws AALIS_WORKFLOW_INVALID and changes nothing otherwise. */
  save(name: string, yaml: string): Promise<void>;
  remove(name: string): Promise<boolean>;
  /**
   * Starts a run (stored before this resolves); throws AALIS_WORKFLOW_UNKNOWN, AALIS_WORKFLOW_INVALID or
   * AALIS_WORKFLOW_INPUT_INVALID (a required input missing, an input of the wrong type, an undeclared input).
   */
  start(name: string, inputs: Record<string, unknown>, options: StartOptions): Promise<RunInfo>;
  /**
   * Starts a run from a webhook: the workflow must list `webhook: true` under its triggers and `secret` must be the
   * configured webhook secret; else AALIS_WORKFLOW_WEBHOOK_REFUSED (the same refusal whatever was wrong).
   */
  webhook(name: string, secret: string, inputs: Record<string, unknown>): Promise<RunInfo>;
  /** Resolves with the run once it has ended; undefined when `signal` aborted first (the run goes on). */
  wait(runId: string, options?: { signal?: AbortSignal }): Promise<RunInfo | undefined>;
  /** Cancels a running run: its waiting steps end, the turns it started are stopped. False when it was not running. */
  cancel(runId: string, by?: Identity): Promise<boolean>;
  /** The latest runs, newest first (of one workflow when `workflow` is given). */
  runs(options?: { workflow?: string; limit?: number }): Promise<RunInfo[]>;
  run(runId: string): Promise<RunDetail | undefined>;
}

export const workflow: ServiceDescriptor<WorkflowService> = defineService<WorkflowService>('workflow');
