import { describe, expect, it } from 'vitest';
import { openAiConfigSchema } from './config-schema.js';
import { buildModelTable } from './model-table.js';

const config = (raw: Record<string, unknown>) => {
  const { value, issues } = openAiConfigSchema.validate({ baseUrl: 'http://x/v1', ...raw });
  expect(issues).toEqual([]);
  return value;
};

describe('buildModelTable', () => {
  it('lists configured models first, then the server models not configured, with the defaults', () => {
    const table = buildModelTable({
      instanceId: 'i',
      config: config({
        models: [{ id: 'b', prices: { promptPerMillion: 1, completionPerMillion: 2 } }],
        modelDefaults: { contextWindow: 1000 },
      }),
      serverModels: ['a', 'b', 'c'],
    });
    expect(table.map((entry) => entry.info.id)).toEqual(['i/b', 'i/a', 'i/c']);
    expect(table[0]!.prices).toEqual({ promptPerMillion: 1, completionPerMillion: 2 });
    expect(table[1]!.info.contextWindow).toBe(1000);
    expect(table[1]!.maxTokensField).toBe('max_tokens');
    expect(table[1]!.sendReasoning).toBe(true);
  });

  it('carries the thinking field settings', () => {
    const [entry] = buildModelTable({
      instanceId: 'i',
      config: config({
        models: [
          {
            id: 'q',
            thinking: { levels: [{ id: 'off', name: 'Off' }], default: 'off' },
            reasoningParam: { values: { off: 'none' } },
          },
        ],
      }),
    });
    expect(entry!.thinkingParam).toEqual({ field: 'reasoning_effort', values: { off: 'none' } });
  });
});
