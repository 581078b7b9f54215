// A workflow as its YAML file describes it, once parsed and checked: named inputs, nodes whose `needs` form a DAG,
// and the triggers that start it besides a manual start.

/** What a node does. */
export type WorkflowNodeKind = 'agent' | 'tool' | 'send' | 'wait' | 'condition' | 'map' | 'workflow';

export const WORKFLOW_NODE_KINDS: readonly WorkflowNodeKind[] = [
  'agent',
  'tool',
  'send',
  'wait',
  'condition',
  'map',
  'workflow',
];

/** A value that may hold `{{ expression }}` parts (a string) or nest such strings (objects, arrays). */
export type Template = string | number | boolean | null | readonly Template[] | { readonly [key: string]: Template };

export interface RetryPolicy {
  /** Attempts in all (1 = no retry). */
  readonly attempts: number;
  /** Pause before the next attempt, doubled after each failure. */
  readonly delayMs: number;
}

interface NodeCommon {
  readonly id: string;
  /** Nodes that must have finished before this one starts. */
  readonly needs: readonly string[];
  /** An expression: the node runs only when it is true, else it (and what needs it) is skipped. */
  readonly when?: string;
  /** The node fails when one attempt takes longer (0 = no limit). */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
}

/** A turn in a session as a delegated task (triggerType 'proactive'); its output is her reply. */
export interface AgentNodeSpec {
  readonly kind: 'agent';
  /** The session the task runs in (a template). */
  readonly session: Template;
  /** The task as she reads it (a template). */
  readonly task: Template;
}

/** Any registered tool, called with the run's authorised identity; its output is the tool's result text. */
export interface ToolNodeSpec {
  readonly kind: 'tool';
  readonly tool: string;
  readonly arguments: Template;
}

/** A message sent to a session (and so to the platform chat the session belongs to). */
export interface SendNodeSpec {
  readonly kind: 'send';
  readonly session: Template;
  readonly text: Template;
}

/** Waits a duration (`10s`, `5m`, `2h`, `1d`) or until a moment (ISO 8601). */
export interface WaitNodeSpec {
  readonly kind: 'wait';
  readonly duration?: Template;
  readonly until?: Template;
}

/** Evaluates `if`; its output is the boolean, which other nodes test in their `when`. */
export interface ConditionNodeSpec {
  readonly kind: 'condition';
  readonly if: string;
}

/** Runs `node` once per item of `over` (at most `concurrency` at a time); its output is the list of outputs. */
export interface MapNodeSpec {
  readonly kind: 'map';
  readonly over: Template;
  readonly concurrency: number;
  readonly node: InnerNodeSpec;
}

/** Runs another workflow and waits for it; its output is that run's output. */
export interface WorkflowNodeSpec {
  readonly kind: 'workflow';
  readonly workflow: string;
  readonly inputs: Template;
}

/** What a map node runs per item: any node kind but map itself. */
export type InnerNodeSpec =
  | AgentNodeSpec
  | ToolNodeSpec
  | SendNodeSpec
  | WaitNodeSpec
  | ConditionNodeSpec
  | WorkflowNodeSpec;

export type NodeSpec = InnerNodeSpec | MapNodeSpec;

export type WorkflowNode = NodeCommon & NodeSpec;

export type WorkflowInputType = 'string' | 'number' | 'boolean' | 'object' | 'array';

export interface WorkflowInput {
  readonly type: WorkflowInputType;
  readonly required: boolean;
  readonly default?: unknown;
  readonly description?: string;
}

export interface WorkflowTriggers {
  /** Cron expressions (five or six fields) in `timeZone`. */
  readonly schedule: readonly string[];
  readonly timeZone?: string;
  /** Whether POST /api/v1/workflows/<name>/webhook starts it (with the secret). */
  readonly webhook: boolean;
}

export interface WorkflowDefinition {
  /** The file's name without `.yaml`: letters, digits, `-` and `_`. */
  readonly name: string;
  readonly description?: string;
  readonly inputs: Readonly<Record<string, WorkflowInput>>;
  readonly nodes: readonly WorkflowNode[];
  /** The run's output (a template over the nodes' outputs); default: the outputs of the nodes nothing needs. */
  readonly output?: Template;
  readonly triggers: WorkflowTriggers;
}

/** Names a workflow file may have. */
export const WORKFLOW_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Node ids: usable in expressions as `nodes.<id>`. */
export const NODE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
