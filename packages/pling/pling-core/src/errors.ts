// The page layer's one error class: a stable code and a message that says how to fix the problem. Separate from
// @plingjs/agent's PlingError because that class's code list is closed; both carry a cross-copy marker.
import { TOOL_ERROR_CODE } from '@plingjs/agent';

export type PageErrorCode =
  | 'INVALID_ACTION_ID'
  | 'INVALID_ACTION'
  | 'DUPLICATE_ACTION'
  | 'ACTION_UNAVAILABLE'
  /** The model's arguments do not match the action's `parameters` schema; nothing was confirmed or run. */
  | 'INVALID_ARGUMENTS'
  | 'INVALID_STATE_NAME'
  | 'DUPLICATE_STATE'
  | 'INVALID_SENSITIVE_LABEL'
  | 'SENSITIVE_AMBIGUOUS'
  | 'CONFIRMATION_REJECTED'
  | 'INVALID_HANDOFF'
  /**
   * A dock's `config` would change a runtime that something else (a session hook, pling.session(), another dock)
   * started first; the runtime resolves its configuration once.
   */
  | 'RUNTIME_ALREADY_STARTED'
  /** An adapter's hook, composable or dock found no Pling instance (no provider, nothing installed). */
  | 'PLING_NOT_PROVIDED'
  /** A Vue composable that registers something ran outside any effect scope, where nothing would undo it. */
  | 'NO_ACTIVE_SCOPE';

const MARKER = Symbol.for('@plingjs/core.PageError');

export class PageError extends Error {
  readonly code: PageErrorCode;
  constructor(code: PageErrorCode, message: string) {
    // The code leads the message (for a host that logs it); thrown from an action's tool, TOOL_ERROR_CODE makes the
    // call's result and tool-result event carry this code (e.g. CONFIRMATION_REJECTED), not TOOL_FAILED.
    super(`${code}: ${message}`);
    this.name = 'PageError';
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
    Object.defineProperty(this, TOOL_ERROR_CODE, { value: code });
  }

  /** True for a PageError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is PageError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
