// The admin area's plugin list: every plugin the host knows — running or not — with its state, what it is for (in
// the connection's locale), whether it has a settings form and whether it can be turned off.
import { pluginInstaller } from '@aalis/api-host-config';
import type { PluginStateInfo } from '@aalis/core';
import type { PluginView } from '@aalis/session-client';
import type { ServerDeps } from './server-deps.js';

export function consolePluginViews(deps: ServerDeps, states: readonly PluginStateInfo[]): PluginView[] {
  const running = new Map(states.map((state) => [state.id, state]));
  const views: PluginView[] = [];
  // Plugins installed from the registry can be removed from the page (admin.plugins.remove).
  const removable = new Set(
    deps.services
      .selected(pluginInstaller)
      ?.impl.installed()
      .map((plugin) => plugin.name),
  );
  if (deps.hostConfig.available) {
    for (const plugin of deps.hostConfig.use.plugins(deps.locale)) {
      const state = running.get(plugin.id);
      running.delete(plugin.id);
      views.push({
        ...(state
          ? stateView(deps, state)
          : // Not registered: off (plugins.<alias>: false), or on but waiting for its section (a platform's token).
            { id: plugin.id, name: plugin.name, state: plugin.enabled ? 'unconfigured' : 'disabled', missing: [] }),
        description: plugin.description,
        configurable: plugin.configurable,
        enabled: plugin.enabled,
        canDisable: plugin.canDisable,
        ...(removable.has(plugin.name) ? { removable: true } : {}),
      });
    }
  }
  // Plugins registered by an embedding host beside the runtime's own.
  for (const state of running.values()) views.push(stateView(deps, state));
  return views;
}

/** A plugin's state as the console shows it (the list, and each change pushed to the owner's pages). */
export function stateView(deps: ServerDeps, state: PluginStateInfo): PluginView {
  return {
    id: state.id,
    name: state.name,
    state: state.state,
    missing: [...state.missing],
    ...(state.error ? { error: state.error.localized(deps.locale) } : {}),
  };
}
