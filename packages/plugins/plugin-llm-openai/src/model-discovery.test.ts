import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISCOVERY_FIRST_DELAY_MS, DISCOVERY_MAX_DELAY_MS, ModelDiscovery } from './model-discovery.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ModelDiscovery', () => {
  it('asks again with growing pauses until the server answers, at once when nudged, never after stop', async () => {
    vi.useFakeTimers();
    let up = false;
    const attempts: number[] = [];
    const delays: number[] = [];
    let found = 0;
    const discovery = new ModelDiscovery({
      refresh: async () => {
        attempts.push(Date.now());
        if (!up) throw new Error('ECONNREFUSED');
      },
      onFound: () => found++,
      onFailed: (_error, next) => delays.push(next),
    });
    discovery.start();
    expect(discovery.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(DISCOVERY_FIRST_DELAY_MS);
    await vi.advanceTimersByTimeAsync(2 * DISCOVERY_FIRST_DELAY_MS);
    expect(attempts).toHaveLength(2);
    expect(delays).toEqual([2_000, 4_000]);
    await vi.advanceTimersByTimeAsync(DISCOVERY_FIRST_DELAY_MS);
    expect(attempts).toHaveLength(2);
    discovery.nudge(); // someone looks the models up: try now instead of in 3 s
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(3);
    discovery.nudge(); // not more than once a second
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(3);
    up = true;
    await vi.advanceTimersByTimeAsync(DISCOVERY_MAX_DELAY_MS);
    expect(found).toBe(1);
    expect(discovery.pending).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * DISCOVERY_MAX_DELAY_MS);
    expect(attempts).toHaveLength(4);

    const stopped = new ModelDiscovery({
      refresh: async () => attempts.push(-1),
      onFound: () => {},
      onFailed: () => {},
    });
    stopped.start();
    stopped.stop();
    await vi.advanceTimersByTimeAsync(10 * DISCOVERY_MAX_DELAY_MS);
    expect(attempts).not.toContain(-1);
  });
});
