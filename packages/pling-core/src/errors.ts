// The page layer's one error class: a stable code and a message that says how to fix the problem. Separate from
// @plingjs/agent's PlingError because that class's code list is closed; both carry a cross-copy marker.

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
    // The code leads the message: a thrown PageError reaches the model as a TOOL_FAILED message, and the code
    // is what the model (and a person reading the trace) can act on.
    super(`${code}: ${message}`);
    this.name = 'PageError';
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a PageError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is PageError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
