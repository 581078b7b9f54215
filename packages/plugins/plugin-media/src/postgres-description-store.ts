// The description cache on PostgreSQL (shared by every process of a deployment).
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { type DescriptionStore, descriptionMigrations, MEDIA_NAMESPACE } from './description-store.js';

const MIGRATIONS: readonly PostgresMigration[] = descriptionMigrations('BIGINT');

export async function postgresDescriptionStore(database: PostgresDatabase): Promise<DescriptionStore> {
  await database.migrate(MEDIA_NAMESPACE, MIGRATIONS);
  return {
    async get(key) {
      const [row] = await database.query<{ key: string; description: string; model: string; created_at: string }>(
        'SELECT key, description, model, created_at FROM media_descriptions WHERE key = $1',
        [key],
      );
      return row
        ? { key: row.key, description: row.description, model: row.model, createdAt: Number(row.created_at) }
        : undefined;
    },
    async put(entry) {
      await database.query(
        `INSERT INTO media_descriptions (key, description, model, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET description = excluded.description, model = excluded.model, created_at = excluded.created_at`,
        [entry.key, entry.description, entry.model, entry.createdAt],
      );
    },
  };
}
