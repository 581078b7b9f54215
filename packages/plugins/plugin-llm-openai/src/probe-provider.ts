// A provider made only to test a connection from the console (admin.providers.test): the section as it would be
// saved, with no retries and short waits, so a test says within seconds what is wrong. It emits no usage events
// (a test is no conversation) and is closed after the test; the running provider is never touched.
import type { LlmService } from '@aalis/api-llm';
import { coreErrors, type I18n, type Logger } from '@aalis/core';
import { openAiConfigSchema } from './config-schema.js';
import { OpenAiProvider } from './openai-provider.js';

/** A test waits this long at most for each phase (connect, headers, silence). */
export const PROBE_TIMEOUTS = { connectMs: 5_000, headersMs: 15_000, idleMs: 15_000 } as const;

export interface ProbeProvider {
  service: LlmService;
  /** GET /models: the ids the server lists; rejects with the llm service's coded errors. */
  listModels(): Promise<string[]>;
  close(): void;
}

/**
 * Builds the probe from a section (baseUrl, apiKey, headers, proxy, caFile …). Throws AALIS_CONFIG_INVALID (or the
 * transport's proxy / CA errors) when the section itself cannot work.
 */
export function openProbeProvider({
  section,
  logger,
  i18n,
}: {
  section: Record<string, unknown>;
  logger: Logger;
  i18n: I18n;
}): ProbeProvider {
  const { value, issues } = openAiConfigSchema.validate(
    { ...section, fetchModels: false, retry: { maxRetries: 0 }, timeouts: PROBE_TIMEOUTS },
    i18n.locale,
  );
  const first = issues[0];
  if (first) {
    throw coreErrors.AALIS_CONFIG_INVALID({
      plugin: 'openai',
      field: first.path || '(section)',
      expected: first.expected,
      received: first.received,
    });
  }
  const provider = new OpenAiProvider({ instanceId: 'openai', config: value, events: { emit() {} }, logger, i18n });
  return {
    service: provider,
    listModels: async () => (await provider.refreshModels()).map((model) => model.model),
    close: () => provider.destroy(),
  };
}
