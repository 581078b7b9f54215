import { hooks } from '@aalis/api-hooks';
import { App, definePlugin, memorySink } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { compose } from './compose.js';
import { HookRegistry } from './hook-registry.js';
import hooksPlugin from './index.js';

declare module '@aalis/api-hooks' {
  interface HookContextMap {
    'test:trace': { trace: string[] };
    'test:empty': { trace: string[] };
  }
}

describe('hooks: onion middleware', () => {
  it('runs middlewares in registration order around the default action', async () => {
    const registry = new HookRegistry();
    registry.middleware('test:trace', async (context, next) => {
      context.trace.push('a in');
      await next();
      context.trace.push('a out');
    });
    registry.middleware('test:trace', async (context, next) => {
      context.trace.push('b in');
      await next();
      context.trace.push('b out');
    });
    const context = { trace: [] as string[] };
    const result = await registry.run('test:trace', context, (c) => {
      c.trace.push('centre');
    });
    expect(context.trace).toEqual(['a in', 'b in', 'centre', 'b out', 'a out']);
    expect(result).toEqual({ reachedCentre: true });
  });

  it('short-circuits when a middleware does not call next, and tells the caller', async () => {
    const registry = new HookRegistry();
    const later: string[] = [];
    registry.middleware('test:trace', () => {});
    registry.middleware('test:trace', async (_context, next) => {
      later.push('second');
      await next();
    });
    const context = { trace: [] as string[] };
    const result = await registry.run('test:trace', context, (c) => {
      c.trace.push('centre');
    });
    expect(result.reachedCentre).toBe(false);
    expect(context.trace).toEqual([]);
    expect(later).toEqual([]);
  });

  it('refuses next() called twice with a coded error', async () => {
    const registry = new HookRegistry();
    registry.middleware('test:trace', async (_context, next) => {
      await next();
      await next();
    });
    await expect(registry.run('test:trace', { trace: [] })).rejects.toMatchObject({ code: 'AALIS_HOOK_NEXT_TWICE' });
  });

  it('propagates a middleware error to the caller', async () => {
    const registry = new HookRegistry();
    registry.middleware('test:trace', () => {
      throw new Error('refused');
    });
    await expect(registry.run('test:trace', { trace: [] })).rejects.toThrow('refused');
  });

  it('a run keeps the chain it started with: middlewares added or removed meanwhile count from the next run', async () => {
    const registry = new HookRegistry();
    const trace = (label: string) => async (context: { trace: string[] }, next: () => Promise<void>) => {
      context.trace.push(label);
      await next();
    };
    let removeB: () => void = () => {};
    registry.middleware('test:trace', async (context, next) => {
      context.trace.push('a');
      registry.middleware('test:trace', trace('added'));
      removeB();
      await next();
    });
    removeB = registry.middleware('test:trace', trace('b'));
    const first = { trace: [] as string[] };
    await registry.run('test:trace', first);
    expect(first.trace).toEqual(['a', 'b']);
    expect(registry.count('test:trace')).toBe(2);
    const second = { trace: [] as string[] };
    await registry.run('test:trace', second);
    // The first middleware adds another copy and removes nothing more; the new copy joins from the run after.
    expect(second.trace).toEqual(['a', 'added']);
    removeB();
    expect(registry.count('test:trace')).toBe(3);
  });

  it('a key without middlewares answers as the composed onion does (centre, result, failure)', async () => {
    const registry = new HookRegistry();
    const removed = registry.middleware('test:trace', async (_context, next) => next());
    removed();
    for (const [label, run] of [
      [
        'never registered',
        (centre?: (context: { trace: string[] }) => void | Promise<void>) =>
          registry.run('test:empty', { trace: [] as string[] }, centre),
      ],
      [
        'all removed',
        (centre?: (context: { trace: string[] }) => void | Promise<void>) =>
          registry.run('test:trace', { trace: [] as string[] }, centre),
      ],
    ] as const) {
      const seen: string[] = [];
      expect(await run((context) => void seen.push(`centre ${context.trace.length}`)), label).toEqual(
        await compose(
          'test:trace',
          [],
          (context: { trace: string[] }) => void seen.push(`centre ${context.trace.length}`),
        )({ trace: [] }),
      );
      expect(seen).toEqual(['centre 0', 'centre 0']);
      expect(await run(), label).toEqual({ reachedCentre: true });
      // A centre that throws synchronously rejects the run, as an async onion does.
      const failing = run(() => {
        throw new Error('centre failed');
      });
      expect(failing).toBeInstanceOf(Promise);
      await expect(failing).rejects.toThrow('centre failed');
    }
  });

  it('withdraws a plugin’s middlewares when the plugin deactivates', async () => {
    const app = new App({ logSinks: [memorySink()] });
    let registry: HookRegistry | undefined;
    app.plugin(hooksPlugin);
    app.plugin(
      definePlugin({
        name: '@test/hooker',
        uses: { hooks },
        apply({ hooks }) {
          registry = hooks.provider?.impl as HookRegistry;
          hooks.use.middleware('test:trace', async (context, next) => {
            context.trace.push('hooked');
            await next();
          });
        },
      }),
    );
    await app.start();
    expect(registry!.count('test:trace')).toBe(1);
    await app.remove('@test/hooker');
    expect(registry!.count('test:trace')).toBe(0);
    await app.stop();
  });
});
