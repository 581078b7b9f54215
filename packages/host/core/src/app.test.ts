import { describe, expect, it, vi } from 'vitest';
import { App } from './app.js';
import { config, events, lifecycle, provide, services } from './builtins.js';
import { defineService, optional } from './descriptor.js';
import { AalisError } from './errors.js';
import { memorySink } from './logger.js';
import { definePlugin } from './plugin.js';
import { s } from './schema.js';
import type { ServiceHandle } from './service-handle.js';
import { type Counter, counter, counterConsumer, counterProvider } from './test-fixtures.case.js';

const quietApp = (options: ConstructorParameters<typeof App>[0] = {}) => {
  const sink = memorySink();
  return { app: new App({ logSinks: [sink], ...options }), sink };
};

describe('App plugin states', () => {
  it('keeps a plugin pending with the missing service names until the service appears, then activates it', async () => {
    const { app } = quietApp();
    app.plugin(counterConsumer);
    await app.start();
    expect(app.stateOf('@test/consumer')).toMatchObject({ state: 'pending', missing: ['test:counter'] });
    app.plugin(counterProvider('a').plugin);
    await app.settled();
    expect(app.stateOf('@test/consumer').state).toBe('active');
    await app.stop();
  });

  it('gives the built-in handles to a plugin built against another copy of @aalis/core (equal descriptors, other objects)', async () => {
    const { app, sink } = quietApp();
    // What a plugin installed with its own copy of the package holds: the same names, fresh objects.
    const theirLogger = defineService<{ info(message: string): void }>('logger');
    const theirLifecycle = defineService<{ signal: AbortSignal }>('lifecycle');
    app.plugin(
      definePlugin({
        name: '@test/other-copy',
        uses: { log: theirLogger, lifecycle: theirLifecycle },
        apply({ log, lifecycle }) {
          log.use.info('running with another core');
          expect(lifecycle.use.signal).toBeInstanceOf(AbortSignal);
        },
      }),
    );
    await app.start();
    expect(app.stateOf('@test/other-copy')).toMatchObject({ state: 'active', missing: [] });
    expect(JSON.stringify(sink.records)).toContain('running with another core');
    await app.stop();
  });

  it('deactivates a consumer when its provider goes and re-activates it when the provider returns', async () => {
    const { app } = quietApp();
    const applied = vi.fn();
    const disposed = vi.fn();
    app.plugin(
      definePlugin({
        name: '@test/watcher',
        uses: { counter, lifecycle },
        apply({ lifecycle }) {
          applied();
          lifecycle.use.onDispose(disposed);
        },
      }),
    );
    const provider = counterProvider('a');
    app.plugin(provider.plugin);
    await app.start();
    expect(app.stateOf('@test/watcher').state).toBe('active');
    await app.remove('@test/counter-a');
    await app.settled();
    expect(app.stateOf('@test/watcher')).toMatchObject({ state: 'pending', missing: ['test:counter'] });
    expect(disposed).toHaveBeenCalledTimes(1);
    app.plugin(provider.plugin);
    await app.settled();
    expect(app.stateOf('@test/watcher').state).toBe('active');
    expect(applied).toHaveBeenCalledTimes(2);
    await app.stop();
    expect(disposed).toHaveBeenCalledTimes(2);
  });

  it('leaves a plugin whose apply throws in error with the cause, and the rest of the app keeps running', async () => {
    const { app } = quietApp();
    app.plugin(definePlugin({ name: '@test/broken', apply: () => Promise.reject(new Error('disk on fire')) }));
    app.plugin(counterProvider('a').plugin);
    await app.start();
    const broken = app.stateOf('@test/broken');
    expect(broken.state).toBe('error');
    expect(broken.error?.code).toBe('AALIS_PLUGIN_APPLY_FAILED');
    expect(broken.error?.message).toContain('disk on fire');
    expect(app.stateOf('@test/counter-a').state).toBe('active');
    await app.stop();
  });

  it('awaits an async apply before the plugin counts as active', async () => {
    const { app } = quietApp();
    let finished = false;
    app.plugin(
      definePlugin({
        name: '@test/slow',
        async apply() {
          await new Promise((resolve) => setTimeout(resolve, 5));
          finished = true;
        },
      }),
    );
    await app.start();
    expect(finished).toBe(true);
    expect(app.stateOf('@test/slow').state).toBe('active');
    await app.stop();
  });

  it('puts a plugin that declares a service it never provides in error', async () => {
    const { app } = quietApp();
    app.plugin(definePlugin({ name: '@test/liar', provides: [counter], apply() {} }));
    await app.start();
    expect(app.stateOf('@test/liar').error?.code).toBe('AALIS_PROVIDES_MISSING');
    await app.stop();
  });

  it('refuses two instances with the same id', () => {
    const { app } = quietApp();
    app.plugin(counterConsumer);
    expect(() => app.plugin(counterConsumer)).toThrow(/already registered/);
  });
});

