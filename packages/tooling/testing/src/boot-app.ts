// Boots an App with given plugins and config for a test, with every log record kept in memory.
import {
  type AnyPluginDefinition,
  App,
  type EventMap,
  type Locale,
  type LogRecord,
  type LogSink,
  memorySink,
  type PreferenceSnapshot,
} from '@aalis/core';

/** A plugin, or [plugin, its config section, { id }] for a configured or named instance. */
export type PluginEntry = AnyPluginDefinition | [AnyPluginDefinition, unknown?, { id?: string }?];

export interface BootedApp {
  app: App;
  /** The memory sink every log record (trace and above) goes to. */
  sink: LogSink & { records: LogRecord[] };
  /** Its records, in order (the same array as `sink.records`). */
  logs: LogRecord[];
  /** Records every payload of an app event from now on. */
  capture<K extends keyof EventMap & string>(name: K): EventMap[K][];
  stop(): Promise<void>;
}

export async function bootApp({
  plugins,
  preferences,
  locale,
  drainTimeoutMs = 1_000,
}: {
  plugins: readonly PluginEntry[];
  preferences?: Partial<PreferenceSnapshot>;
  locale?: Locale;
  drainTimeoutMs?: number;
}): Promise<BootedApp> {
  const sink = memorySink('trace');
  const app = new App({ logSinks: [sink], locale, preferences, drainTimeoutMs });
  for (const entry of plugins) {
    if (Array.isArray(entry)) {
      const [definition, config, options] = entry;
      app.plugin(definition, config, options ?? {});
    } else {
      app.plugin(entry as AnyPluginDefinition);
    }
  }
  await app.start();
  await app.settled();
  return {
    app,
    sink,
    logs: sink.records,
    capture(name) {
      const seen: EventMap[typeof name][] = [];
      app.events.on(name, (payload) => {
        seen.push(payload);
      });
      return seen;
    },
    stop: () => app.stop(),
  };
}
