// Retrying a model call on retryable failures with capped exponential backoff. A retry is another model call,
// not another turn.
import type { Clock } from './clock.js';
import type { RetryConfig } from './config.js';
import { isAbortError, PlingError } from './errors.js';

/** Wait before retry number `retry` (0 for the first retry): baseDelayMs × 2^retry, capped at maxDelayMs. */
export function backoffDelay(retry: number, { baseDelayMs, maxDelayMs }: RetryConfig): number {
  return Math.min(baseDelayMs * 2 ** retry, maxDelayMs);
}

/** Network failures and PlingErrors marked retryable (408/409/429/5xx); never an abort. */
export function isRetryable(error: unknown): boolean {
  if (isAbortError(error)) return false;
  return PlingError.isInstance(error) && error.retryable;
}

export interface WithRetryOptions<T> {
  /** One attempt; `attempt` is 0 for the first call. */
  run: (attempt: number) => Promise<T>;
  retry: RetryConfig;
  clock: Pick<Clock, 'sleep'>;
  signal?: AbortSignal;
  /** Called before each wait with the failure and the delay. */
  onRetry?: (info: { retry: number; delayMs: number; error: unknown }) => void;
}

export async function withRetry<T>({ run, retry, clock, signal, onRetry }: WithRetryOptions<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (attempt >= retry.maxRetries || !isRetryable(error) || signal?.aborted) throw error;
      const delayMs = backoffDelay(attempt, retry);
      onRetry?.({ retry: attempt, delayMs, error });
      await clock.sleep(delayMs, signal);
    }
  }
}
