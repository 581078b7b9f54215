// The models of one provider instance: configured entries (with their overrides) first, then any other model the
// server lists, with the instance's defaults. Each carries how to talk to it (thinking field, prices …).
import { type ModelInfo, type ModelPrices, modelRef, type ThinkingLevels } from '@aalis/api-llm';
import { coreErrors } from '@aalis/core';
import type { Timeouts } from '@aalis/http-transport/config-schema';
import type { ThinkingParam } from '@aalis/wire-openai';
import type { OpenAiConfig, OpenAiModelConfig } from './config-schema.js';

export interface ModelEntry {
  info: ModelInfo;
  thinkingParam?: ThinkingParam;
  prices?: ModelPrices;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  sendReasoning: boolean;
  /** The instance's timeouts with this model's overrides. */
  timeouts: Timeouts;
}

export function buildModelTable({
  instanceId,
  config,
  serverModels = [],
}: {
  instanceId: string;
  config: OpenAiConfig;
  serverModels?: readonly string[];
}): ModelEntry[] {
  const entries = config.models.map((model, index) => entryOf({ instanceId, config, model, index }));
  const configured = new Set(config.models.map((model) => model.id));
  for (const id of serverModels) {
    if (!configured.has(id)) entries.push(entryOf({ instanceId, config, model: { id }, index: -1 }));
  }
  return entries;
}

function entryOf({
  instanceId,
  config,
  model,
  index,
}: {
  instanceId: string;
  config: OpenAiConfig;
  model: OpenAiModelConfig | { id: string };
  index: number;
}): ModelEntry {
  const overrides = model as Partial<OpenAiModelConfig>;
  const defaults = config.modelDefaults;
  const info: ModelInfo = {
    id: modelRef({ provider: instanceId, model: model.id }),
    provider: instanceId,
    model: model.id,
    name: overrides.name || model.id,
    contextWindow: overrides.contextWindow ?? defaults.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? defaults.maxOutputTokens,
    capabilities: {
      tools: overrides.capabilities?.tools ?? defaults.tools,
      vision: overrides.capabilities?.vision ?? defaults.vision,
    },
    thinking: thinkingOf({ instanceId, overrides, index }),
  };
  const entry: ModelEntry = {
    info,
    maxTokensField: overrides.maxTokensField ?? 'max_tokens',
    sendReasoning: overrides.sendReasoning ?? true,
    timeouts: {
      connectMs: overrides.timeouts?.connectMs ?? config.timeouts.connectMs,
      headersMs: overrides.timeouts?.headersMs ?? config.timeouts.headersMs,
      idleMs: overrides.timeouts?.idleMs ?? config.timeouts.idleMs,
    },
  };
  if (overrides.reasoningParam) {
    entry.thinkingParam = { field: overrides.reasoningParam.field, values: overrides.reasoningParam.values };
  }
  if (overrides.prices) entry.prices = overrides.prices;
  return entry;
}

function thinkingOf({
  instanceId,
  overrides,
  index,
}: {
  instanceId: string;
  overrides: Partial<OpenAiModelConfig>;
  index: number;
}): ThinkingLevels {
  const thinking = overrides.thinking;
  if (!thinking) return 'not-adjustable';
  if (!thinking.levels.some((level) => level.id === thinking.default)) {
    throw coreErrors.AALIS_CONFIG_INVALID({
      plugin: instanceId,
      field: `models.${index}.thinking.default`,
      expected: `one of the level ids (${thinking.levels.map((level) => level.id).join(', ')})`,
      received: JSON.stringify(thinking.default),
    });
  }
  return { levels: thinking.levels.map((level) => ({ ...level })), default: thinking.default };
}
