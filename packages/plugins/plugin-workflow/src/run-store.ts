// Where runs and their steps are kept, step by step, so a run resumes after a restart without running a completed
// step again. Two implementations (SQLite, PostgreSQL) run one conformance suite (run-store.case.ts).
import type { RunInfo, RunStatus, RunTrigger, StepInfo, StepStatus, WorkflowDefinition } from '@aalis/api-workflow';
import type { Identity } from '@aalis/schema-message';

/** A run as stored: what every reader sees, and the definition it started with. */
export interface RunRow extends RunInfo {
  /** The definition the run started with: a file edited meanwhile does not change a running run. */
  readonly definition: WorkflowDefinition;
}

/** A step as stored, with its run. */
export interface StepRow extends StepInfo {
  readonly runId: string;
}

export interface RunEnd {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly output?: unknown;
  readonly error?: string;
  readonly endedAt: number;
}

export interface RunStore {
  insertRun(row: RunRow): Promise<void>;
  getRun(id: string): Promise<RunRow | undefined>;
  /** Newest first. */
  listRuns(options: { workflow?: string; limit: number }): Promise<RunRow[]>;
  /** Runs still marked running (to resume), oldest first. */
  runningRuns(limit: number): Promise<RunRow[]>;
  /** Ends a running run; false when it had already ended (the first end wins). */
  endRun(id: string, end: RunEnd): Promise<boolean>;
  steps(runId: string): Promise<StepRow[]>;
  /** Writes a step's current state (inserted or replaced). */
  putStep(row: StepRow): Promise<void>;
  /** Claims one firing of a workflow's schedule; true for exactly one caller across processes. */
  claimFiring(workflow: string, at: number): Promise<boolean>;
}

export const RUN_COLUMNS =
  'id, workflow, status, trigger, inputs, definition, by_identity, parent_run, output, error, created_at, ended_at';
export const STEP_COLUMNS =
  'run_id, step_key, node_id, kind, status, input, output, error, attempts, started_at, ended_at';

export interface StoredRun {
  id: string;
  workflow: string;
  status: string;
  trigger: string;
  inputs: string;
  definition: string;
  by_identity: string | null;
  parent_run: string | null;
  output: string | null;
  error: string | null;
  created_at: number | string;
  ended_at: number | string | null;
}

export interface StoredStep {
  run_id: string;
  step_key: string;
  node_id: string;
  kind: string;
  status: string;
  input: string | null;
  output: string | null;
  error: string | null;
  attempts: number;
  started_at: number | string;
  ended_at: number | string | null;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parsed = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export function runValues(row: RunRow): unknown[] {
  return [
    row.id,
    row.workflow,
    row.status,
    row.trigger,
    JSON.stringify(row.inputs),
    JSON.stringify(row.definition),
    json(row.by),
    row.parentRunId ?? null,
    json(row.output),
    row.error ?? null,
    row.createdAt,
    row.endedAt ?? null,
  ];
}

export function runOf(stored: StoredRun): RunRow {
  return {
    id: stored.id,
    workflow: stored.workflow,
    status: stored.status as RunStatus,
    trigger: stored.trigger as RunTrigger,
    inputs: JSON.parse(stored.inputs) as Record<string, unknown>,
    definition: JSON.parse(stored.definition) as WorkflowDefinition,
    ...(stored.by_identity !== null ? { by: JSON.parse(stored.by_identity) as Identity } : {}),
    ...(stored.parent_run !== null ? { parentRunId: stored.parent_run } : {}),
    ...(stored.output !== null ? { output: parsed(stored.output) } : {}),
    ...(stored.error !== null ? { error: stored.error } : {}),
    createdAt: Number(stored.created_at),
    ...(stored.ended_at !== null ? { endedAt: Number(stored.ended_at) } : {}),
  };
}

export function stepValues(row: StepRow): unknown[] {
  return [
    row.runId,
    row.key,
    row.nodeId,
    row.kind,
    row.status,
    json(row.input),
    json(row.output),
    row.error ?? null,
    row.attempts,
    row.startedAt,
    row.endedAt ?? null,
  ];
}

export function stepOf(stored: StoredStep): StepRow {
  return {
    runId: stored.run_id,
    key: stored.step_key,
    nodeId: stored.node_id,
    kind: stored.kind,
    status: stored.status as StepStatus,
    ...(stored.input !== null ? { input: parsed(stored.input) } : {}),
    ...(stored.output !== null ? { output: parsed(stored.output) } : {}),
    ...(stored.error !== null ? { error: stored.error } : {}),
    attempts: Number(stored.attempts),
    startedAt: Number(stored.started_at),
    ...(stored.ended_at !== null ? { endedAt: Number(stored.ended_at) } : {}),
  };
}
