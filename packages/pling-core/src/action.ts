// Actions declared by the page: what the model may do here, with a JSON-Schema for its arguments, the handler
// that does it, and the confirmation policy that decides whether a person must approve each call first.
import type { Approval } from '@plingjs/agent';
import { PageError } from './errors.js';
import type { HandoffInput, HandoffRequest } from './handoff-queue.js';

/** A tool name every OpenAI-compatible provider accepts. */
const ACTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type ConfirmPolicy = Approval | ((args: Record<string, unknown>) => boolean);

export interface ActionContext {
  actionId: string;
  /** Aborted when the run is cancelled or the session reset. */
  signal: AbortSignal;
  sessionId: string;
  /** The model's call id. */
  callId: string;
  /** The turn within the current send(), from 1. */
  turn: number;
  /** Asks a person to take over; the request shows in the page's handoff queue. */
  requestHandoff(input: HandoffInput): HandoffRequest;
}

export interface ActionDefinition<Args extends Record<string, unknown> = Record<string, unknown>> {
  /** The tool name the model sees: 1–64 letters, digits, '_' or '-'. */
  id: string;
  description: string;
  /** JSON Schema of the arguments object (`type: 'object'`). */
  parameters: Record<string, unknown>;
  /** Gets the real values: markers of the page's labelled sensitive values are replaced before it runs. */
  handler(args: Args, context: ActionContext): unknown;
  /** Whether a person must approve each call; without it the runtime's `defaultApproval` applies. */
  confirm?: ConfirmPolicy;
  /** Marks the action dangerous: the 'danger' policy confirms exactly these. */
  danger?: boolean;
}

export type Action = Readonly<ActionDefinition>;

/** Validates a declaration and returns it frozen; throws INVALID_ACTION_ID or INVALID_ACTION. */
export function defineAction<Args extends Record<string, unknown> = Record<string, unknown>>(
  definition: ActionDefinition<Args>,
): Action {
  assertActionId(definition.id);
  const { id, description, parameters, handler, confirm, danger } = definition;
  if (typeof description !== 'string' || description.trim() === '') {
    throw invalid(id, 'needs a description: the model chooses actions by it.');
  }
  if (typeof parameters !== 'object' || parameters === null || parameters.type !== 'object') {
    throw invalid(id, "needs parameters as a JSON Schema object, e.g. { type: 'object', properties: {} }.");
  }
  if (typeof handler !== 'function') throw invalid(id, 'needs a handler function.');
  if (confirm !== undefined && typeof confirm !== 'function' && !['always', 'danger', 'never'].includes(confirm)) {
    throw invalid(id, `has confirm ${JSON.stringify(confirm)}; use 'always', 'never', 'danger' or a function.`);
  }
  if (danger !== undefined && typeof danger !== 'boolean') throw invalid(id, 'has a non-boolean danger flag.');
  return Object.freeze({ ...definition }) as Action;
}

export function assertActionId(id: unknown): asserts id is string {
  if (typeof id === 'string' && ACTION_ID_PATTERN.test(id)) return;
  const suggestion =
    typeof id === 'string' && id !== ''
      ? ` (e.g. ${JSON.stringify(id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64))})`
      : '';
  throw new PageError(
    'INVALID_ACTION_ID',
    `The action id ${JSON.stringify(id)} is not a valid tool name; use 1–64 letters, digits, '_' or '-'${suggestion}.`,
  );
}

/** The action's own policy, else the runtime's default: 'danger' confirms only actions marked danger. */
export function requiresConfirmation(
  action: Action,
  args: Record<string, unknown>,
  defaultApproval: Approval,
): boolean {
  const policy = action.confirm ?? defaultApproval;
  if (typeof policy === 'function') return policy(args) === true;
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return action.danger === true;
}

function invalid(id: string, problem: string): PageError {
  return new PageError('INVALID_ACTION', `The action ${id} ${problem}`);
}
