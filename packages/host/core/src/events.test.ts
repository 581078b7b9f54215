import { describe, expect, it, vi } from 'vitest';
import { App } from './app.js';
import { EventBus } from './events.js';
import { memorySink } from './logger.js';

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

  // Emit walks the listeners without a copy per event; what a listener changing them mid-emit sees is as with the copy
  // taken before.
  it('does not call a listener added during an emit, and still calls one removed during it', () => {
    const bus = new EventBus(() => {});
    const heard: string[] = [];
    let offC: (() => void) | undefined;
    bus.on('x', (payload) => {
      heard.push(`a${payload}`);
      if (payload === 1) {
        bus.on('x', (later) => {
          heard.push(`late${later}`);
        });
        offC?.();
      }
    });
    bus.on('x', (payload) => {
      heard.push(`b${payload}`);
    });
    offC = bus.on('x', (payload) => {
      heard.push(`c${payload}`);
    });
    bus.emit('x', 1);
    bus.emit('x', 2);
    expect(heard).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'late2']);
  });

  it('a listener that removes itself mid-emit is called once; the others of that emit still are', async () => {
    const bus = new EventBus(() => {});
    const heard: string[] = [];
    const off = bus.on('x', () => {
      heard.push('once');
      off();
    });
    bus.on('x', () => {
      heard.push('always');
    });
    bus.emit('x', null);
    await bus.emitAsync('x', null);
    bus.emit('x', null);
    expect(heard).toEqual(['once', 'always', 'always', 'always']);
    expect(bus.listenerCount('x')).toBe(1);
  });

  it('calls the same function once per subscription, and a disposer removes its own one only, once', () => {
    const bus = new EventBus(() => {});
    const heard: string[] = [];
    const shared = (payload: unknown) => {
      heard.push(`shared${payload}`);
    };
    bus.on('x', shared);
    bus.on('x', (payload) => {
      heard.push(`other${payload}`);
    });
    const offSecond = bus.on('x', shared);
    bus.emit('x', 1);
    offSecond();
    offSecond();
    bus.emit('x', 2);
    expect(heard).toEqual(['shared1', 'other1', 'shared1', 'shared2', 'other2']);
    expect(bus.listenerCount('x')).toBe(2);
  });

  it('an event nobody listens to reaches nobody, and one whose listeners all left neither', () => {
    const bus = new EventBus(() => {});
    const heard: unknown[] = [];
    bus.emit('nobody', 1);
    const off = bus.on('x', (payload) => {
      heard.push(payload);
    });
    off();
    bus.emit('x', 2);
    expect(heard).toEqual([]);
    expect(bus.listenerCount('x')).toBe(0);
  });

  it('the events handle says whether anything listens now', async () => {
    const app = new App({ logSinks: [memorySink()] });
    expect(app.events.listens('service:switch')).toBe(false);
    const off = app.events.on('service:switch', () => {});
    expect(app.events.listens('service:switch')).toBe(true);
    off();
    expect(app.events.listens('service:switch')).toBe(false);
  });
});
