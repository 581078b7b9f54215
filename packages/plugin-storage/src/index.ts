// @aalis/plugin-storage: provides the storage service for one data directory (default ./data).

import { join, resolve } from 'node:path';
import { storage } from '@aalis/api-storage';
import { config, definePlugin, lifecycle, provide, s } from '@aalis/core';
import { openDatabase } from '@aalis/sqlite';

export const storageConfig = s.object({
  dataDir: s.string().nonEmpty().default('./data').describe('Data directory: the SQLite database, personas and logs.'),
});

export default definePlugin({
  name: '@aalis/plugin-storage',
  provides: [storage],
  uses: { config, provide, lifecycle },
  config: storageConfig,
  apply({ config, provide, lifecycle }) {
    const dataDir = resolve(config.use.dataDir);
    const lease = openDatabase(dataDir);
    lifecycle.use.onDispose(() => lease.release());
    provide.use.service(storage, {
      dataDir,
      database: () => lease.database,
      resolve: (...segments) => join(dataDir, ...segments),
    });
  },
});
