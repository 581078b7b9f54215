// Which model a call uses, across every provider of the llm service: the requested model (e.g. the session's
// setting) > the calling plugin's preference > the global preference > provider priority > registration order.
// Pure: it reads the data it is given and reports a fallback instead of logging it.
import type { ProviderInfo } from '@aalis/core';
import type { LlmService } from './llm-service.js';
import type { ModelInfo } from './model-info.js';

export type PreferenceScope = 'request' | 'plugin' | 'global';

/** A preferred model that was not available, and the model used instead. */
export interface ModelFallback {
  preference: string;
  scope: PreferenceScope;
  /** The model resolution landed on (`<provider instance id>/<model id>`). */
  actual: string;
}

export interface ResolvedModel {
  model: ModelInfo;
  provider: ProviderInfo<LlmService>;
  /** Set when a preference named a model (or provider) that is not available now. */
  fallback?: ModelFallback;
}

export interface ResolveModelOptions {
  providers: readonly ProviderInfo<LlmService>[];
  /** An explicitly chosen model, e.g. the session setting `llm`. */
  requested?: string;
  /** The calling plugin's own preference for the llm service. */
  pluginPreference?: string;
  globalPreference?: string;
}

/** Providers in selection order: higher priority first, then earlier registration. */
export function orderProviders(providers: readonly ProviderInfo<LlmService>[]): ProviderInfo<LlmService>[] {
  return [...providers].sort((a, b) => b.priority - a.priority || a.order - b.order);
}

/** Every model of every provider, in provider selection order. */
export function listModels({ providers }: { providers: readonly ProviderInfo<LlmService>[] }): ModelInfo[] {
  return orderProviders(providers).flatMap((provider) => [...provider.impl.models()]);
}

/** Finds a model by its id, or a provider's first model when the value names the provider instance itself. */
export function findModel({
  providers,
  value,
}: {
  providers: readonly ProviderInfo<LlmService>[];
  value: string;
}): { model: ModelInfo; provider: ProviderInfo<LlmService> } | undefined {
  const ordered = orderProviders(providers);
  for (const provider of ordered) {
    const model = provider.impl.models().find((candidate) => candidate.id === value);
    if (model) return { model, provider };
  }
  const named = ordered.find((provider) => provider.instanceId === value);
  const first = named?.impl.models()[0];
  return named && first ? { model: first, provider: named } : undefined;
}

export function resolveModel({
  providers,
  requested,
  pluginPreference,
  globalPreference,
}: ResolveModelOptions): ResolvedModel | undefined {
  const wanted: Array<{ value: string; scope: PreferenceScope }> = [];
  if (requested) wanted.push({ value: requested, scope: 'request' });
  if (pluginPreference) wanted.push({ value: pluginPreference, scope: 'plugin' });
  if (globalPreference) wanted.push({ value: globalPreference, scope: 'global' });
  let missed: { value: string; scope: PreferenceScope } | undefined;
  let found: { model: ModelInfo; provider: ProviderInfo<LlmService> } | undefined;
  for (const entry of wanted) {
    found = findModel({ providers, value: entry.value });
    if (found) break;
    missed ??= entry;
  }
  if (!found) {
    for (const provider of orderProviders(providers)) {
      const first = provider.impl.models()[0];
      if (first) {
        found = { model: first, provider };
        break;
      }
    }
  }
  if (!found) return undefined;
  const resolved: ResolvedModel = { model: found.model, provider: found.provider };
  if (missed) resolved.fallback = { preference: missed.value, scope: missed.scope, actual: found.model.id };
  return resolved;
}
