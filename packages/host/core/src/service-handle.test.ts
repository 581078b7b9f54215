// A handle keeps its selection and bound methods between calls, and still calls the provider selected at call time:
// every change of providers or preferences is seen by the next call.
import { describe, expect, it } from 'vitest';
import { App } from './app.js';
import { provide, services } from './builtins.js';
import { defineService, optional } from './descriptor.js';
import { memorySink } from './logger.js';
import { definePlugin } from './plugin.js';
import type { ServiceHandle } from './service-handle.js';

interface Greeter {
  greet(): string;
  readonly calls: number;
}

const greeter = defineService<Greeter>('test:greeter');

function greeterProvider(label: string, priority = 0) {
  const impl = {
    calls: 0,
    greet(this: { calls: number }) {
      this.calls++;
      return label;
    },
  };
  const plugin = definePlugin({
    name: `@test/greeter-${label}`,
    provides: [greeter],
    uses: { provide },
    apply({ provide }) {
      provide.use.service(greeter, impl, { priority });
    },
  });
  return { impl, plugin };
}

async function started(...plugins: ReturnType<typeof greeterProvider>[]) {
  const app = new App({ logSinks: [memorySink()] });
  const seen: { handle?: ServiceHandle<Greeter> } = {};
  for (const { plugin } of plugins) app.plugin(plugin);
  app.plugin(
    definePlugin({
      name: '@test/greeted',
      uses: { greeter, services },
      apply({ greeter }) {
        seen.handle = greeter;
      },
    }),
  );
  await app.start();
  return { app, handle: seen.handle! };
}

describe('service handle (selection and bound methods kept between calls)', () => {
  it('hands out the same bound method while nothing changed, bound to its implementation', async () => {
    const a = greeterProvider('a');
    const { app, handle } = await started(a);
    const first = handle.use.greet;
    expect(handle.use.greet).toBe(first);
    expect(first()).toBe('a');
    expect(a.impl.calls).toBe(1);
    expect(handle.use.calls).toBe(1);
    await app.stop();
  });

  it('calls the provider selected at call time after a preference change, a new provider and a removal', async () => {
    const a = greeterProvider('a');
    const b = greeterProvider('b');
    const { app, handle } = await started(a, b);
    expect(handle.use.greet()).toBe('a');
    app.services.setGlobalPreference('test:greeter', '@test/greeter-b');
    expect(handle.use.greet()).toBe('b');
    expect(handle.provider?.instanceId).toBe('@test/greeter-b');
    app.services.setGlobalPreference('test:greeter', undefined);
    expect(handle.use.greet()).toBe('a');
    app.plugin(greeterProvider('high', 5).plugin);
    await app.settled();
    expect(handle.use.greet()).toBe('high');
    await app.remove('@test/greeter-high');
    expect(handle.use.greet()).toBe('a');
    await app.stop();
  });

  it('calls a method replaced on the implementation, not the one bound before', async () => {
    const a = greeterProvider('a');
    const { app, handle } = await started(a);
    expect(handle.use.greet()).toBe('a');
    a.impl.greet = () => 'replaced';
    expect(handle.use.greet()).toBe('replaced');
    await app.stop();
  });

  it('throws AALIS_SERVICE_UNAVAILABLE on the first call after the last provider went', async () => {
    const a = greeterProvider('a');
    const app = new App({ logSinks: [memorySink()] });
    const seen: { handle?: ServiceHandle<Greeter> } = {};
    app.plugin(a.plugin);
    app.plugin(
      definePlugin({
        name: '@test/optional-greeted',
        uses: { greeter: optional(greeter) },
        apply({ greeter }) {
          seen.handle = greeter;
        },
      }),
    );
    await app.start();
    const handle = seen.handle!;
    expect(handle.use.greet()).toBe('a');
    await app.remove('@test/greeter-a');
    expect(handle.available).toBe(false);
    expect(() => handle.use.greet()).toThrow(expect.objectContaining({ code: 'AALIS_SERVICE_UNAVAILABLE' }));
    await app.stop();
  });
});
