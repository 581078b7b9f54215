// @aalis/plugin-llm-offline: a deterministic model that needs no network, labelled "offline" wherever its name
// shows. It lets a fresh install run the agent and its tool loop (see README.md for its rules).
import { llm } from '@aalis/api-llm';
import { config, definePlugin, events, type Infer, i18n, logger, provide, s } from '@aalis/core';
import './catalogue.js';
import { OfflineProvider } from './offline-provider.js';

export { OFFLINE_MODEL_ID, OfflineProvider, type OfflineProviderOptions } from './offline-provider.js';
export { type OfflineReply, planOfflineReply } from './offline-reply.js';

export const offlineConfigSchema = s.object({
  priority: s
    .number()
    .default(-100)
    .describe('Selection priority among llm providers; low, so that any real provider is preferred.'),
  chunkSize: s.number().integer().min(1).default(8).describe('Characters per streamed piece.'),
  chunkDelayMs: s.number().min(0).default(0).describe('Pause between streamed pieces, for demos.'),
});

export type OfflineConfig = Infer<typeof offlineConfigSchema>;

export default definePlugin({
  name: '@aalis/plugin-llm-offline',
  provides: [llm],
  uses: { config, logger, events, provide, i18n },
  config: offlineConfigSchema,
  apply({ config, logger, events, provide, i18n }) {
    // A plugin's logger is named after its instance id: model ids are `<instance id>/<model id>`.
    const provider = new OfflineProvider({
      instanceId: logger.use.name,
      events: events.use,
      i18n: i18n.use,
      chunkSize: config.use.chunkSize,
      chunkDelayMs: config.use.chunkDelayMs,
    });
    provide.use.service(llm, provider, { priority: config.use.priority });
  },
});
