// How long to wait before retrying: the server's Retry-After when it gives one, else exponential backoff with
// jitter. A Retry-After longer than the configured maximum means no retry (the error goes to the caller).

export interface RetrySettings {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter({
  header,
  now = Date.now(),
}: {
  header: (name: string) => string | undefined;
  now?: number;
}): number | undefined {
  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = header('retry-after');
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0 && /^\s*[\d.]+\s*$/.test(value)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The delay before retry number `attempt` (0 = the first retry), or undefined when it must not be retried. */
export function retryDelay({
  attempt,
  settings,
  retryAfterMs,
  random = Math.random,
}: {
  attempt: number;
  settings: RetrySettings;
  retryAfterMs?: number;
  random?: () => number;
}): number | undefined {
  if (attempt >= settings.maxRetries) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= settings.maxDelayMs ? retryAfterMs : undefined;
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** attempt);
  // "Equal jitter": half fixed, half random, so retries of many clients spread out but never collapse to 0.
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export function sleep({ ms, signal }: { ms: number; signal?: AbortSignal }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
