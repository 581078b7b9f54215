// @aalis/plugin-authority: the authority service: owners by platform account (config), levels persisted in the
// storage engine (SQLite or PostgreSQL).
import { authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { storage } from '@aalis/api-storage';
import { config, definePlugin, events, optional, provide, s } from '@aalis/core';
import { Authority } from './authority.js';
import { authorityCommands } from './authority-commands.js';
import { levelsBackendOf } from './levels-backends.js';

export { AUTHORITY_MIGRATIONS, Authority } from './authority.js';
export { authorityCommands } from './authority-commands.js';
export { type LevelsBackend, postgresLevels, sqliteLevels } from './levels-backends.js';

export const authorityConfig = s.object({
  owners: s
    .array(
      s.object({
        platform: s.string().nonEmpty().describe('Platform id, e.g. "webui" or an adapter instance id.'),
        userId: s.string().nonEmpty().describe('The account id on that platform.'),
      }),
    )
    .default([])
    .describe('Owner accounts: above every level. One person may list several accounts (one per platform).'),
});

export default definePlugin({
  name: '@aalis/plugin-authority',
  provides: [authority],
  uses: { config, events, provide, storage, commands: optional(commands) },
  config: authorityConfig,
  async apply({ config, events, provide, storage, commands }) {
    const service = new Authority({
      levels: await levelsBackendOf(storage.use),
      owners: config.use.owners,
      events: events.use,
    });
    provide.use.service(authority, service);
    // Registrar: attached when a commands provider appears, undone when this plugin deactivates.
    for (const definition of authorityCommands(service)) commands.use.register(definition);
  },
});
