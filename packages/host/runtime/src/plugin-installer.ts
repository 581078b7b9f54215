// The pluginInstaller service (the console's plugin page): `aalis plugin add|remove` (changePlugin, the same checks
// and byte-for-byte rollback) run from the running host, one at a time, its progress told to listeners as npm's
// phases. An added plugin is loaded at once (hot, as Koishi's market does): the known plugins are read again from the
// deployment and the live configuration starts the new one; a removed one is stopped. Only a new version of a
// package this process has already imported needs a restart (Node keeps a module once imported).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type InstalledPluginInfo,
  type PluginInstallerService,
  type PluginInstallOperation,
  pluginInstallErrors,
} from '@aalis/api-host-config';
import { AalisError, type Locale, type Logger, textRef, translate } from '@aalis/core';
import { findInstalled, installedPluginSlots, installedThirdParty } from './installed-plugins.js';
import { changePlugin, PLUGIN_LOCK, type PluginChangeOptions } from './plugin-command.js';
import type { PluginSlot } from './plugin-set.js';
import './plugin-installer-texts.js';

export interface PluginInstallerOptions {
  /** The deployment: the configuration file's directory. */
  dir: string;
  env: Record<string, string | undefined>;
  /** The host's locale (an operation started without one). */
  locale: () => Locale;
  /** Every plugin the host knows, read again after each change (the runtime's own, then those installed). */
  slots: () => Promise<readonly PluginSlot[]>;
  /** The live configuration that starts and stops plugins (undefined before the host started). */
  setSlots: () => ((slots: readonly PluginSlot[]) => Promise<unknown>) | undefined;
  log?: Logger;
  /** Bounds of each npm run (plugin-command's defaults otherwise). */
  timeoutMs?: number;
  maxOutputBytes?: number;
}

/** An npm registry name, optionally with @version / @range / @tag: what the console accepts besides tarballs. */
const REGISTRY_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9.^~<>=|*+ -]{1,100})?$/;
const TARBALL = /\.(?:tgz|tar\.gz)$/;

export interface PluginInstaller extends PluginInstallerService {
  /** The host stops: a running operation's npm is stopped and its changes rolled back; resolves when it has ended. */
  close(): Promise<void>;
}

