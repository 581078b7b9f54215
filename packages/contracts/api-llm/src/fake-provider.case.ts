// Test helper (not shipped): a provider that offers the given models and answers nothing.
import type { ProviderInfo } from '@aalis/core';
import type { LlmService } from './llm-service.js';
import { type ModelInfo, modelRef } from './model-info.js';

export function fakeModel(provider: string, model: string): ModelInfo {
  return {
    id: modelRef({ provider, model }),
    provider,
    model,
    name: model,
    contextWindow: 1000,
    maxOutputTokens: 100,
    capabilities: { tools: true, vision: false },
    thinking: {
      levels: [
        { id: 'low', name: 'Low' },
        { id: 'high', name: 'High' },
      ],
      default: 'low',
    },
  };
}

export function fakeService(models: ModelInfo[]): LlmService {
  return {
    models: () => models,
    chatStream: () => {
      throw new Error('not used');
    },
    chat: () => Promise.reject(new Error('not used')),
  };
}

let order = 0;

export function fakeProvider(instanceId: string, modelIds: string[], priority = 0): ProviderInfo<LlmService> {
  return {
    service: 'llm',
    instanceId,
    pluginName: 'fake',
    priority,
    order: order++,
    impl: fakeService(modelIds.map((model) => fakeModel(instanceId, model))),
  };
}
