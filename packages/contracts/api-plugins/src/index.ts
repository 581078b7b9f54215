// @aalis/api-plugins: the plugin instances of the running host, for admin surfaces (WebUI, commands).
import { defineService, type PluginStateInfo, type ServiceDescriptor } from '@aalis/core';

export interface PluginsService {
  /** Every plugin instance with its state, missing services or error. */
  list(): PluginStateInfo[];
  /** Replaces an instance's config section and lets it activate again; resolves with its new state. */
  configure(id: string, config: unknown): Promise<PluginStateInfo>;
}

export const pluginsService: ServiceDescriptor<PluginsService> = defineService<PluginsService>('plugins');