export function createPluginInstaller(options: PluginInstallerOptions): PluginInstaller {
  const listeners = new Set<(operation: PluginInstallOperation) => void>();
  /** Versions of installed plugins imported by this process (by package name). */
  const imported = new Map<string, string | undefined>();
  for (const slot of installedPluginSlots(options.dir)) {
    imported.set(slot.name, findInstalled(options.dir, slot.name)?.manifest.version);
  }
  let current: PluginInstallOperation | undefined;
  let counter = 0;
  /** The running operation's end, and what stops it. */
  let running: { done: Promise<void>; stop: AbortController } | undefined;
  let closed = false;

  const deployment = (): PluginInstallerService['deployment'] => {
    const file = join(options.dir, 'package.json');
    const reason = (key: string) =>
      pluginInstallErrors.AALIS_PLUGIN_INSTALL_UNAVAILABLE({
        reason: translate(textRef(key, { dir: options.dir }), options.locale()),
      });
    if (!existsSync(file)) return { ok: false, error: reason('runtime.pluginInstaller.noDeployment') };
    try {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { workspaces?: unknown };
      // A checkout of the repository (npm workspaces): its dependencies are the source tree's, not a deployment's.
      if (manifest.workspaces !== undefined) return { ok: false, error: reason('runtime.pluginInstaller.checkout') };
    } catch {
      return { ok: false, error: reason('runtime.pluginInstaller.badManifest') };
    }
    return { ok: true, dir: options.dir };
  };

  const installed = (): InstalledPluginInfo[] => {
    return installedThirdParty(options.dir).map(({ installed, spec }) => ({
      name: installed.name,
      spec: shownSpec(spec),
      ...(installed.manifest.version ? { version: installed.manifest.version } : {}),
    }));
  };

  const emit = (operation: PluginInstallOperation) => {
    for (const listener of listeners) {
      try {
        listener(operation);
      } catch (error) {
        options.log?.warn('a plugin install listener failed', { error: String(error) });
      }
    }
  };

  const run = async (operation: PluginInstallOperation, target: string, locale: Locale, signal: AbortSignal) => {
    const change: PluginChangeOptions = {
      cwd: options.dir,
      env: options.env,
      locale,
      signal,
      onProgress: ({ phase, packages }) => {
        operation.phase = phase;
        if (packages > 0) operation.packages = packages;
        emit(operation);
      },
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
    };
    const fail = (error: AalisError, unchanged: boolean) => {
      operation.state = 'failed';
      operation.error = error;
      operation.unchanged = unchanged;
    };
    try {
      const result = await changePlugin(operation.action, target, change);
      if (!result.ok) {
        const reason = translate(result.message, locale);
        if (result.code === 'busy') {
          fail(pluginInstallErrors.AALIS_PLUGIN_INSTALL_BUSY({ target: operation.target }), true);
        } else if (result.rolledBack && result.rollbackOk === false) {
          const rollback = result.rollback ? translate(result.rollback, locale) : '';
          fail(pluginInstallErrors.AALIS_PLUGIN_INSTALL_ROLLBACK_FAILED({ reason, rollback }), false);
        } else {
          fail(
            pluginInstallErrors.AALIS_PLUGIN_INSTALL_FAILED({ reason }, { details: { failure: result.code } }),
            true,
          );
        }
        return;
      }
      operation.name = result.name;
      if (result.version) operation.version = result.version;
      // The change is made: load the new plugin (or stop the removed one) in this process.
      operation.phase = 'loading';
      emit(operation);
      const seen = imported.has(result.name);
      operation.restartNeeded =
        operation.action === 'add' && seen && imported.get(result.name) !== (result.version ?? undefined);
      const setSlots = signal.aborted ? undefined : options.setSlots();
      if (setSlots && !operation.restartNeeded) {
        try {
          await setSlots(await options.slots());
          operation.live = true;
          if (operation.action === 'add') imported.set(result.name, result.version);
        } catch (error) {
          // Installed and checked, but it does not start here with the configuration as it is: the next start
          // reports why; the page says so.
          operation.live = false;
          operation.restartNeeded = true;
          operation.error = error instanceof AalisError ? error : undefined;
          options.log?.warn('an installed plugin did not start live', {
            plugin: result.name,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      } else {
        operation.live = false;
        operation.restartNeeded = true;
      }
      operation.state = 'done';
    } catch (error) {
      options.log?.error('a plugin add or remove failed unexpectedly', { error: String(error) });
      fail(
        pluginInstallErrors.AALIS_PLUGIN_INSTALL_FAILED({
          reason: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
        }),
        false,
      );
    } finally {
      operation.phase = 'finished';
      operation.finishedAt = Date.now();
      emit(operation);
    }
  };

  return {
    get deployment() {
      return deployment();
    },
    installed,
    start(action, target, startOptions = {}) {
      const locale = startOptions.locale ?? options.locale();
      if (closed) {
        throw pluginInstallErrors.AALIS_PLUGIN_INSTALL_UNAVAILABLE({
          reason: translate(textRef('runtime.pluginInstaller.closing'), locale),
        });
      }
      if (current?.state === 'running' || existsSync(join(options.dir, PLUGIN_LOCK))) {
        throw pluginInstallErrors.AALIS_PLUGIN_INSTALL_BUSY({
          target: current?.state === 'running' ? current.target : 'aalis plugin',
        });
      }
      const where = deployment();
      if (!where.ok) throw where.error;
      const wanted = target.trim();
      if (action === 'add' && !isInstallable(wanted)) {
        throw pluginInstallErrors.AALIS_PLUGIN_INSTALL_BAD_SPEC({ target: shownSpec(wanted).slice(0, 200) });
      }
      if (action === 'remove' && !installed().some((plugin) => plugin.name === wanted)) {
        throw pluginInstallErrors.AALIS_PLUGIN_REMOVE_NOT_INSTALLED({
          name: wanted.slice(0, 214),
          installed:
            installed()
              .map((plugin) => plugin.name)
              .join(', ') || '—',
        });
      }
      const operation: PluginInstallOperation = {
        id: `install-${Date.now().toString(36)}-${++counter}`,
        action,
        target: shownSpec(wanted),
        state: 'running',
        phase: 'resolving',
        packages: 0,
        startedAt: Date.now(),
        ...(action === 'remove' ? { name: wanted } : {}),
      };
      current = operation;
      emit(operation);
      const stop = new AbortController();
      running = {
        stop,
        done: run(operation, wanted, locale, stop.signal).finally(() => {
          running = undefined;
        }),
      };
      return operation;
    },
    current: () => current,
    async close() {
      closed = true;
      running?.stop.abort();
      await running?.done;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * What the console may ask npm to install: a registry name (with a version, range or tag), an https:// tarball, or
 * a packed tarball on this machine. Never an option (a leading "-"), a git or directory spec, or control characters.
 */
export function isInstallable(spec: string): boolean {
  if (spec.length === 0 || spec.length > 1000 || spec.startsWith('-')) return false;
  for (const character of spec) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return false;
  }
  if (REGISTRY_SPEC.test(spec)) return true;
  if (/^https:\/\/[^\s]+$/.test(spec)) return URL.canParse(spec);
  const path = spec.startsWith('file:') ? spec.slice(5) : spec;
  return path.startsWith('/') && TARBALL.test(path) && !/\s/.test(path);
}

/** A spec as the page may show it: a URL without its credentials. */
export function shownSpec(spec: string): string {
  if (!/^https?:\/\//.test(spec)) return spec;
  try {
    const url = new URL(spec);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString();
  } catch {
    return spec.replace(/\/\/[^/@]*@/, '//');
  }
}
