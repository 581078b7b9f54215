import { describe, expect, it } from 'vitest';
import { shutdownSignals } from './shutdown-signals.js';

describe('shutdownSignals', () => {
  it('drains on the first signal and exits at once on a second SIGINT or SIGTERM', () => {
    const act = shutdownSignals();
    expect(act('SIGINT')).toBe('drain');
    expect(act('SIGINT')).toBe('force');
    const other = shutdownSignals();
    expect(other('SIGTERM')).toBe('drain');
    expect(other('SIGTERM')).toBe('force');
  });

  it('ignores a repeated hang-up (the kernel and the shell each send one) but not a later SIGINT', () => {
    const act = shutdownSignals();
    expect(act('SIGHUP')).toBe('drain');
    expect(act('SIGHUP')).toBe('ignore');
    expect(act('SIGINT')).toBe('force');
    const afterInterrupt = shutdownSignals();
    expect(afterInterrupt('SIGINT')).toBe('drain');
    expect(afterInterrupt('SIGHUP')).toBe('ignore');
  });
});
