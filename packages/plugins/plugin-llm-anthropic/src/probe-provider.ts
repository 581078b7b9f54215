// A provider made only to test a key from the console (admin.providers.test): the section as it would be saved, with
// no retries and short waits (@aalis/http-transport's probe settings). The Messages API's models are the configured
// ones (none is listed); the test's short call is what checks the key. No usage events; closed after the test.
import { type ProbeProvider, type ProbeRequest, probeSettings } from '@aalis/http-transport';
import { AnthropicProvider } from './anthropic-provider.js';
import { anthropicConfigSchema } from './config-schema.js';

/** Throws AALIS_CONFIG_INVALID (or the transport's proxy / CA errors) when the section itself cannot work. */
export function openProbeProvider({ section, logger, i18n }: ProbeRequest): ProbeProvider {
  const config = probeSettings(anthropicConfigSchema, section, { plugin: 'anthropic', locale: i18n.locale });
  const provider = new AnthropicProvider({
    instanceId: 'anthropic',
    config,
    apiKey: config.apiKey || undefined,
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
