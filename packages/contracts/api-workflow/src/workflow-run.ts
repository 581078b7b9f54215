// A run of a workflow and its steps, as they are stored step by step.
import type { Identity } from '@aalis/schema-message';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

/** How a run was started. */
export type RunTrigger = 'manual' | 'tool' | 'command' | 'schedule' | 'webhook' | 'workflow';

export interface RunInfo {
  readonly id: string;
  readonly workflow: string;
  readonly status: RunStatus;
  readonly trigger: RunTrigger;
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Who started it: its authorised identity for agent and tool nodes (absent = nobody in particular). */
  readonly by?: Identity;
  /** The run that started this one through a workflow node. */
  readonly parentRunId?: string;
  readonly output?: unknown;
  /** Why it failed, in the host's language. */
  readonly error?: string;
  readonly createdAt: number;
  readonly endedAt?: number;
}

export interface StepInfo {
  /** The node id, or `<map node id>[<index>]` for an item of a map node. */
  readonly key: string;
  readonly nodeId: string;
  readonly kind: string;
  readonly status: StepStatus;
  /** What the step worked on (a tool's arguments, an agent node's session and task, a map item). */
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: string;
  readonly attempts: number;
  readonly startedAt: number;
  readonly endedAt?: number;
}

export interface RunDetail extends RunInfo {
  readonly steps: readonly StepInfo[];
}
