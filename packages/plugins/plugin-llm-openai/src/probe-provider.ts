// A provider made only to test a connection from the console (admin.providers.test): the section as it would be
// saved, with no retries and short waits (@aalis/http-transport's probe settings), so a test says within seconds what
// is wrong. It emits no usage events and is closed after the test; the running provider is never touched.
import { type ProbeProvider, type ProbeRequest, probeSettings } from '@aalis/http-transport';
import { openAiConfigSchema } from './config-schema.js';
import { OpenAiProvider } from './openai-provider.js';

/**
 * Builds the probe from a section (baseUrl, apiKey, headers, proxy, caFile …); its models are what GET /models lists.
 * Throws AALIS_CONFIG_INVALID (or the transport's proxy / CA errors) when the section itself cannot work.
 */
export function openProbeProvider({ section, logger, i18n }: ProbeRequest): ProbeProvider {
  const config = probeSettings(openAiConfigSchema, section, {
    plugin: 'openai',
    locale: i18n.locale,
    extra: { fetchModels: false },
  });
  const provider = new OpenAiProvider({ instanceId: 'openai', config, events: { emit() {} }, logger, i18n });
  return {
    service: provider,
    listModels: async () => (await provider.refreshModels()).map((model) => model.model),
    close: () => provider.destroy(),
  };
}
