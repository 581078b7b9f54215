// Opens a database URL once per process, shared by reference count (like @aalis/sqlite's openDatabase).
import { sharedByKey } from '@aalis/core';
import { PostgresDatabase } from './postgres-database.js';

export interface PostgresLease {
  database: PostgresDatabase;
  /** Gives the reference back; the last one closes the pool. */
  release(): Promise<void>;
}

const share = sharedByKey((url) => new PostgresDatabase(url));

export function openPostgres(url: string): PostgresLease {
  const lease = share(url);
  return {
    database: lease.resource,
    async release() {
      await lease.release()?.close();
    },
  };
}
