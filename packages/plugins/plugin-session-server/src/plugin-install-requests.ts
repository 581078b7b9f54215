// The console's plugins from the registry (docs/session-protocol.md 「Plugins from the registry」): admin.plugins.add
// and admin.plugins.remove start one operation through the host's pluginInstaller (the same code as `aalis plugin
// add|remove`) and answer at once; its phases and outcome go to every owner's sockets as `admin` frames (change
// `install`); admin.plugins.installed lists what is installed and the current operation. A finished add or remove is
// audited (plugins.add / plugins.remove).
import { type PluginInstallerService, type PluginInstallOperation, pluginInstaller } from '@aalis/api-host-config';
import type { Locale } from '@aalis/core';
import type {
  Account,
  PluginInstallFrame,
  PluginInstallRequests,
  PluginInstallView,
  ResultOf,
} from '@aalis/session-client';
import { recordAudit } from './audit.js';
import { requireString } from './params.js';
import type { Params, Routes } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';
import { serverErrors, toProtocolError } from './server-errors.js';

/** The installers whose progress already goes to the owners' sockets (one listener per installer). */
const relayed = new WeakSet<PluginInstallerService>();

function pluginsInstalled(deps: ServerDeps): ResultOf<'admin.plugins.installed'> {
  const installer = deps.services.selected(pluginInstaller)?.impl;
  if (!installer) {
    return {
      available: false,
      unavailable: toProtocolError(serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'pluginInstaller' }), deps.locale)
        .error,
      plugins: [],
    };
  }
  relay(deps, installer);
  const where = installer.deployment;
  const operation = installer.current();
  return {
    available: where.ok,
    ...(where.ok ? {} : { unavailable: toProtocolError(where.error, deps.locale).error }),
    plugins: installer.installed(),
    ...(operation ? { operation: installView(operation, deps.locale) } : {}),
  };
}

function pluginChange(
  deps: ServerDeps,
  account: Account,
  params: Params,
  type: 'admin.plugins.add' | 'admin.plugins.remove',
): { operation: PluginInstallView } {
  const installer = deps.services.selected(pluginInstaller)?.impl;
  if (!installer) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'pluginInstaller' });
  relay(deps, installer);
  const target =
    type === 'admin.plugins.add' ? requireString(type, params, 'spec', 1000) : requireString(type, params, 'name', 214);
  const operation = installer.start(type === 'admin.plugins.add' ? 'add' : 'remove', target, { locale: deps.locale });
  // Audited once it is done (who asked, what changed); a failed one changed nothing.
  const off = installer.onChange((changed) => {
    if (changed.id !== operation.id || changed.state === 'running') return;
    off();
    if (changed.state !== 'done') return;
    void recordAudit(deps, account, {
      action: operation.action === 'add' ? 'plugins.add' : 'plugins.remove',
      key: `plugins.${changed.name ?? target}`,
      ...(operation.action === 'add' ? { new: changed.version ?? target } : { old: target }),
    }).catch((error: unknown) => deps.log.warn('the audit record of a plugin change failed', { error: String(error) }));
  });
  return { operation: installView(operation, deps.locale) };
}

export const PLUGIN_INSTALL_ROUTES: Routes<keyof PluginInstallRequests> = {
  'admin.plugins.installed': pluginsInstalled,
  'admin.plugins.add': (deps, account, params, { type }) => pluginChange(deps, account, params, type),
  'admin.plugins.remove': (deps, account, params, { type }) => pluginChange(deps, account, params, type),
};

/** Sends every step of the installer's operations to the owners' sockets, each in its connection's locale. */
function relay(deps: ServerDeps, installer: PluginInstallerService): void {
  if (relayed.has(installer)) return;
  relayed.add(installer);
  installer.onChange((operation) => {
    for (const peer of deps.peers) {
      if (!peer.account.owner) continue;
      const frame: PluginInstallFrame = {
        type: 'admin',
        change: 'install',
        operation: installView(operation, peer.locale ?? deps.locale),
      };
      peer.send(frame);
    }
  });
}

export function installView(operation: PluginInstallOperation, locale: Locale): PluginInstallView {
  return {
    id: operation.id,
    action: operation.action,
    target: operation.target,
    state: operation.state,
    phase: operation.phase,
    packages: operation.packages,
    startedAt: operation.startedAt,
    ...(operation.name ? { name: operation.name } : {}),
    ...(operation.version ? { version: operation.version } : {}),
    ...(operation.finishedAt ? { finishedAt: operation.finishedAt } : {}),
    ...(operation.live !== undefined ? { live: operation.live } : {}),
    ...(operation.restartNeeded !== undefined ? { restartNeeded: operation.restartNeeded } : {}),
    ...(operation.error ? { error: toProtocolError(operation.error, locale).error } : {}),
    ...(operation.unchanged !== undefined ? { unchanged: operation.unchanged } : {}),
  };
}