describe('App config validation', () => {
  it('fills defaults into the validated section', async () => {
    const { app } = quietApp();
    let seen: unknown;
    app.plugin(
      definePlugin({
        name: '@test/configured',
        uses: { config },
        config: s.object({ name: s.string().default('aalis'), size: s.number().default(3) }),
        apply({ config }) {
          seen = config.use;
        },
      }),
      { size: 5 },
    );
    await app.start();
    expect(seen).toEqual({ name: 'aalis', size: 5 });
    await app.stop();
  });

  it('keeps a plugin with an invalid section from activating, naming plugin, field, expected and received', async () => {
    const { app, sink } = quietApp();
    app.plugin(counterProvider('a').plugin);
    app.plugin(counterConsumer, { times: -2 });
    await app.start();
    const state = app.stateOf('@test/consumer');
    expect(state.state).toBe('error');
    expect(state.error?.code).toBe('AALIS_CONFIG_INVALID');
    expect(state.error?.message).toBe(
      'Plugin @test/consumer: config field "times" expected an integer ≥ 0, received number -2. Fix this field in the plugin\'s configuration section.',
    );
    expect(sink.records.some((record) => record.level === 'error' && record.message.includes('times'))).toBe(true);
    const fixed = await app.configure('@test/consumer', { times: 2 });
    expect(fixed.state).toBe('active');
    await app.stop();
  });

  it('reports unknown keys', async () => {
    const { app } = quietApp();
    app.plugin(counterProvider('a').plugin);
    app.plugin(counterConsumer, { greting: 'typo' });
    await app.start();
    expect(app.stateOf('@test/consumer').error?.details).toMatchObject({
      field: 'greting',
      expected: 'no such field (unknown key)',
    });
    await app.stop();
  });
});

