// Sends one request and returns the exchange once a 2xx status arrived, retrying connection failures, connect
// timeouts and retryable statuses (408, 409, 429, ≥ 500) with backoff or the server's Retry-After. Nothing of a
// response has been read when a retry happens, so it is invisible to the caller. A server that took the request and
// then went silent (headers timeout) is not retried: waiting for it again would multiply the stall
// (docs/decisions/provider-stall-timeouts.md).
import { llmErrors } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import { isRetryableStatus, WireStreamError } from '@aalis/wire-openai';
import type { Timeouts } from './config-schema.js';
import { type HttpAgents, HttpExchange, TransportError } from './http-exchange.js';
import { type ErrorContext, httpError, providerFailure, transportError } from './provider-errors.js';
import { parseRetryAfter, type RetrySettings, retryDelay, sleep } from './retry-delay.js';

export interface RetryReport {
  model: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  reason: string;
  retryAfterMs?: number;
}

export interface OpenWithRetriesOptions {
  url: URL;
  headers: Record<string, string>;
  /** A POST body (a string is sent as UTF-8); GET without one. */
  body?: string | Uint8Array;
  signal: AbortSignal | undefined;
  context: ErrorContext;
  timeouts: Timeouts;
  retry: RetrySettings;
  agents: HttpAgents;
  /** Retries this call has already spent (a body that broke before its first event counts as one). */
  attempt?: number;
  /** For a model-not-found error: the models the server offers. */
  available: () => Promise<string[]>;
  onRetry: (report: RetryReport) => void;
}

/** Returns the open exchange and the attempt it succeeded on. */
export async function openWithRetries({
  url,
  headers,
  body,
  signal,
  context,
  timeouts,
  retry,
  agents,
  attempt: firstAttempt = 0,
  available,
  onRetry,
}: OpenWithRetriesOptions): Promise<{ exchange: HttpExchange; attempt: number }> {
  // Encoded once: measuring a string's UTF-8 length for content-length and encoding it again on the socket were two
  // passes over the whole request per attempt (the request is the whole conversation).
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  for (let attempt = firstAttempt; ; attempt++) {
    let problem: () => AalisError | Promise<AalisError>;
    let retryable: boolean;
    let retryAfterMs: number | undefined;
    let reason: string;
    try {
      const exchange = await HttpExchange.open({
        url,
        method: payload === undefined ? 'GET' : 'POST',
        headers,
        body: payload,
        signal,
        connectMs: timeouts.connectMs,
        headersMs: timeouts.headersMs,
        idleMs: timeouts.idleMs,
        agents,
      });
      if (exchange.status >= 200 && exchange.status < 300) return { exchange, attempt };
      let text = '';
      try {
        text = await exchange.text(65_536);
      } catch {
        if (signal?.aborted) throw abortedError(context, false);
        // The status line is what we have.
      } finally {
        exchange.close();
      }
      const { status } = exchange;
      const statusText = exchange.response.statusMessage ?? '';
      retryAfterMs = parseRetryAfter({ header: (name) => exchange.header(name) });
      retryable = isRetryableStatus(status);
      reason = `HTTP ${status}`;
      problem = () => httpError({ status, statusText, body: text, url: url.href, retryAfterMs, available, context });
    } catch (error) {
      if (AalisError.isInstance(error)) throw error;
      const failure = error instanceof TransportError ? error : new TransportError('network', error);
      if (failure.kind === 'aborted' || signal?.aborted) throw abortedError(context, false);
      retryable = (failure.kind === 'network' && !failure.untrustedCertificate) || failure.kind === 'connect-timeout';
      reason = failure.kind === 'network' ? (failure.code ?? 'network') : failure.kind;
      problem = () => transportError({ error: failure, context, outputStarted: false });
    }
    const delay = retryable ? retryDelay({ attempt, settings: retry, retryAfterMs }) : undefined;
    if (delay === undefined) throw await problem();
    await backOff({
      context,
      report: { model: context.model, attempt: attempt + 1, delayMs: delay, reason, retryAfterMs },
      signal,
      onRetry,
    });
  }
}

/** Reports the retry, then waits for it; an abort while waiting ends the call. */
export async function backOff({
  context,
  report,
  signal,
  onRetry,
}: {
  context: ErrorContext;
  report: RetryReport;
  signal: AbortSignal | undefined;
  onRetry: (report: RetryReport) => void;
}): Promise<void> {
  onRetry(report);
  try {
    await sleep({ ms: report.delayMs, signal });
  } catch {
    throw abortedError(context, false);
  }
}

/**
 * A response body failed after its 2xx headers: throws the coded failure, or waits out the backoff and returns (the
 * caller opens again) when a retry is invisible and allowed: nothing of the body reached the caller, the call was not
 * aborted, a retry is left, and the connection broke rather than stalled. A stall (idle timeout) is not retried: the
 * server took the request and went silent, and waiting for it again doubles the stall. A stream error is retried when
 * `retryStreamError` says so (default: a stream cut before its end).
 */
export async function backOffBodyFailure({
  error,
  context,
  outputStarted,
  signal,
  attempt,
  retry,
  onRetry,
  retryStreamError = (streamError) => streamError.kind === 'truncated',
}: {
  error: unknown;
  context: ErrorContext;
  outputStarted: boolean;
  signal: AbortSignal | undefined;
  /** Retries this call has spent so far. */
  attempt: number;
  retry: RetrySettings;
  onRetry: (report: RetryReport) => void;
  retryStreamError?: (error: WireStreamError) => boolean;
}): Promise<void> {
  const failure = providerFailure({ error, context, outputStarted, signal });
  const retryable =
    !outputStarted &&
    !signal?.aborted &&
    (error instanceof TransportError
      ? error.kind !== 'aborted' && error.kind !== 'idle-timeout'
      : error instanceof WireStreamError && retryStreamError(error));
  const delay = retryable ? retryDelay({ attempt, settings: retry }) : undefined;
  if (delay === undefined) throw failure;
  await backOff({
    context,
    report: { model: context.model, attempt: attempt + 1, delayMs: delay, reason: failure.code },
    signal,
    onRetry,
  });
}

export function abortedError(context: ErrorContext, outputStarted: boolean): AalisError {
  return llmErrors.AALIS_LLM_ABORTED({ model: context.model }, { details: { outputStarted } });
}
