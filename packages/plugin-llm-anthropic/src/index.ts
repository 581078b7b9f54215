// @aalis/plugin-llm-anthropic: provides the llm service over the Anthropic Messages API (Claude), models named
// `<instance id>/<model id>`. The key comes from the config's apiKey or the ANTHROPIC_API_KEY environment variable.
import { llm } from '@aalis/api-llm';
import { config, definePlugin, events, i18n, lifecycle, logger, provide } from '@aalis/core';
import { AnthropicProvider } from './anthropic-provider.js';
import './catalogue.js';
import { anthropicConfigSchema } from './config-schema.js';

export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';
export { buildMessagesRequest } from './build-messages-request.js';
export { type Breakpoints, placeBreakpoints } from './cache-breakpoints.js';
export { type AnthropicConfig, anthropicConfigSchema, DEFAULT_MODELS } from './config-schema.js';
export { MessagesStreamDecoder } from './messages-stream-decoder.js';

/** Whether the runtime should enable the provider: a section, or ANTHROPIC_API_KEY in the environment. */
export function anthropicConfigured(
  section: Record<string, unknown> | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return section !== undefined || Boolean(env.ANTHROPIC_API_KEY);
}

/** The secrets the provider will send: the configured key and the environment's. */
export function anthropicSecrets(
  section: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  return [section.apiKey, env.ANTHROPIC_API_KEY].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

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
