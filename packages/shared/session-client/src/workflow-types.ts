// What the workflow requests carry (docs/session-protocol.md 「Workflows」): workflow files with their problems, a
// read-only graph of their nodes, and runs with every step's state, inputs, outputs, timing and errors.

/** A problem of a workflow file, pointing at its line. */
export interface WorkflowProblemView {
  path: (string | number)[];
  line: number;
  column: number;
  message: string;
}

export interface WorkflowSummaryView {
  name: string;
  description?: string;
  /** Present when the file cannot be used as it is. */
  problems?: WorkflowProblemView[];
}

/** One node of a workflow's graph. */
export interface WorkflowNodeView {
  id: string;
  kind: string;
  needs: string[];
  when?: string;
}

export interface WorkflowView {
  name: string;
  source: string;
  description?: string;
  problems: WorkflowProblemView[];
  /** Empty when the file has problems. */
  nodes: WorkflowNodeView[];
  inputs: Record<string, { type: string; required: boolean; default?: unknown; description?: string }>;
  triggers?: { schedule: string[]; timeZone?: string; webhook: boolean };
}

export type RunStatusView = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface RunView {
  id: string;
  workflow: string;
  status: RunStatusView;
  trigger: string;
  inputs: Record<string, unknown>;
  by?: { platform: string; userId: string };
  parentRunId?: string;
  output?: unknown;
  error?: string;
  createdAt: number;
  endedAt?: number;
}

export interface StepView {
  key: string;
  nodeId: string;
  kind: string;
  status: 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';
  input?: unknown;
  output?: unknown;
  error?: string;
  attempts: number;
  startedAt: number;
  endedAt?: number;
}

export interface RunDetailView extends RunView {
  steps: StepView[];
}