describe('provider selection', () => {
  const probeConsumer = () => {
    const seen: { handle?: ServiceHandle<Counter> } = {};
    const plugin = definePlugin({
      name: '@test/prober',
      uses: { counter, services },
      apply({ counter }) {
        seen.handle = counter;
      },
    });
    return { plugin, seen };
  };

  it('picks the higher priority, then the earlier registration', async () => {
    const { app } = quietApp();
    const { plugin, seen } = probeConsumer();
    app.plugin(counterProvider('first').plugin);
    app.plugin(counterProvider('second').plugin);
    app.plugin(plugin);
    await app.start();
    expect(seen.handle!.use.label).toBe('first');
    await app.remove('@test/counter-first');
    app.plugin(counterProvider('high', { priority: 5 }).plugin);
    await app.settled();
    expect(seen.handle!.use.label).toBe('high');
    await app.stop();
  });

  it('prefers the global preference over priority, and the consumer preference over the global one', async () => {
    const { app } = quietApp({ preferences: { global: { 'test:counter': '@test/counter-b' } } });
    const { plugin, seen } = probeConsumer();
    app.plugin(counterProvider('a', { priority: 10 }).plugin);
    app.plugin(counterProvider('b').plugin);
    app.plugin(counterProvider('c').plugin);
    app.plugin(plugin);
    await app.start();
    expect(seen.handle!.use.label).toBe('b');
    app.services.setPluginPreference('@test/prober', 'test:counter', '@test/counter-c');
    expect(seen.handle!.use.label).toBe('c');
    app.services.setPluginPreference('@test/prober', 'test:counter', undefined);
    expect(seen.handle!.use.label).toBe('b');
    await app.stop();
  });

  it('matches a preference that names an item of the provider (<instance id>/<item>)', async () => {
    const { app } = quietApp({ preferences: { global: { 'test:counter': 'local/some-model' } } });
    const { plugin, seen } = probeConsumer();
    app.plugin(counterProvider('a', { priority: 10 }).plugin);
    app.plugin(counterProvider('b').plugin, undefined, { id: 'local' });
    app.plugin(plugin);
    await app.start();
    expect(seen.handle!.use.label).toBe('b');
    await app.stop();
  });

  it('falls back when the preferred provider is absent', async () => {
    const { app } = quietApp({ preferences: { global: { 'test:counter': 'missing' } } });
    const { plugin, seen } = probeConsumer();
    app.plugin(counterProvider('a').plugin);
    app.plugin(plugin);
    await app.start();
    expect(seen.handle!.use.label).toBe('a');
    await app.stop();
  });

  it('reports each switch with an event', async () => {
    const { app } = quietApp();
    const switches: unknown[] = [];
    app.events.on('service:switch', (report) => {
      if (report.consumer === '@test/prober') switches.push(report);
    });
    const { plugin } = probeConsumer();
    app.plugin(counterProvider('a').plugin);
    app.plugin(counterProvider('b').plugin);
    app.plugin(plugin);
    await app.start();
    app.services.setGlobalPreference('test:counter', '@test/counter-b');
    expect(switches).toEqual([
      { service: 'test:counter', consumer: '@test/prober', from: '@test/counter-a', to: '@test/counter-b' },
    ]);
    await app.stop();
  });
});

describe('optional services and registrars', () => {
  it('gives an absent optional service a handle that says so without throwing at injection', async () => {
    const { app } = quietApp();
    let handle: ServiceHandle<Counter> | undefined;
    app.plugin(
      definePlugin({
        name: '@test/optional',
        uses: { counter: optional(counter) },
        apply({ counter }) {
          handle = counter;
        },
      }),
    );
    await app.start();
    expect(app.stateOf('@test/optional').state).toBe('active');
    expect(handle!.available).toBe(false);
    let thrown: unknown;
    try {
      handle!.use.increment();
    } catch (error) {
      thrown = error;
    }
    expect(AalisError.hasCode(thrown, 'AALIS_SERVICE_UNAVAILABLE')).toBe(true);
    await app.stop();
  });

  it('defers a registrar call until a provider appears, moves it on a switch, and undoes it on deactivation', async () => {
    const { app } = quietApp();
    const heard: number[] = [];
    app.plugin(
      definePlugin({
        name: '@test/listener',
        uses: { counter: optional(counter) },
        apply({ counter }) {
          counter.use.listen((value) => heard.push(value));
        },
      }),
    );
    await app.start();
    const a = counterProvider('a');
    app.plugin(a.plugin);
    await app.settled();
    expect(a.probe.listeners.get('@test/listener')).toBe(1);
    app.services.setGlobalPreference('test:counter', '@test/counter-b');
    const b = counterProvider('b');
    app.plugin(b.plugin);
    await app.settled();
    expect(a.probe.detached).toBe(1);
    expect(b.probe.attached).toBe(1);
    await app.remove('@test/listener');
    expect(b.probe.detached).toBe(1);
    expect(a.probe.detached).toBe(1);
    await app.stop();
  });

  it('lets the caller withdraw a registration early, exactly once', async () => {
    const { app } = quietApp();
    const a = counterProvider('a');
    let withdraw: (() => void) | undefined;
    app.plugin(a.plugin);
    app.plugin(
      definePlugin({
        name: '@test/early',
        uses: { counter },
        apply({ counter }) {
          withdraw = counter.use.listen(() => {});
        },
      }),
    );
    await app.start();
    withdraw!();
    withdraw!();
    await app.stop();
    expect(a.probe.attached).toBe(1);
    expect(a.probe.detached).toBe(1);
  });
});

