// startAalis: boots an App from aalis.config.yaml and the environment with the default plugin set, logging to a
// rotated file in <dataDir>/logs and to the console, and runs the terminal front end (interactive or line by line).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { llm, type ModelInfo, resolveModelFor } from '@aalis/api-llm';
import {
  type AnyPluginDefinition,
  App,
  type Locale,
  type LogSink,
  type PluginStateInfo,
  type PreferenceSnapshot,
} from '@aalis/core';
import { maskUrlCredentials, parseBaseUrl } from '@aalis/http-transport/base-url';
import { type CliExit, type CliPlatform, createCliPlatform, neutraliseControls, styleFor } from '@aalis/plugin-cli';
import type { SessionServerHandle } from '@aalis/plugin-session-server';
import type { PostgresLease } from '@aalis/postgres';
import { isPostgresUrl } from '@aalis/postgres/postgres-url';
import { bannerLines } from './banner.js';
import { systemTimeZone } from './basic-tools.js';
import { configError } from './config-problems.js';
import { type ConfigStore, FileConfigStore } from './config-store.js';
import type { DatabaseConfigStore } from './database-config-store.js';
import { CONFIG_FILE_NAME } from './default-config-file.js';
import { createHostPlugin } from './host-plugin.js';
import { installedPluginSlots } from './installed-plugins.js';
import { LiveConfiguration } from './live-configuration.js';
import { type LoadedConfig, loadConfig } from './load-config.js';
import { type FileLogSink, fileLogSink, lineLogSink } from './log-sinks.js';
import { PersistedPreferences } from './persisted-preferences.js';
import { createPluginInstaller } from './plugin-installer.js';
import { pluginSlots } from './plugin-set.js';
import type { PreferencePersistence } from './preference-persistence.js';
import { runtimeErrors } from './runtime-errors.js';
import './runtime-texts.js';

type Input = NodeJS.ReadableStream & { isTTY?: boolean };
type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export interface StartAalisOptions {
  /** Working directory: where aalis.config.yaml is looked for (default process.cwd()). */
  cwd?: string;
  /** The configuration file (default <cwd>/aalis.config.yaml). */
  configFile?: string;
  /** Environment overrides are read from here (default process.env). */
  env?: Record<string, string | undefined>;
  /**
   * `interactive` (aalis start), `lines` (aalis chat), `serve` (aalis serve: headless, runs until stopped), or
   * `none`: no terminal platform (embedding).
   */
  mode?: 'interactive' | 'lines' | 'serve' | 'none';
  /** Run the session server and WebUI (default: in `interactive` and `serve`). */
  webui?: boolean;
  /** The terminal session (`--session`). */
  session?: string;
  input?: Input;
  /** Replies and the interactive screen (default process.stdout). */
  output?: Output;
  /** Log lines and, in lines mode, the banner (default process.stderr). */
  errorOutput?: Output;
  /** Write the commented defaults when the file is missing (default true). */
  createConfigIfMissing?: boolean;
  /** Print the start banner (default true). */
  banner?: boolean;
  /** Plugins registered after the default set: a definition, or [definition, section, { id }]. */
  plugins?: readonly (AnyPluginDefinition | [AnyPluginDefinition, unknown?, { id?: string }?])[];
}

export interface RunningAalis {
  readonly app: App;
  readonly config: LoadedConfig;
  /** The model turns use by default now, if any. */
  readonly model: ModelInfo | undefined;
  /** The terminal session id (undefined in mode `none`). */
  readonly session: string | undefined;
  /** The session server, when it runs: its address and fresh one-time login links. */
  readonly webui: SessionServerHandle | undefined;
  /**
   * Resolves when the terminal front end finished (the user left, or the input ended and every turn settled); in
   * `serve` mode when stop() was called.
   */
  readonly finished: Promise<CliExit | undefined>;
  /** Drains (running turns stop cleanly) and disposes every plugin; safe to call more than once. */
  stop(): Promise<void>;
}

