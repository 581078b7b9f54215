// admin.platforms: every platform adapter's live connection state (reported through @aalis/api-platform's
// reportState), worded in the connection's locale, beside admin.mcp. An adapter plugin that is configured but not
// running (it failed to start, or waits for a service) is listed as stopped with its plugin's error, so a refused
// start shows as well as a refused token.
import { type PlatformStateEntry, platform } from '@aalis/api-platform';
import type { PlatformStateView } from '@aalis/session-client';
import type { Handler } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';

/** The adapter packages are named @aalis/plugin-platform-<x> (and plugins of others, …/plugin-platform-<x>). */
const ADAPTER_NAME = /(^|\/)plugin-platform-[a-z0-9-]+$/;

export const adminPlatforms: Handler<'admin.platforms'> = (deps) => {
  const registry = deps.services.selected(platform)?.impl;
  const reported = registry?.states?.() ?? [];
  const aliases = new Map<string, string>();
  if (deps.hostConfig.available) {
    for (const plugin of deps.hostConfig.use.plugins(deps.locale)) aliases.set(plugin.name, plugin.alias);
  }
  const views: PlatformStateView[] = reported.map((entry) => stateView(deps, entry, aliases.get(entry.plugin)));
  const shown = new Set(reported.map((entry) => entry.plugin));
  const plugins = deps.plugins.available ? deps.plugins.use.list() : [];
  for (const plugin of plugins) {
    if (!ADAPTER_NAME.test(plugin.name) || shown.has(plugin.name) || plugin.state === 'active') continue;
    const alias = aliases.get(plugin.name);
    views.push({
      id: alias?.replace(/^platform-/, '') ?? plugin.id,
      type: alias?.replace(/^platform-/, '') ?? plugin.id,
      plugin: plugin.name,
      ...(alias ? { alias } : {}),
      status: 'stopped',
      since: Date.now(),
      ...(plugin.error ? { error: { code: plugin.error.code, message: plugin.error.localized(deps.locale) } } : {}),
    });
  }
  return { platforms: views.sort((a, b) => a.id.localeCompare(b.id)) };
};

function stateView(deps: ServerDeps, entry: PlatformStateEntry, alias: string | undefined): PlatformStateView {
  return {
    id: entry.id,
    type: entry.type,
    plugin: entry.plugin,
    ...(alias ? { alias } : {}),
    status: entry.status,
    since: entry.since,
    ...(entry.nextAttemptAt !== undefined ? { nextAttemptAt: entry.nextAttemptAt } : {}),
    ...(entry.configKey ? { configKey: entry.configKey } : {}),
    ...(entry.error ? { error: { code: entry.error.code, message: deps.translate(entry.error.text) } } : {}),
    ...(entry.endpoint ? { endpoint: entry.endpoint } : {}),
  };
}
