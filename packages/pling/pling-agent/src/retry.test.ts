import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_CONFIG } from './config.js';
import { PlingError } from './errors.js';
import { backoffDelay, isRetryable, withRetry } from './retry.js';
import { manualClock } from './test-helpers.case.js';

const retryable = (status: number) =>
  new PlingError({ code: 'MODEL_REQUEST_FAILED', message: 'x', status, retryable: true });

describe('retry: 指数退避', () => {
  it('retry.baseDelayMs 指数退避的初始等待, retry.maxDelayMs 退避等待上限: 500, 1000, 2000, 4000, 4000', () => {
    const delays = [0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, DEFAULT_AGENT_CONFIG.retry));
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000]);
  });

  it('retry.maxRetries 首次失败后的重试次数: 1 + maxRetries attempts, then the failure', async () => {
    const clock = manualClock();
    let attempts = 0;
    const failure = retryable(503);
    await expect(
      withRetry({
        run: async () => {
          attempts++;
          throw failure;
        },
        retry: DEFAULT_AGENT_CONFIG.retry,
        clock,
      }),
    ).rejects.toBe(failure);
    expect(attempts).toBe(4);
    expect(clock.sleeps).toEqual([500, 1000, 2000]);
  });

  it('a retry that succeeds returns its result and reports each retry', async () => {
    const clock = manualClock();
    const retries: number[] = [];
    const result = await withRetry({
      run: async (attempt) => {
        if (attempt < 2) throw retryable(429);
        return 'ok';
      },
      retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 15 },
      clock,
      onRetry: ({ retry }) => retries.push(retry),
    });
    expect(result).toBe('ok');
    expect(retries).toEqual([0, 1]);
    expect(clock.sleeps).toEqual([10, 15]);
  });

  it('non-retryable failures (4xx, aborts, foreign errors) are not retried', async () => {
    expect(isRetryable(new PlingError({ code: 'MODEL_REQUEST_FAILED', message: 'x', status: 400 }))).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(isRetryable(new Error('boom'))).toBe(false);
    expect(isRetryable(new PlingError({ code: 'NETWORK_ERROR', message: 'x', retryable: true }))).toBe(true);
    let attempts = 0;
    await expect(
      withRetry({
        run: async () => {
          attempts++;
          throw new PlingError({ code: 'MODEL_REQUEST_FAILED', message: 'bad', status: 401 });
        },
        retry: DEFAULT_AGENT_CONFIG.retry,
        clock: manualClock(),
      }),
    ).rejects.toThrow('bad');
    expect(attempts).toBe(1);
  });

  it('maxRetries 0 makes exactly one attempt', async () => {
    let attempts = 0;
    await expect(
      withRetry({
        run: async () => {
          attempts++;
          throw retryable(500);
        },
        retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
        clock: manualClock(),
      }),
    ).rejects.toBeInstanceOf(PlingError);
    expect(attempts).toBe(1);
  });
});
