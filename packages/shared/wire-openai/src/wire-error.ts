// Reading and classifying the errors OpenAI-compatible servers return, in the body or inside a stream.
import type { WireErrorBody } from './wire-types.js';

export interface WireError {
  /** The server's own message (or the start of the raw body when it sent no JSON error). */
  message: string;
  type?: string;
  code?: string;
}

export type WireErrorClass =
  | 'auth'
  | 'model-not-found'
  | 'endpoint-not-found'
  | 'context-too-long'
  | 'rate-limited'
  | 'server'
  | 'bad-request';

/** Parses an error response body; falls back to the raw text (shortened) when it is not an OpenAI error. */
export function parseWireError({ body, fallback = '' }: { body: string; fallback?: string }): WireError {
  try {
    const parsed = JSON.parse(body) as WireErrorBody | { message?: unknown; detail?: unknown };
    const error = (parsed as WireErrorBody).error;
    if (error && typeof error === 'object') return fromErrorObject(error, fallback);
    if (typeof error === 'string') return { message: error };
    const loose = parsed as { message?: unknown; detail?: unknown };
    if (typeof loose.message === 'string') return { message: loose.message };
    if (typeof loose.detail === 'string') return { message: loose.detail };
  } catch {
    // Not JSON: an HTML page from a proxy, a plain-text error …
  }
  const text = body.trim();
  return { message: text ? shorten(text, 300) : fallback };
}

export function fromErrorObject(error: NonNullable<WireErrorBody['error']>, fallback = ''): WireError {
  const result: WireError = { message: typeof error.message === 'string' ? error.message : fallback };
  if (typeof error.type === 'string') result.type = error.type;
  if (error.code !== undefined && error.code !== null) result.code = String(error.code);
  return result;
}

const CONTEXT_PATTERN =
  /context[ _]length|context window|maximum context|too many tokens|prompt is too long|reduce the length|input is too long|exceeds? the (?:model's )?max/i;

/** Classifies an HTTP error from the status and the server's error. */
export function classifyWireError({ status, error }: { status: number; error: WireError }): WireErrorClass {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate-limited';
  if (status === 413 || error.code === 'context_length_exceeded' || CONTEXT_PATTERN.test(error.message)) {
    return 'context-too-long';
  }
  if (status === 404) {
    return error.code === 'model_not_found' || /model/i.test(error.message) ? 'model-not-found' : 'endpoint-not-found';
  }
  if (status === 408 || status === 409 || status >= 500) return 'server';
  return 'bad-request';
}

/** Whether a status is worth retrying before any output arrived. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A stream that cannot be read on: malformed data, an error reported inside it, or an early end. */
export class WireStreamError extends Error {
  readonly kind: 'malformed-data' | 'error-event' | 'truncated';
  /** The offending data (shortened) for malformed data. */
  readonly line: string | undefined;
  /** The server's error for an error event. */
  readonly error: WireError | undefined;

  constructor({ kind, line, error }: { kind: WireStreamError['kind']; line?: string; error?: WireError }) {
    super(
      kind === 'malformed-data'
        ? `malformed SSE data: ${line ?? ''}`
        : kind === 'error-event'
          ? `error in stream: ${error?.message ?? ''}`
          : 'stream ended before the response was complete',
    );
    this.name = 'WireStreamError';
    this.kind = kind;
    this.line = line;
    this.error = error;
  }
}

export function shorten(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
