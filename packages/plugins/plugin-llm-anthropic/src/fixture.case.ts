// Test fixture (not shipped): boots the Anthropic provider against the emulating Messages API server.
import { type LlmService, type LlmUsageEvent, llm } from '@aalis/api-llm';
import { type AnthropicTestServer, type BootedApp, bootApp } from '@aalis/testing';
import plugin from './index.js';

export const API_KEY = 'sk-ant-test-secret-4711';

export interface AnthropicFixture extends BootedApp {
  provider: LlmService;
  model: string;
  usage: LlmUsageEvent[];
}

export async function bootAnthropic({
  server,
  id = 'anthropic',
  config = {},
}: {
  server: AnthropicTestServer;
  id?: string;
  config?: Record<string, unknown>;
}): Promise<AnthropicFixture> {
  const booted = await bootApp({
    plugins: [
      [
        plugin,
        {
          baseUrl: server.url,
          apiKey: API_KEY,
          models: [{ id: 'claude-test', contextWindow: 200_000, maxOutputTokens: 8_192 }],
          timeouts: { connectMs: 2_000, idleMs: 2_000 },
          retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 100 },
          proxy: '',
          ...config,
        },
        { id },
      ],
    ],
  });
  const usage = booted.capture('llm:usage');
  const entry = booted.app.services.providers(llm).find((candidate) => candidate.instanceId === id);
  if (!entry) throw new Error(`provider ${id} did not start: ${JSON.stringify(booted.app.states())}`);
  return { ...booted, provider: entry.impl, model: `${id}/claude-test`, usage };
}
