import { describe, expect, it } from 'vitest';
import { CallGate } from './call-gate.js';

describe('CallGate', () => {
  it('lets `max` calls run and serves waiting rooms round-robin, not by how many each queued', async () => {
    const gate = new CallGate(1);
    const order: string[] = [];
    await gate.acquire('busy');
    const waits = [
      gate.acquire('busy').then(() => order.push('busy-1')),
      gate.acquire('busy').then(() => order.push('busy-2')),
      gate.acquire('busy').then(() => order.push('busy-3')),
      gate.acquire('quiet').then(() => order.push('quiet-1')),
      gate.acquire('other').then(() => order.push('other-1')),
    ];
    expect(gate.queued).toBe(5);
    for (let i = 0; i < 5; i++) {
      gate.release();
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(waits);
    expect(order).toEqual(['busy-1', 'quiet-1', 'other-1', 'busy-2', 'busy-3']);
    expect(gate.running).toBe(1);
    gate.release();
    expect(gate.running).toBe(0);
  });

  it('never waits with no cap', async () => {
    const gate = new CallGate(0);
    await Promise.all([gate.acquire('a'), gate.acquire('a'), gate.acquire('a')]);
    expect(gate.queued).toBe(0);
  });
});
