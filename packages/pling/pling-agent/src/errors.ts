// The package's one error class: a stable code, a message saying how to fix the problem, and whether a retry helps.

export type PlingErrorCode =
  | 'INVALID_CONFIG'
  | 'NOT_CONFIGURED'
  | 'HOOK_BLOCKED'
  /** A PreToolUse or PostToolUse hook threw, or returned something that is not a result; that call failed. */
  | 'HOOK_FAILED'
  | 'TOOL_NOT_FOUND'
  | 'INVALID_ARGUMENTS'
  | 'TOOL_FAILED'
  | 'MODEL_REQUEST_FAILED'
  | 'NETWORK_ERROR'
  | 'MODEL_STREAM_ERROR'
  | 'CANCELLED'
  | 'DISPOSED'
  /** session.retry() found no message of the person's to answer again. */
  | 'NOTHING_TO_RETRY'
  /** A session-event listener or an observable's subscriber threw; reported once per listener, never rethrown. */
  | 'LISTENER_FAILED';

const MARKER = Symbol.for('@plingjs/agent.PlingError');

export interface PlingErrorOptions {
  code: PlingErrorCode;
  message: string;
  /** A retry may succeed (network failures, 408/409/429/5xx). */
  retryable?: boolean;
  /** HTTP status, for errors answered by the model server. */
  status?: number;
  cause?: unknown;
  /** MODEL_STREAM_ERROR: the reply text already shown when the stream broke (kept visible, marked interrupted). */
  partialContent?: string;
}

export class PlingError extends Error {
  readonly code: PlingErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly partialContent: string | undefined;
  constructor({ code, message, retryable = false, status, cause, partialContent }: PlingErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'PlingError';
    this.code = code;
    this.retryable = retryable;
    this.status = status;
    this.partialContent = partialContent;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a PlingError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is PlingError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Whether an error is the abort of a request or a wait (fetch and our sleep throw a DOMException named so). */
export function isAbortError(error: unknown): boolean {
  return (
    (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError') ||
    (PlingError.isInstance(error) && error.code === 'CANCELLED')
  );
}
