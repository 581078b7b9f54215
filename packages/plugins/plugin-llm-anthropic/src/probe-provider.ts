// A provider made only to test a key from the console (admin.providers.test): the section as it would be saved, with
// no retries and short waits. The Messages API's models are the configured ones (none is listed); the test's short
// call is what checks the key. No usage events; closed after the test.
import type { LlmService } from '@aalis/api-llm';
import { coreErrors, type I18n, type Logger } from '@aalis/core';
import { AnthropicProvider } from './anthropic-provider.js';
import { anthropicConfigSchema } from './config-schema.js';

/** A test waits this long at most for each phase (connect, headers, silence). */
export const PROBE_TIMEOUTS = { connectMs: 5_000, headersMs: 15_000, idleMs: 15_000 } as const;

export interface ProbeProvider {
  service: LlmService;
  /** The model ids the section offers. */
  listModels(): Promise<string[]>;
  close(): void;
}

/** Throws AALIS_CONFIG_INVALID (or the transport's proxy / CA errors) when the section itself cannot work. */
export function openProbeProvider({
  section,
  logger,
  i18n,
}: {
  section: Record<string, unknown>;
  logger: Logger;
  i18n: I18n;
}): ProbeProvider {
  const { value, issues } = anthropicConfigSchema.validate(
    { ...section, retry: { maxRetries: 0 }, timeouts: PROBE_TIMEOUTS },
    i18n.locale,
  );
  const first = issues[0];
  if (first) {
    throw coreErrors.AALIS_CONFIG_INVALID({
      plugin: 'anthropic',
      field: first.path || '(section)',
      expected: first.expected,
      received: first.received,
    });
  }
  const provider = new AnthropicProvider({
    instanceId: 'anthropic',
    config: value,
    apiKey: value.apiKey || undefined,
    events: { emit() {} },
    logger,
    i18n,
  });
  return {
    service: provider,
    listModels: async () => provider.models().map((model) => model.model),
    close: () => provider.destroy(),
  };
}
