// The models of one Anthropic provider instance, each with its thinking levels (off, then one per budget), prices
// and timeouts (the instance's with the model's overrides).
import { type ModelInfo, type ModelPrices, modelRef } from '@aalis/api-llm';
import type { I18n } from '@aalis/core';
import type { Timeouts } from '@aalis/http-transport/config-schema';
import type { AnthropicConfig } from './config-schema.js';

export const THINKING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type ThinkingLevelId = (typeof THINKING_LEVELS)[number];

export interface AnthropicModelEntry {
  info: ModelInfo;
  prices?: ModelPrices;
  timeouts: Timeouts;
}

export function buildModelTable({
  instanceId,
  config,
  t,
}: {
  instanceId: string;
  config: AnthropicConfig;
  t: I18n['t'];
}): AnthropicModelEntry[] {
  return config.models.map((model) => {
    const thinking = model.thinking ?? true;
    const info: ModelInfo = {
      id: modelRef({ provider: instanceId, model: model.id }),
      provider: instanceId,
      model: model.id,
      name: model.name ?? model.id,
      contextWindow: model.contextWindow ?? 200_000,
      maxOutputTokens: model.maxOutputTokens ?? 32_000,
      capabilities: { tools: true, vision: model.vision ?? true },
      thinking: thinking
        ? {
            levels: THINKING_LEVELS.map((id) => ({ id, name: t({ key: `llm-anthropic.thinking.${id}` }) })),
            default: 'off',
          }
        : 'not-adjustable',
    };
    const entry: AnthropicModelEntry = { info, timeouts: { ...config.timeouts, ...model.timeouts } };
    if (model.prices) entry.prices = model.prices;
    return entry;
  });
}
