// Opens the data directory's database once per process, shared by reference count.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sharedByKey } from '@aalis/core';
import { SqliteDatabase } from './sqlite-database.js';

export const DATABASE_FILE = 'aalis.db';

export interface DatabaseLease {
  database: SqliteDatabase;
  /** Gives the reference back; the last one closes the database. */
  release(): void;
}

// The directory is made when the file is first opened.
const share = sharedByKey((path) => {
  mkdirSync(dirname(path), { recursive: true });
  return new SqliteDatabase(path);
});

/** Opens `<dataDir>/aalis.db` (creating the directory), or shares the connection already open for it. */
export function openDatabase(dataDir: string): DatabaseLease {
  const lease = share(resolve(join(dataDir, DATABASE_FILE)));
  return { database: lease.resource, release: () => lease.release()?.close() };
}
