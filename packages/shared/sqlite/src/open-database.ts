// Opens the data directory's database once per process, shared by reference count.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqliteDatabase } from './sqlite-database.js';

export const DATABASE_FILE = 'aalis.db';

interface Shared {
  database: SqliteDatabase;
  references: number;
}

const open = new Map<string, Shared>();

export interface DatabaseLease {
  database: SqliteDatabase;
  /** Gives the reference back; the last one closes the database. */
  release(): void;
}

/** Opens `<dataDir>/aalis.db` (creating the directory), or shares the connection already open for it. */
export function openDatabase(dataDir: string): DatabaseLease {
  const path = resolve(join(dataDir, DATABASE_FILE));
  let shared = open.get(path);
  if (!shared?.database.isOpen) {
    mkdirSync(resolve(dataDir), { recursive: true });
    shared = { database: new SqliteDatabase(path), references: 0 };
    open.set(path, shared);
  }
  shared.references++;
  const current = shared;
  let released = false;
  return {
    database: current.database,
    release() {
      if (released) return;
      released = true;
      current.references--;
      if (current.references === 0) {
        current.database.close();
        if (open.get(path) === current) open.delete(path);
      }
    },
  };
}
