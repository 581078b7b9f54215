import { afterEach, describe, expect, it, vi } from 'vitest';
import { atMost } from './at-most.js';

describe('atMost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves when the work does, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    await atMost(Promise.resolve('done'), 1_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves after the time at the latest when the work never settles', async () => {
    vi.useFakeTimers();
    let resolved = false;
    const waiting = atMost(new Promise(() => {}), 1_000).then(() => {
      resolved = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(resolved).toBe(true);
  });

  it('rejects as the work does, and clears its timer', async () => {
    vi.useFakeTimers();
    await expect(atMost(Promise.reject(new Error('broken')), 1_000)).rejects.toThrow('broken');
    expect(vi.getTimerCount()).toBe(0);
  });
});
