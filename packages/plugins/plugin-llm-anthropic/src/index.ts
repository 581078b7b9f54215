// @aalis/plugin-llm-anthropic: provides the llm service over the Anthropic Messages API (Claude), models named
// `<instance id>/<model id>`. The key comes from the config's apiKey or the ANTHROPIC_API_KEY environment variable.
import { llm } from '@aalis/api-llm';
import { config, definePlugin, events, i18n, lifecycle, logger, provide } from '@aalis/core';
import { AnthropicProvider } from './anthropic-provider.js';
import './catalogue.js';
import { anthropicConfigSchema } from './config-schema.js';

export default definePlugin({
  name: '@aalis/plugin-llm-anthropic',
  provides: [llm],
  uses: { config, logger, events, lifecycle, provide, i18n },
  config: anthropicConfigSchema,
  apply({ config, logger, events, lifecycle, provide, i18n }) {
    const settings = config.use;
    const apiKey = settings.apiKey || process.env.ANTHROPIC_API_KEY || undefined;
    if (!apiKey) logger.use.warn('no apiKey and no ANTHROPIC_API_KEY: the API will refuse every call');
    const provider = new AnthropicProvider({
      instanceId: logger.use.name,
      config: settings,
      apiKey,
      events: events.use,
      logger: logger.use,
      i18n: i18n.use,
      shutdown: lifecycle.use.signal,
    });
    lifecycle.use.onDispose(() => provider.destroy());
    provide.use.service(llm, provider, { priority: settings.priority });
    logger.use.debug('llm provider ready', { models: provider.models().map((model) => model.id) });
  },
});