/** The version of @aalis/runtime. */
export function runtimeVersion(): string {
  // The package root is one level up from src/ and dist/, two from a start build's directory (dist/bundle/<build>).
  for (const up of ['../package.json', '../../../package.json']) {
    const file = new URL(up, import.meta.url);
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (manifest.name === '@aalis/runtime') return manifest.version;
  }
  throw new Error('the package.json of @aalis/runtime was not found beside its code');
}

/**
 * Boots Aalis. A configuration that cannot start throws AALIS_RUNTIME_CONFIG_INVALID (details.problems: each with
 * file line or environment variable, path, expected, received) before anything is created; required plugins that
 * do not start throw AALIS_RUNTIME_ESSENTIAL_INACTIVE after the app was stopped again.
 */
/**
 * The configured locale (`locale:`) of a start that failed after its configuration was read: the command words the
 * error in it, not in the environment's guess.
 */
export const startFailureLocales = new WeakMap<object, Locale>();

export async function startAalis(options: StartAalisOptions = {}): Promise<RunningAalis> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const mode = options.mode ?? 'interactive';
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const configFile = resolve(cwd, options.configFile ?? CONFIG_FILE_NAME);
  // The runtime's own plugins, then those installed into the deployment (aalis plugin add).
  const slots = [...(await pluginSlots()), ...installedPluginSlots(dirname(configFile))];

  const loaded = loadConfig({
    file: configFile,
    env,
    slots,
    createIfMissing: options.createConfigIfMissing,
    requireFile: options.configFile !== undefined,
    systemTimeZone,
  });
  if (!loaded.ok) throw configError(loaded.problems, loaded.locale);
  let config = loaded.config;
  const { host } = config;

  // Logging: the rotated file always; the console at its own level (through the chat screen once it runs).
  let fileSink: FileLogSink;
  try {
    fileSink = fileLogSink({
      dir: join(config.dataDir, 'logs'),
      level: host.logLevel,
      maxBytes: host.log.maxFileBytes,
      maxFiles: host.log.maxFiles,
      secrets: config.secrets,
    });
  } catch (error) {
    throw runtimeErrors.AALIS_RUNTIME_DATA_DIR_UNUSABLE(
      { dir: config.dataDir, reason: error instanceof Error ? error.message : String(error) },
      { cause: error },
    );
  }
  let cli: CliPlatform | undefined;
  let logsOnScreen = false;
  const errorStyle = styleFor(errorOutput, env);
  const sinks: LogSink[] = [fileSink];
  if (host.consoleLogLevel !== 'off') {
    sinks.push(
      lineLogSink({
        level: host.consoleLogLevel,
        secrets: config.secrets,
        write: (text, record) => {
          // Log fields can quote what a server or the model sent: only our own styling reaches the terminal.
          const line = neutraliseControls(text);
          if (logsOnScreen && cli) cli.print([styleFor(output, env).dim(line)]);
          else errorOutput.write(`${record.level === 'error' ? errorStyle.red(line) : errorStyle.dim(line)}\n`);
        },
      }),
    );
  }

  let preferences: PreferencePersistence;
  let initialPreferences: PreferenceSnapshot;
  const preferencesFile = join(config.dataDir, 'preferences.json');
  const filed = new PersistedPreferences(preferencesFile, config.preferences);
  const database = databaseOf(config);
  if (isPostgresUrl(database)) {
    // PostgreSQL: the deployment's preferences, read before the App is built (the file is imported once).
    const { SharedPreferences } = await import('./shared-preferences.js');
    let shared: Awaited<ReturnType<typeof SharedPreferences.open>>;
    try {
      shared = await SharedPreferences.open({
        url: database,
        baseline: config.preferences,
        file: { path: preferencesFile, preferences: filed },
      });
    } catch (error) {
      fileSink.close();
      if (typeof error === 'object' && error !== null) startFailureLocales.set(error, host.locale);
      throw error;
    }
    preferences = shared;
    initialPreferences = shared.initial;
  } else {
    preferences = filed;
    initialPreferences = filed.load();
  }
  // The console's configuration changes: in the file, or on PostgreSQL in the database every process shares (applied
  // over this host's file, so this start runs with them).
  let configStore: ConfigStore = new FileConfigStore(config.file, config.dataDir);
  let configLease: PostgresLease | undefined;
  let sharedConfig: DatabaseConfigStore | undefined;
  if (isPostgresUrl(database)) {
    try {
      const { openPostgres } = await import('@aalis/postgres');
      const { DatabaseConfigStore } = await import('./database-config-store.js');
      configLease = openPostgres(database);
      const shared = await DatabaseConfigStore.open(configLease.database, config.file);
      configStore = shared;
      sharedConfig = shared;
      const text = shared.readSync();
      if (text !== (existsSync(config.file) ? readFileSync(config.file, 'utf8') : text)) {
        const changed = loadConfig({ file: config.file, env, slots, text, createIfMissing: false, systemTimeZone });
        if (!changed.ok) throw configError(changed.problems, changed.locale);
        config = changed.config;
      }
    } catch (error) {
      await configLease?.release();
      await preferences.close?.();
      fileSink.close();
      if (typeof error === 'object' && error !== null) startFailureLocales.set(error, host.locale);
      throw error;
    }
  }
  const app = new App({
    logSinks: sinks,
    locale: host.locale,
    preferences: initialPreferences,
    drainTimeoutMs: host.drainTimeoutMs,
  });
  if (mode === 'interactive' || mode === 'lines') {
    cli = createCliPlatform({ mode, input, output, ...(options.session ? { session: options.session } : {}), env });
  }
  // The session server's package (Hono, ws) is imported only when it is going to run.
  const webui =
    (options.webui ?? (mode === 'interactive' || mode === 'serve')) &&
    config.plugins.some(({ slot }) => slot.alias === 'session-server')
      ? (await import('@aalis/plugin-session-server')).createSessionServerPlugin({
          logs: app.logs,
          secrets: config.secrets,
        })
      : undefined;
  // Only the enabled slots' definitions: a lazy slot's package is imported here or never.
  const definitions = await Promise.all(config.plugins.map(({ slot }) => slot.load?.()));
  const essential: string[] = [];
  let configuration: LiveConfiguration | undefined;
  const registered = new Map<string, { id: string; definition: AnyPluginDefinition }>();
  for (const [index, { slot, section }] of config.plugins.entries()) {
    let definition = definitions[index];
    if (slot.alias === 'host') {
      definition = createHostPlugin({
        app,
        preferences,
        configuration: () => configuration,
        installer: () => installer,
      });
    }
    if (slot.alias === 'cli') definition = cli?.plugin;
    if (slot.alias === 'session-server') definition = webui?.plugin;
    if (!definition) continue;
    const id = app.plugin(definition, section, slot.id ? { id: slot.id } : {});
    registered.set(slot.alias, { id, definition });
    // Headless, the session server is the only way in: `aalis serve` without it refuses to run.
    if (slot.essential || (mode === 'serve' && slot.alias === 'session-server')) essential.push(id);
  }
  // The console's configuration changes: checked like this start, applied live, written back to the file.
  configuration = new LiveConfiguration({
    app,
    store: configStore,
    env,
    slots,
    loaded: config,
    registered,
    systemTimeZone,
    secrets: config.secrets,
  });
  const live = configuration;
  // Plugins from the registry added and removed from the console, loaded and stopped live.
  const installer = createPluginInstaller({
    dir: dirname(configFile),
    // npm needs the process's own environment (PATH, HOME, its npm_config_*) whatever overrides the start was given.
    env: { ...process.env, ...env },
    locale: () => app.locale,
    slots: async () => [...(await pluginSlots()), ...installedPluginSlots(dirname(configFile))],
    setSlots: () => (slots) => live.setSlots(slots),
    log: app.log,
  });
  // Another process's change is applied here as it is made.
  const stopListening = sharedConfig ? await sharedConfig.onChanged(() => void live.reload()) : undefined;
  for (const entry of options.plugins ?? []) {
    if (Array.isArray(entry)) app.plugin(entry[0], entry[1], entry[2] ?? {});
    else app.plugin(entry as AnyPluginDefinition);
  }
  await app.start();
  await app.settled();

  let stopped: Promise<void> | undefined;
  let markStopped!: () => void;
  const served = new Promise<undefined>((resolve) => {
    markStopped = () => resolve(undefined);
  });
  const stop = () => {
    stopped ??= (async () => {
      markStopped();
      cli?.close();
      try {
        await app.stop();
        await preferences.close?.();
        stopListening?.();
        await configLease?.release();
      } finally {
        fileSink.close();
      }
    })();
    return stopped;
  };

  const inactive: PluginStateInfo[] = app.states().filter((state) => state.state !== 'active');
  const missingEssential = inactive.filter((state) => essential.includes(state.id));
  const model = currentModel(app);
  const session = cli?.sessionId();
  if (options.banner !== false) {
    const lines = bannerLines(
      {
        version: runtimeVersion(),
        model,
        dataDir: config.dataDir,
        session,
        configFile: config.file,
        created: config.created,
        inactive,
        interactive: mode === 'interactive',
        endpoint: endpointOf(config),
        endpointPlugin: config.plugins.find((plugin) => plugin.slot.alias === 'llm-openai')?.slot.id,
        webuiLink: webui?.loginLink(),
        linkTtlMinutes: linkTtlOf(config),
      },
      host.locale,
    );
    const target = mode === 'interactive' || mode === 'serve' ? output : errorOutput;
    const style = styleFor(target, env);
    // The banner quotes the model server (the model ids it lists): only our own styling reaches the terminal.
    for (const { tone, text } of lines) {
      const safe = neutraliseControls(text);
      target.write(`${tone === 'warn' ? style.yellow(safe) : style.dim(safe)}\n`);
    }
  }
  if (missingEssential.length > 0) {
    await stop();
    const error = runtimeErrors.AALIS_RUNTIME_ESSENTIAL_INACTIVE({
      plugins: missingEssential.map((state) => state.id).join(', '),
    });
    startFailureLocales.set(error, host.locale);
    throw error;
  }

  const finished = cli ? cli.run() : mode === 'serve' ? served : Promise.resolve(undefined);
  logsOnScreen = mode === 'interactive';
  return { app, config, model, session, webui: webui?.url() ? webui : undefined, finished, stop };
}

function linkTtlOf(config: LoadedConfig): number {
  const section = config.plugins.find((plugin) => plugin.slot.alias === 'session-server')?.section;
  return typeof section?.linkTtlMinutes === 'number' ? section.linkTtlMinutes : 15;
}

/** The storage plugin's `database` (`database:`/AALIS_DATABASE_URL filled in, or its own section's key). */
function databaseOf(config: LoadedConfig): string {
  const section = config.plugins.find((plugin) => plugin.slot.alias === 'storage')?.section;
  return typeof section?.database === 'string' ? section.database.trim() : config.host.database.trim();
}

function endpointOf(config: LoadedConfig): string | undefined {
  const openai = config.plugins.find((plugin) => plugin.slot.alias === 'llm-openai');
  if (typeof openai?.section.baseUrl !== 'string') return undefined;
  // Shown without the credentials a URL may carry.
  const parsed = parseBaseUrl(openai.section.baseUrl);
  return parsed.ok ? parsed.endpoint.root : maskUrlCredentials(openai.section.baseUrl);
}

function currentModel(app: App): ModelInfo | undefined {
  if (app.services.providers(llm).length === 0) return undefined;
  return resolveModelFor({ services: app.services, consumer: '@aalis/plugin-agent' })?.model;
}
