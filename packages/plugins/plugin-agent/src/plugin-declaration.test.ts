// plugin-agent.zh.md 「插件声明」 and 「配置」.

import { platform } from '@aalis/api-platform';
import { definePlugin, provide } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './agent-harness.case.js';
import agentPlugin, { agentConfigSchema } from './index.js';

describe('插件声明', () => {
  it('uses exactly the documented services, hooks and contributions required, the rest optional', () => {
    const uses = agentPlugin.uses as Record<string, { kind: string; name?: string; descriptor?: { name: string } }>;
    expect(Object.keys(uses)).toEqual([
      'logger',
      'config',
      'events',
      'hooks',
      'contributions',
      'lifecycle',
      'provide',
      'commands',
      'tools',
      'llm',
      'memory',
      'persona',
      'messageArchive',
      'sessionManager',
      'authority',
      'platform',
      'media',
      'storage',
      'gateway',
      'plugins',
      'sessionFields',
      'document',
      'services',
    ]);
    const required = Object.entries(uses)
      .filter(([, dependency]) => dependency.kind === 'service')
      .map(([key]) => key);
    expect(required).toEqual([
      'logger',
      'config',
      'events',
      'hooks',
      'contributions',
      'lifecycle',
      'provide',
      'services',
    ]);
  });

  it('stays pending without hooks or contributions', async () => {
    let harness: Harness | undefined;
    try {
      harness = await startHarness({ without: ['@aalis/plugin-contributions'] }).catch((error: Error) => {
        expect(error.message).toContain('"missing":["contributions"]');
        return undefined;
      });
      expect(harness).toBeUndefined();
    } finally {
      await harness?.close();
    }
  });
});

describe('配置', () => {
  it('has every documented field with its default', () => {
    expect(agentConfigSchema.validate({}).value).toMatchObject({
      systemPrompt: '',
      memoryTokenBudget: 4096,
      promptBuildTimeoutMs: 10_000,
      toolResultMaxRatio: 0.15,
      trimThresholdRatio: 1,
      historyLimit: 0,
    });
    const value = agentConfigSchema.validate({}).value as Record<string, unknown>;
    expect(value.think).toBeUndefined();
    expect(value.maxToolIterations).toBeUndefined();
  });

  it('refuses invalid values with the field named', () => {
    const { issues } = agentConfigSchema.validate({ toolResultMaxRatio: 2, maxToolIterations: 0 });
    expect(issues.map((issue) => issue.path)).toEqual(['toolResultMaxRatio', 'maxToolIterations']);
  });
});

describe('保存: her identity on the platform', () => {
  it('records SelfId from the platform service on the final reply', async () => {
    const harness = await startHarness({
      extra: [
        definePlugin({
          name: '@test/platform',
          provides: [platform],
          uses: { provide },
          apply({ provide }) {
            const info = {
              id: 'cli',
              type: 'local',
              selfId: 'aalis',
              capabilities: { streaming: true, quoting: false, rooms: false },
            };
            provide.use.service(platform, {
              register: () => () => {},
              get: (id) => (id === 'cli' ? info : undefined),
              list: () => [info],
              reportState: () => () => {},
              states: () => [],
            });
          },
        }),
      ],
    });
    try {
      harness.server.enqueue(textReply('hi'));
      await harness.say('hello');
      const reply = (await harness.history()).find((m) => m.role === 'assistant')!;
      expect(reply.metadata?.[WellKnownMetadataKeys.SelfId]).toBe('aalis');
    } finally {
      await harness.close();
    }
  });
});
