// The description cache on SQLite (the data directory's database).
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import {
  type DescriptionStore,
  descriptionMigrations,
  MEDIA_NAMESPACE,
  type StoredDescription,
} from './description-store.js';

const MIGRATIONS: readonly Migration[] = descriptionMigrations('INTEGER');

export function sqliteDescriptionStore(database: SqliteDatabase): DescriptionStore {
  database.migrate(MEDIA_NAMESPACE, MIGRATIONS);
  return {
    async get(key) {
      const row = database
        .statement('SELECT key, description, model, created_at AS createdAt FROM media_descriptions WHERE key = ?')
        .get(key) as StoredDescription | undefined;
      return row ? { ...row, createdAt: Number(row.createdAt) } : undefined;
    },
    async put(entry) {
      database.write((connection) =>
        connection
          .prepare(
            `INSERT INTO media_descriptions (key, description, model, created_at) VALUES (?, ?, ?, ?)
             ON CONFLICT(key) DO UPDATE SET description = excluded.description, model = excluded.model, created_at = excluded.created_at`,
          )
          .run(entry.key, entry.description, entry.model, entry.createdAt),
      );
    },
  };
}
