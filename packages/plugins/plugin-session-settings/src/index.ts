// @aalis/plugin-session-settings: SQLite-backed layered session settings and the /session commands.
import { authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { sessionManager } from '@aalis/api-session-manager';
import { type SettingsScope, sessionFields } from '@aalis/api-session-settings';
import { storage } from '@aalis/api-storage';
import { config, definePlugin, events, logger, optional, provide, s } from '@aalis/core';
import { sessionCommands } from './session-commands.js';
import { SessionSettings } from './session-settings.js';
import { settingsBackendOf } from './settings-backends.js';
import { SettingsStore } from './settings-store.js';
import './texts.js';

export { sessionCommands } from './session-commands.js';
export { SessionSettings, type SessionSettingsOptions } from './session-settings.js';
export { SETTINGS_MIGRATIONS, SettingsStore } from './settings-store.js';

export const sessionSettingsConfig = s.object({
  platformTypes: s
    .record(s.string().nonEmpty())
    .default({})
    .describe(
      'Platform id → platform type (e.g. { "qq-main": "onebot", "qq-alt": "onebot" }): the platform-type layer a platform reads. Unmapped platforms skip that layer.',
    ),
});

export default definePlugin({
  name: '@aalis/plugin-session-settings',
  provides: [sessionFields],
  uses: {
    config,
    events,
    logger,
    provide,
    storage,
    authority: optional(authority),
    commands: optional(commands),
    sessionManager: optional(sessionManager),
  },
  config: sessionSettingsConfig,
  async apply({ config, events, logger, provide, storage, authority, commands, sessionManager }) {
    const store = new SettingsStore(await settingsBackendOf(storage.use));
    const settings = new SessionSettings({
      store,
      platformTypes: config.use.platformTypes,
      authority: () => (authority.available ? authority.use : undefined),
      async completeScope(scope) {
        if (!sessionManager.available) return scope;
        const info = await sessionManager.use.get(scope.sessionId);
        if (!info) return scope;
        const platform = info.originPlatform ?? info.platform;
        const complete: SettingsScope = { ...scope, platform };
        if (scope.venue === undefined && info.venue !== undefined && platform === info.platform)
          complete.venue = info.venue;
        return complete;
      },
      events: events.use,
      logger: logger.use,
    });
    provide.use.service(sessionFields, settings);
    // A deleted session's own layer goes with it: a later session with the same id (a CLI session name, an IM
    // room) starts from the shared layers, not from what the deleted one had set.
    events.use.on('session:deleted', async ({ sessionId }) => {
      await store.removeTarget('session', sessionId);
    });
    // Registrar: deferred until a commands provider appears, undone when this plugin deactivates.
    for (const definition of sessionCommands(settings)) commands.use.register(definition);
  },
});
