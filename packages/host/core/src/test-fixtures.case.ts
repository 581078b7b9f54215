// Shared fixtures for core's own tests: a counter service and plugins that provide or use it.
import { config, lifecycle, provide } from './builtins.js';
import { defineService, optional } from './descriptor.js';
import { definePlugin } from './plugin.js';
import { s } from './schema.js';

export interface Counter {
  label: string;
  increment(): number;
  /** Registrar: records a listener; returns a disposer. */
  listen(listener: (value: number) => void): () => void;
}

export const counter = defineService<Counter>('test:counter', { registrars: ['listen'] });

export interface CounterProbe {
  listeners: Map<string, number>;
  attached: number;
  detached: number;
}

export function counterProvider(label: string, options: { priority?: number; probe?: CounterProbe } = {}) {
  const probe = options.probe ?? { listeners: new Map(), attached: 0, detached: 0 };
  let value = 0;
  return {
    probe,
    plugin: definePlugin({
      name: `@test/counter-${label}`,
      provides: [counter],
      uses: { provide },
      apply({ provide }) {
        const listeners = new Set<(value: number) => void>();
        provide.use.service(
          counter,
          {
            label,
            increment() {
              value++;
              for (const listener of listeners) listener(value);
              return value;
            },
            listen(listener: (value: number) => void, owner?: { instanceId: string }) {
              listeners.add(listener);
              probe.attached++;
              probe.listeners.set(owner?.instanceId ?? '', (probe.listeners.get(owner?.instanceId ?? '') ?? 0) + 1);
              return () => {
                listeners.delete(listener);
                probe.detached++;
              };
            },
          },
          { priority: options.priority ?? 0 },
        );
      },
    }),
  };
}

export const counterConsumer = definePlugin({
  name: '@test/consumer',
  uses: { counter, lifecycle, config },
  config: s.object({ greeting: s.string().default('hi'), times: s.number().integer().min(0).default(1) }),
  apply({ counter, lifecycle }) {
    lifecycle.use.onDispose(() => undefined);
    return void counter;
  },
});

export const optionalConsumer = definePlugin({
  name: '@test/optional-consumer',
  uses: { counter: optional(counter) },
  apply() {},
});
