// The table behind SettingsStore, per storage engine: SQLite (synchronous, BEGIN IMMEDIATE writes) or PostgreSQL
// (pooled, with a NOTIFY on every write so other processes drop their copy of the changed target).
import type { StorageService } from '@aalis/api-storage';
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

type Awaitable<T> = T | Promise<T>;

export interface SettingsBackend {
  load(layer: string, target: string): Awaitable<{ key: string; value: string }[]>;
  upsert(layer: string, target: string, key: string, json: string): Awaitable<void>;
  remove(layer: string, target: string, key: string): Awaitable<boolean>;
  /** Deletes every value of one target (a deleted session's own layer). */
  removeTarget(layer: string, target: string): Awaitable<void>;
  /** Reports targets another process changed. */
  onChanged?(fn: (layer: string, target: string) => void): void;
}

const TABLE = `CREATE TABLE session_settings (
  layer TEXT NOT NULL,
  target TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (layer, target, key)
)`;

export const SETTINGS_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'session settings layers', up: `${TABLE} WITHOUT ROWID` },
];
const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [{ version: 1, name: 'session settings layers', up: TABLE }];
const NAMESPACE = 'session-settings';
const CHANNEL = 'aalis_settings';

export function sqliteSettingsBackend(database: SqliteDatabase): SettingsBackend {
  database.migrate(NAMESPACE, SETTINGS_MIGRATIONS);
  return {
    load: (layer, target) =>
      database
        .statement('SELECT key, value FROM session_settings WHERE layer = ? AND target = ?')
        .all(layer, target) as { key: string; value: string }[],
    upsert(layer, target, key, json) {
      database.write((connection) =>
        connection
          .prepare(
            `INSERT INTO session_settings (layer, target, key, value, updated_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (layer, target, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
          )
          .run(layer, target, key, json, Date.now()),
      );
    },
    remove: (layer, target, key) =>
      database.write(
        (connection) =>
          connection
            .prepare('DELETE FROM session_settings WHERE layer = ? AND target = ? AND key = ?')
            .run(layer, target, key).changes > 0,
      ),
    removeTarget(layer, target) {
      database.write((connection) =>
        connection.prepare('DELETE FROM session_settings WHERE layer = ? AND target = ?').run(layer, target),
      );
    },
  };
}

export async function postgresSettingsBackend(database: PostgresDatabase): Promise<SettingsBackend> {
  await database.migrate(NAMESPACE, POSTGRES_MIGRATIONS);
  const self = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  const changed = (layer: string, target: string) =>
    database.notify(CHANNEL, JSON.stringify({ by: self, layer, target })).catch(() => {});
  return {
    load: (layer, target) =>
      database.query<{ key: string; value: string }>(
        'SELECT key, value FROM session_settings WHERE layer = $1 AND target = $2',
        [layer, target],
      ),
    async upsert(layer, target, key, json) {
      await database.query(
        `INSERT INTO session_settings (layer, target, key, value, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (layer, target, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [layer, target, key, json, Date.now()],
      );
      await changed(layer, target);
    },
    async remove(layer, target, key) {
      const rows = await database.query(
        'DELETE FROM session_settings WHERE layer = $1 AND target = $2 AND key = $3 RETURNING key',
        [layer, target, key],
      );
      await changed(layer, target);
      return rows.length > 0;
    },
    async removeTarget(layer, target) {
      await database.query('DELETE FROM session_settings WHERE layer = $1 AND target = $2', [layer, target]);
      await changed(layer, target);
    },
    onChanged(fn) {
      void database
        .listen(CHANNEL, (payload) => {
          try {
            const { by, layer, target } = JSON.parse(payload) as { by: string; layer: string; target: string };
            if (by !== self) fn(layer, target);
          } catch {
            // not ours
          }
        })
        .catch(() => {
          // no listener connection: other processes' writes are seen once this process reloads the target
        });
    },
  };
}

/** The backend of the storage service's engine. */
export function settingsBackendOf(storage: StorageService): Awaitable<SettingsBackend> {
  return storage.engine === 'postgres'
    ? postgresSettingsBackend(storage.postgres())
    : sqliteSettingsBackend(storage.database());
}
