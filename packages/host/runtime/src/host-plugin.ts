// The runtime's own plugin: the platform registry (platform service), the plugin list for admin surfaces
// (plugins service), and persistence of service preferences changed at run time (preferences.json, or PostgreSQL
// shared by every process: other processes' changes are applied here too).
import {
  type HostConfigService,
  hostConfig,
  type PluginInstallerService,
  pluginInstaller,
} from '@aalis/api-host-config';
import { type PlatformInfo, type PlatformService, type PlatformStateSource, platform } from '@aalis/api-platform';
import { type PluginsService, pluginsService } from '@aalis/api-plugins';
import { type App, definePlugin, events, lifecycle, logger, provide, services } from '@aalis/core';
import type { PreferencePersistence } from './preference-persistence.js';

export const HOST_PLUGIN_NAME = '@aalis/runtime/host';

export function platformRegistry(): PlatformService {
  const entries = new Map<string, PlatformInfo>();
  const sources = new Map<string, PlatformStateSource>();
  return {
    register(info) {
      entries.set(info.id, info);
      return () => {
        if (entries.get(info.id) === info) entries.delete(info.id);
      };
    },
    get: (id) => entries.get(id),
    list: () => [...entries.values()],
    reportState(source) {
      sources.set(source.id, source);
      return () => {
        if (sources.get(source.id) === source) sources.delete(source.id);
      };
    },
    states: () =>
      [...sources.values()].map((source) => ({
        ...source.current(),
        id: source.id,
        type: source.type,
        plugin: source.plugin,
      })),
  };
}

export function createHostPlugin({
  app,
  preferences,
  configuration,
  installer,
}: {
  app: App;
  preferences?: PreferencePersistence;
  /** The console's configuration changes (live-configuration.ts), set before the App starts. */
  configuration?: () => HostConfigService | undefined;
  /** Plugins added from the registry while running (plugin-installer.ts), when the host runs from a deployment. */
  installer?: () => (PluginInstallerService & { close(): Promise<void> }) | undefined;
}) {
  return definePlugin({
    name: HOST_PLUGIN_NAME,
    provides: [
      platform,
      pluginsService,
      ...(configuration ? [hostConfig] : []),
      ...(installer ? [pluginInstaller] : []),
    ],
    uses: { provide, events, logger, services, lifecycle },
    apply({ provide, events, logger, services, lifecycle }) {
      provide.use.service(platform, platformRegistry());
      const plugins: PluginsService = {
        list: () => app.states(),
        configure: (id, config) => app.configure(id, config),
      };
      provide.use.service(pluginsService, plugins);
      const console = configuration?.();
      if (console) provide.use.service(hostConfig, console);
      const installs = installer?.();
      if (installs) {
        provide.use.service(pluginInstaller, installs);
        // A shutdown during an add or remove rolls it back before the host is gone, never half-finished.
        lifecycle.use.onDispose(() => installs.close());
      }
      if (preferences) {
        const detach = preferences.attach?.({ services: services.use, logger: logger.use });
        if (detach) lifecycle.use.onDispose(detach);
        events.use.on('preferences:changed', (snapshot) => {
          try {
            preferences.record(snapshot);
          } catch (error) {
            logger.use.error('could not persist the service preferences', { error: String(error) });
          }
        });
      }
    },
  });
}
