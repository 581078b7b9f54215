import type { Lease, LeasesService } from '@aalis/api-storage';
import { describe, expect, it } from 'vitest';
import { holdConnection, reconnectWhile } from './connection-lease.js';

/** One name held by one of several "processes" (each its own LeasesService over the same table). */
function leaseTable() {
  const holders = new Map<string, { holder: string; lost: AbortController }>();
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const process = (holder: string): LeasesService & { lose(name: string): void } => {
    const claim = (name: string): Lease | undefined => {
      if (holders.has(name)) return undefined;
      const lost = new AbortController();
      holders.set(name, { holder, lost });
      return {
        name,
        takenOver: undefined,
        previousHolder: undefined,
        lost: lost.signal,
        note: async () => {},
        release: async () => {
          if (holders.get(name)?.lost === lost) holders.delete(name);
          wake();
        },
      };
    };
    return {
      ttlMs: 1000,
      holder,
      abandoned: async () => [],
      tryAcquire: async (name) => claim(name),
      acquire: async (name, options) => {
        for (;;) {
          const lease = claim(name);
          if (lease) return lease;
          if (options?.signal?.aborted) return undefined;
          await new Promise<void>((resolve) => {
            const done = () => {
              waiters.delete(done);
              resolve();
            };
            waiters.add(done);
            options?.signal?.addEventListener('abort', done, { once: true });
          });
        }
      },
      lose(name) {
        const held = holders.get(name);
        holders.delete(name);
        held?.lost.abort();
        wake();
      },
    };
  };
  return { process, holderOf: (name: string) => holders.get(name)?.holder };
}

const until = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('holdConnection', () => {
  it('without leases holds the connection once, until the adapter stops', async () => {
    const stopping = new AbortController();
    const held: AbortSignal[] = [];
    const done = holdConnection({
      leases: undefined,
      name: 'platform:x:1',
      stopping: stopping.signal,
      standby: () => held.push(AbortSignal.abort()),
      hold: async (signal) => {
        held.push(signal);
        await until(signal);
      },
    });
    stopping.abort();
    await done;
    expect(held).toEqual([stopping.signal]);
  });

  it('one process holds it, the other stands by and takes over when the first loses the lease or stops', async () => {
    const table = leaseTable();
    const a = table.process('a');
    const b = table.process('b');
    const stopA = new AbortController();
    const stopB = new AbortController();
    const log: string[] = [];
    const run = (name: string, leases: LeasesService, stopping: AbortSignal) =>
      holdConnection({
        leases,
        name: 'platform:x:1',
        stopping,
        standby: () => log.push(`${name} standby`),
        hold: async (held) => {
          log.push(`${name} holds`);
          await until(held);
          log.push(`${name} let go`);
        },
      });
    const runA = run('a', a, stopA.signal);
    await Promise.resolve();
    const runB = run('b', b, stopB.signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(['a holds', 'b standby']);
    // A's heartbeat failed: its hold ends, B takes the connection, A waits for it again.
    a.lose('platform:x:1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(table.holderOf('platform:x:1')).toBe('b');
    expect(log).toEqual(['a holds', 'b standby', 'a let go', 'b holds', 'a standby']);
    // B stops: the lease goes back and A holds again; then A stops and nothing is held.
    stopB.abort();
    await runB;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(table.holderOf('platform:x:1')).toBe('a');
    stopA.abort();
    await runA;
    expect(table.holderOf('platform:x:1')).toBeUndefined();
    expect(log.slice(5)).toEqual(['b let go', 'a holds', 'a let go']);
  });
});

describe('reconnectWhile', () => {
  it('waits the base delay doubled per failure in a row, capped, and from the base again after a healthy one', async () => {
    const held = new AbortController();
    const outcomes = [false, false, false, true, false, false];
    const delays: number[] = [];
    await reconnectWhile(held.signal, {
      attempt: async () => {
        const outcome = outcomes.shift();
        if (outcomes.length === 0) held.abort();
        return outcome ?? true;
      },
      healthy: (ok) => ok,
      baseMs: 1,
      maxMs: 5,
      closed: (_outcome, delayMs) => delays.push(delayMs),
    });
    // The last attempt ended because `held` aborted: no delay for it.
    expect(delays).toEqual([2, 4, 5, 1, 2]);
  });
});