describe('ownership and disposal', () => {
  it('disposes everything a plugin registered, once each, in reverse order', async () => {
    const { app } = quietApp();
    const order: string[] = [];
    const extra = defineService<{ ping(): string }>('test:extra');
    app.plugin(
      definePlugin({
        name: '@test/owner',
        uses: { lifecycle, events, provide },
        apply({ lifecycle, events, provide }) {
          lifecycle.use.onDispose(() => {
            order.push('first');
          });
          events.use.on('plugin:state', () => {});
          provide.use.service(extra, { ping: () => 'pong' });
          lifecycle.use.onDispose(() => {
            order.push('second');
          });
        },
      }),
    );
    await app.start();
    expect(app.services.providers(extra)).toHaveLength(1);
    await app.stop();
    expect(order).toEqual(['second', 'first']);
    expect(app.services.providers(extra)).toHaveLength(0);
  });

  it('removes event listeners with the plugin', async () => {
    const { app } = quietApp();
    const heard = vi.fn();
    app.plugin(
      definePlugin({
        name: '@test/ears',
        uses: { events },
        apply({ events }) {
          events.use.on('preferences:changed', heard);
        },
      }),
    );
    await app.start();
    app.services.setGlobalPreference('x', 'y');
    await app.remove('@test/ears');
    app.services.setGlobalPreference('x', 'z');
    expect(heard).toHaveBeenCalledTimes(1);
    await app.stop();
  });
});

describe('stop()', () => {
  it('runs drain handlers before disposal, and disposes in reverse activation order', async () => {
    const { app } = quietApp();
    const order: string[] = [];
    const make = (name: string, uses: Record<string, typeof counter>) =>
      definePlugin({
        name,
        uses: { lifecycle, ...uses },
        apply({ lifecycle }) {
          lifecycle.use.onDrain(async () => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(`drain ${name}`);
          });
          lifecycle.use.onDispose(() => {
            order.push(`dispose ${name}`);
          });
        },
      });
    app.plugin(make('consumer', { counter }));
    app.plugin(counterProvider('a').plugin);
    app.plugin(make('independent', {}));
    await app.start();
    await app.stop();
    expect(order.slice(0, 2).sort()).toEqual(['drain consumer', 'drain independent']);
    // Activation order was: counter-a, independent (first pass), consumer (once counter-a was there).
    expect(order.slice(2)).toEqual(['dispose consumer', 'dispose independent']);
    expect(app.states().every((state) => state.state === 'stopped')).toBe(true);
  });

  it('gives up on a drain handler after the time limit and still disposes', async () => {
    const { app, sink } = quietApp({ drainTimeoutMs: 20 });
    const disposed = vi.fn();
    app.plugin(
      definePlugin({
        name: '@test/stuck',
        uses: { lifecycle },
        apply({ lifecycle }) {
          lifecycle.use.onDrain(() => new Promise(() => {}));
          lifecycle.use.onDispose(disposed);
        },
      }),
    );
    await app.start();
    await app.stop();
    expect(disposed).toHaveBeenCalledTimes(1);
    expect(sink.records.some((record) => record.message.includes('did not finish draining within 20 ms'))).toBe(true);
  });

  it('aborts the plugin signal on deactivation', async () => {
    const { app } = quietApp();
    let signal: AbortSignal | undefined;
    app.plugin(
      definePlugin({
        name: '@test/signal',
        uses: { lifecycle },
        apply({ lifecycle }) {
          signal = lifecycle.use.signal;
        },
      }),
    );
    await app.start();
    expect(signal!.aborted).toBe(false);
    await app.stop();
    expect(signal!.aborted).toBe(true);
  });
});
