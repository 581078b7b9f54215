// hostConfig: the deployment's configuration as the console changes it — read a key, write it back (keeping the
// file's comments and key order, or in the database every process shares), applied live to the plugins it concerns.
import type { Locale, PluginStateInfo, SchemaDescription } from '@aalis/core';
import { defineService, type ServiceDescriptor } from '@aalis/core';

/** A key of the configuration as path segments: ['llm'], ['plugins', 'mcp'], ['plugins', 'agent', 'systemPrompt']. */
export type ConfigPath = readonly string[];

/** Where the console's changes are kept: aalis.config.yaml, or the PostgreSQL database shared by every process. */
export type ConfigSource = 'file' | 'database';

/**
 * What a secret (an API key, a token, a password) is shown as outside the host. Written back unchanged, it keeps the
 * stored value at its path.
 */
export const SECRET_MASK = '••••••••';

export interface ConfigRead {
  /** The value at the path as the deployment stores it (no defaults, no environment); undefined when absent. */
  value: unknown;
  /** Secrets inside `value` (paths relative to it, dotted; '' = the value itself). */
  secrets: string[];
  /** Changes with every write, by the console or by hand: pass it back to write(). */
  revision: string;
  source: ConfigSource;
}

/** One key a write changed, for the audit log (secret values are never given, only whether they changed). */
export interface ConfigChange {
  /** Dotted key: plugins.agent.systemPrompt */
  key: string;
  /** undefined = the key was absent. For a secret: SECRET_MASK when set, undefined when absent. */
  old: unknown;
  new: unknown;
  secret: boolean;
}

export interface ConfigWriteResult {
  revision: string;
  /** The leaf keys that changed (empty when the value was the same). */
  changes: ConfigChange[];
  /** The plugins the change was applied to (configured again, started or stopped), in their new states. */
  applied: PluginStateInfo[];
}

/** A plugin the host knows (running or not) as the console lists it. */
export interface ConsolePlugin {
  /** The instance id (the handle for every request). */
  id: string;
  /** Its key under `plugins:` in the file. */
  alias: string;
  /** The package name. */
  name: string;
  /** What it is for, one line, in the asked locale. */
  description: string;
  /** It has a settings schema (a form can be generated). */
  configurable: boolean;
  /** The on/off switch: false when `plugins.<alias>: false` turns it off. */
  enabled: boolean;
  /** It can be turned off from the console (not an essential plugin nor one the console itself runs on). */
  canDisable: boolean;
  /** Registered with the host now (an enabled plugin may still wait for its section, e.g. a platform's token). */
  running: boolean;
}

export interface HostConfigService {
  readonly source: ConfigSource;
  /** The value stored at `path`, unmasked (for the host's own code; mask `secrets` before it leaves the host). */
  read(path: ConfigPath): Promise<ConfigRead>;
  /**
   * Replaces the value at `path` (undefined removes the key) after checking the whole configuration with it, applies
   * it live to the plugins whose sections change (deactivated, activated again with the new section; a plugin turned
   * on is started, one turned off stopped) and then stores it. A string leaf equal to SECRET_MASK keeps the value
   * stored at that path. Throws (and changes nothing, the previous configuration still running):
   * AALIS_HOST_CONFIG_CHANGED when the stored revision is not `expectedRevision` (edited by hand or by another
   * console meanwhile); AALIS_HOST_CONFIG_INVALID with details.issues [{ path, expected, received }] worded in
   * `locale`; AALIS_HOST_CONFIG_PROTECTED for an essential plugin turned off; the plugin's own coded error when it
   * fails to start with the new values.
   */
  write(
    path: ConfigPath,
    value: unknown,
    expectedRevision: string,
    options?: { locale?: Locale },
  ): Promise<ConfigWriteResult>;
  /**
   * Turns a plugin on or off (`plugins.<alias>: false`), live; its section is kept while it is off and written back
   * when it is turned on. AALIS_HOST_CONFIG_PROTECTED for a plugin that cannot be turned off.
   */
  setEnabled(
    id: string,
    enabled: boolean,
    expectedRevision: string,
    options?: { locale?: Locale },
  ): Promise<ConfigWriteResult>;
  /** Every plugin the host knows, in registration order. */
  plugins(locale: Locale): ConsolePlugin[];
  /** A plugin's settings schema and the path of its section (['plugins', alias]); undefined for an unknown id. */
  pluginSchema(
    id: string,
    locale: Locale,
  ): { schema: SchemaDescription | undefined; path: ConfigPath; plugin: ConsolePlugin } | undefined;
}

export const hostConfig: ServiceDescriptor<HostConfigService> = defineService<HostConfigService>('hostConfig');
