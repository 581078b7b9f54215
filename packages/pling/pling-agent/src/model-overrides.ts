// Per-run model settings chosen at run time (a dock's model settings): which model, how random, how long a reply.
// Read at the start of every send(), so a changed setting is used by the next one; checked with the same rules as
// the configuration.
import { type ResolvedAgentConfig, validateAgentConfig } from './config.js';

export interface ModelOverrides {
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

/** Where a runtime reads the overrides of the next run (e.g. `() => modelSettings.overrides()`). */
export type ModelOverridesSource = () => ModelOverrides | undefined;

/** The config of one run: `overrides` field by field over `config`. Throws INVALID_CONFIG for a value out of range. */
export function applyModelOverrides(config: ResolvedAgentConfig, overrides: ModelOverrides | undefined) {
  if (!overrides) return config;
  const { model, temperature, maxTokens } = overrides;
  const applied: ResolvedAgentConfig = {
    ...config,
    ...(model !== undefined && model !== '' && { model }),
    ...(temperature !== undefined && { temperature }),
    ...(maxTokens !== undefined && { maxTokens }),
  };
  validateAgentConfig(applied);
  return applied;
}
