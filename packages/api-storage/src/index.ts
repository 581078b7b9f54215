// @aalis/api-storage: the storage service contract: where the data directory is and its one SQLite database.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { SqliteDatabase } from '@aalis/sqlite';

export interface StorageService {
  /** Absolute path of the data directory (database, personas, logs). */
  readonly dataDir: string;
  /** The data directory's database (open for as long as the storage plugin is active). */
  database(): SqliteDatabase;
  /** An absolute path inside the data directory. */
  resolve(...segments: string[]): string;
}

export const storage: ServiceDescriptor<StorageService> = defineService<StorageService>('storage');
