// Test fixture (not shipped): boots the provider plugin against a scripted test server.
import { type LlmService, type LlmUsageEvent, llm } from '@aalis/api-llm';
import type { Locale } from '@aalis/core';
import { type BootedApp, bootApp, type OpenAiTestServer } from '@aalis/testing';
import plugin from './index.js';

export const API_KEY = 'sk-test-secret-4711';

export interface ProviderFixture extends BootedApp {
  provider: LlmService;
  model: string;
  usage: LlmUsageEvent[];
}

export async function bootProvider({
  server,
  id = 'hosted',
  config = {},
  locale,
}: {
  server: OpenAiTestServer;
  id?: string;
  config?: Record<string, unknown>;
  locale?: Locale;
}): Promise<ProviderFixture> {
  const booted = await bootApp({
    locale,
    plugins: [
      [
        plugin,
        {
          baseUrl: server.url,
          apiKey: API_KEY,
          fetchModels: false,
          models: [{ id: 'test-model' }],
          timeouts: { connectMs: 2_000, idleMs: 2_000 },
          retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 100 },
          // Direct, whatever proxy the machine running the tests sets (`proxy: undefined` reads the environment).
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
  return { ...booted, provider: entry.impl, model: `${id}/test-model`, usage };
}

export const userMessage = (content: string) => [{ role: 'user' as const, content }];

export const baseRequest = { sessionId: 's1', purpose: 'conversation' as const };
