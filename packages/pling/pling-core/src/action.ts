// Actions declared by the page: what the model may do here, with a JSON-Schema for its arguments, the handler
// that does it, and the confirmation policy that decides whether a person must approve each call first.
import type { Approval, Locale } from '@plingjs/agent';
import { PageError } from './errors.js';
import type { HandoffInput, HandoffRequest } from './handoff-queue.js';
import { pageTexts } from './texts.js';

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

/**
 * Validates a declaration and returns it frozen; throws INVALID_ACTION_ID or INVALID_ACTION, worded in `locale`
 * (default 'zh-CN'; page.register uses the page's locale).
 */
export function defineAction<Args extends Record<string, unknown> = Record<string, unknown>>(
  definition: ActionDefinition<Args>,
  locale?: Locale,
): Action {
  assertActionId(definition.id, locale);
  const errors = pageTexts(locale).errors;
  const { id, description, parameters, handler, confirm, danger } = definition;
  if (typeof description !== 'string' || description.trim() === '') {
    throw invalid(errors.actionNeedsDescription(id));
  }
  if (typeof parameters !== 'object' || parameters === null || parameters.type !== 'object') {
    throw invalid(errors.actionNeedsParameters(id));
  }
  if (typeof handler !== 'function') throw invalid(errors.actionNeedsHandler(id));
  if (confirm !== undefined && typeof confirm !== 'function' && !['always', 'danger', 'never'].includes(confirm)) {
    throw invalid(errors.actionBadConfirm(id, JSON.stringify(confirm)));
  }
  if (danger !== undefined && typeof danger !== 'boolean') throw invalid(errors.actionBadDanger(id));
  return Object.freeze({ ...definition }) as Action;
}

export function assertActionId(id: unknown, locale?: Locale): asserts id is string {
  if (typeof id === 'string' && ACTION_ID_PATTERN.test(id)) return;
  const suggestion =
    typeof id === 'string' && id !== '' ? JSON.stringify(id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)) : undefined;
  throw new PageError('INVALID_ACTION_ID', pageTexts(locale).errors.invalidActionId(JSON.stringify(id), suggestion));
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

function invalid(message: string): PageError {
  return new PageError('INVALID_ACTION', message);
}
