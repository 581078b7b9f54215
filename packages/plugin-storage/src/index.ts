// @aalis/plugin-storage: provides the storage service for one data directory (default ./data) and one database
// engine: the directory's SQLite database, or the PostgreSQL server `database` names (postgres://…).

import { join, resolve } from 'node:path';
import { type StorageService, storage, storageErrors } from '@aalis/api-storage';
import { config, definePlugin, lifecycle, provide, s } from '@aalis/core';
import { isPostgresUrl, openPostgres, redactUrl } from '@aalis/postgres';
import { openDatabase } from '@aalis/sqlite';

export const storageConfig = s.object({
  dataDir: s.string().nonEmpty().default('./data').describe('Data directory: the SQLite database, personas and logs.'),
  database: s
    .string()
    .default('')
    .widget('password')
    .describe(
      'Where every store lives: empty = the SQLite database in the data directory; postgres://user:password@host:port/db = a PostgreSQL server shared by every process (see docs/scaling.md).',
    ),
});

export default definePlugin({
  name: '@aalis/plugin-storage',
  provides: [storage],
  uses: { config, provide, lifecycle },
  config: storageConfig,
  async apply({ config, provide, lifecycle }) {
    const dataDir = resolve(config.use.dataDir);
    const url = config.use.database.trim();
    const base = { dataDir, resolve: (...segments: string[]) => join(dataDir, ...segments) };
    if (url === '') {
      const lease = openDatabase(dataDir);
      lifecycle.use.onDispose(() => lease.release());
      const service: StorageService = {
        ...base,
        engine: 'sqlite',
        database: () => lease.database,
        postgres: () => {
          throw storageErrors.AALIS_STORAGE_WRONG_ENGINE({ wanted: 'postgres', engine: 'sqlite' });
        },
      };
      provide.use.service(storage, service);
      return;
    }
    if (!isPostgresUrl(url)) throw storageErrors.AALIS_STORAGE_DATABASE_INVALID({ received: redactUrl(url) });
    const lease = openPostgres(url);
    try {
      await lease.database.query('SELECT 1');
    } catch (error) {
      await lease.release();
      throw storageErrors.AALIS_STORAGE_DATABASE_UNREACHABLE({
        url: redactUrl(url),
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    lifecycle.use.onDispose(() => lease.release());
    provide.use.service(storage, {
      ...base,
      engine: 'postgres',
      database: () => {
        throw storageErrors.AALIS_STORAGE_WRONG_ENGINE({ wanted: 'sqlite', engine: 'postgres' });
      },
      postgres: () => lease.database,
    });
  },
});
