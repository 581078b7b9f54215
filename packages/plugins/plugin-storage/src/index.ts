// @aalis/plugin-storage: provides the storage service for one data directory (default ./data) and one database
// engine: the directory's SQLite database, or the PostgreSQL server `database` names (postgres://…).

import { join, resolve } from 'node:path';
import { type StorageService, storage, storageErrors } from '@aalis/api-storage';
import { config, definePlugin, lifecycle, logger, provide, s } from '@aalis/core';
import { isPostgresUrl, redactUrl } from '@aalis/postgres/postgres-url';
import { openDatabase } from '@aalis/sqlite';
import { HandOver } from './hand-over.js';
import { postgresHandOver, sqliteHandOver } from './hand-over-backends.js';
import { postgresLeases, sqliteLeases } from './lease-backends.js';
import { Leases } from './leases.js';

export { HandOver } from './hand-over.js';
export { Leases } from './leases.js';

export const storageConfig = s.object({
  dataDir: s.string().nonEmpty().default('./data').describe('Data directory: the SQLite database, personas and logs.'),
  database: s
    .string()
    .default('')
    .widget('password')
    .describe(
      'Where every store lives: empty = the SQLite database in the data directory; postgres://user:password@host:port/db = a PostgreSQL server shared by every process (see docs/scaling.md).',
    ),
  leaseTtlMs: s
    .number()
    .integer()
    .min(500)
    .default(4000)
    .describe(
      'How long a lease (a session being answered, a platform connection) outlives the last heartbeat of a process that died; another process takes it over then.',
    ),
});

export default definePlugin({
  name: '@aalis/plugin-storage',
  provides: [storage],
  uses: { config, provide, lifecycle, logger },
  config: storageConfig,
  async apply({ config, provide, lifecycle, logger }) {
    const onRenewFailed = (error: unknown) =>
      logger.use.warn('renewing the leases failed; they are lost if the database stays unreachable', {
        error: error instanceof Error ? error.message : String(error),
      });
    const dataDir = resolve(config.use.dataDir);
    const url = config.use.database.trim();
    const base = { dataDir, resolve: (...segments: string[]) => join(dataDir, ...segments) };
    if (url === '') {
      const lease = openDatabase(dataDir);
      const held = new Leases(sqliteLeases(lease.database), { ttlMs: config.use.leaseTtlMs, onRenewFailed });
      const handOver = new HandOver(sqliteHandOver(lease.database), { holder: held.holder });
      lifecycle.use.onDispose(async () => {
        handOver.close();
        await held.close();
        lease.release();
      });
      const service: StorageService = {
        ...base,
        engine: 'sqlite',
        leases: () => held,
        handOver: () => handOver,
        database: () => lease.database,
        postgres: () => {
          throw storageErrors.AALIS_STORAGE_WRONG_ENGINE({ wanted: 'postgres', engine: 'sqlite' });
        },
      };
      provide.use.service(storage, service);
      return;
    }
    if (!isPostgresUrl(url)) throw storageErrors.AALIS_STORAGE_DATABASE_INVALID({ received: redactUrl(url) });
    // The pg driver is loaded only for a PostgreSQL database: a SQLite start never reads it.
    const { openPostgres } = await import('@aalis/postgres');
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
    const held = new Leases(await postgresLeases(lease.database), { ttlMs: config.use.leaseTtlMs, onRenewFailed });
    const handOver = new HandOver(await postgresHandOver(lease.database), { holder: held.holder });
    await handOver.ready;
    lifecycle.use.onDispose(async () => {
      handOver.close();
      await held.close();
      await lease.release();
    });
    provide.use.service(storage, {
      ...base,
      engine: 'postgres',
      leases: () => held,
      handOver: () => handOver,
      database: () => {
        throw storageErrors.AALIS_STORAGE_WRONG_ENGINE({ wanted: 'sqlite', engine: 'postgres' });
      },
      postgres: () => lease.database,
    });
  },
});
