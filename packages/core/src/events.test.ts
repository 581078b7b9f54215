import { describe, expect, it, vi } from 'vitest';
import { EventBus } from './events.js';

describe('EventBus', () => {
  it('calls listeners in subscription order and stops after the disposer', () => {
    const bus = new EventBus(() => {});
    const heard: string[] = [];
    const off = bus.on('x', () => {
      heard.push('a');
    });
    bus.on('x', () => {
      heard.push('b');
    });
    bus.emit('x', 1);
    off();
    bus.emit('x', 2);
    expect(heard).toEqual(['a', 'b', 'b']);
  });

  it('reports failing listeners without stopping the others', async () => {
    const failures = vi.fn();
    const bus = new EventBus(failures);
    const after = vi.fn();
    bus.on('x', () => {
      throw new Error('sync');
    });
    bus.on('x', () => Promise.reject(new Error('async')));
    bus.on('x', after);
    await bus.emitAsync('x', null);
    expect(after).toHaveBeenCalledTimes(1);
    expect(failures).toHaveBeenCalledTimes(2);
  });

  it('emitAsync waits for async listeners', async () => {
    const bus = new EventBus(() => {});
    let done = false;
    bus.on('x', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      done = true;
    });
    await bus.emitAsync('x', null);
    expect(done).toBe(true);
  });
});
