// @aalis/plugin-llm-openai: provides the llm service over an OpenAI-compatible Chat Completions endpoint.
// Several instances may run side by side (a hosted API and a local server), each with its own id and config.
import { llm } from '@aalis/api-llm';
import { config, definePlugin, events, i18n, lifecycle, logger, provide } from '@aalis/core';
import './catalogue.js';
import { openAiConfigSchema } from './config-schema.js';
import { OpenAiProvider } from './openai-provider.js';

export default definePlugin({
  name: '@aalis/plugin-llm-openai',
  provides: [llm],
  uses: { config, logger, events, lifecycle, provide, i18n },
  config: openAiConfigSchema,
  async apply({ config, logger, events, lifecycle, provide, i18n }) {
    const settings = config.use;
    // A plugin's logger is named after its instance id: model ids are `<instance id>/<model id>`.
    const instanceId = logger.use.name;
    const provider = new OpenAiProvider({
      instanceId,
      config: settings,
      events: events.use,
      logger: logger.use,
      i18n: i18n.use,
      shutdown: lifecycle.use.signal,
    });
    lifecycle.use.onDispose(() => provider.destroy());
    if (settings.fetchModels) {
      try {
        await provider.refreshModels();
      } catch (error) {
        logger.use.warn('could not list the server models; using the configured ones and trying again later', {
          baseUrl: provider.baseUrl,
          error: error instanceof Error ? error.message : String(error),
        });
        provider.retryModelDiscovery();
      }
    }
    provide.use.service(llm, provider, { priority: settings.priority });
    logger.use.debug('llm provider ready', { models: provider.models().map((model) => model.id) });
  },
});
