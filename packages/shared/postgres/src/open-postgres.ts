// Opens a database URL once per process, shared by reference count (like @aalis/sqlite's openDatabase).
import { PostgresDatabase } from './postgres-database.js';

interface Shared {
  database: PostgresDatabase;
  references: number;
}

const open = new Map<string, Shared>();

export interface PostgresLease {
  database: PostgresDatabase;
  /** Gives the reference back; the last one closes the pool. */
  release(): Promise<void>;
}

export function openPostgres(url: string): PostgresLease {
  let shared = open.get(url);
  if (!shared?.database.isOpen) {
    shared = { database: new PostgresDatabase(url), references: 0 };
    open.set(url, shared);
  }
  shared.references++;
  const current = shared;
  let released = false;
  return {
    database: current.database,
    async release() {
      if (released) return;
      released = true;
      current.references--;
      if (current.references === 0) {
        if (open.get(url) === current) open.delete(url);
        await current.database.close();
      }
    },
  };
}
