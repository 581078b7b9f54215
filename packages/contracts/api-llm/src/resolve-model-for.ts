// resolveModel fed from a plugin's `services` handle: the plugin's own and the global llm preference.
import type { Services } from '@aalis/core';
import { llm } from './llm-service.js';
import { type ResolvedModel, resolveModel } from './resolve-model.js';

/**
 * Resolves for the calling plugin (its `services.use`), or for `consumer` (a plugin instance id). Reads the
 * in-memory service registry only; no I/O.
 */
export function resolveModelFor({
  services,
  requested,
  consumer,
}: {
  services: Services;
  requested?: string;
  consumer?: string;
}): ResolvedModel | undefined {
  const effective = services.preference(llm.name, consumer);
  return resolveModel({
    providers: services.providers(llm),
    requested,
    pluginPreference: effective?.scope === 'plugin' ? effective.value : undefined,
    globalPreference: services.preferences().global[llm.name],
  });
}
