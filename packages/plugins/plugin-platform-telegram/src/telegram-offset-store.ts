// Where the poller keeps its getUpdates offset, per bot, so a restart (or the process taking the polling over)
// neither answers an update twice nor skips one: in the storage engine's database (SQLite or PostgreSQL).
import type { StorageService } from '@aalis/api-storage';
import type { PostgresDatabase } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

const TABLE = `CREATE TABLE telegram_offsets (
  bot_id TEXT PRIMARY KEY,
  next_offset BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)`;

const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'telegram update offsets', up: `${TABLE} WITHOUT ROWID` },
];

type Awaitable<T> = T | Promise<T>;

export interface OffsetStore {
  load(botId: string): Awaitable<number | undefined>;
  save(botId: string, nextOffset: number): Awaitable<void>;
}

export function sqliteOffsetStore(database: SqliteDatabase): OffsetStore {
  database.migrate('telegram', MIGRATIONS);
  return {
    load(botId) {
      const row = database.statement('SELECT next_offset FROM telegram_offsets WHERE bot_id = ?').get(botId) as
        | { next_offset: number }
        | undefined;
      return row?.next_offset;
    },
    save(botId, nextOffset) {
      database.write((connection) =>
        connection
          .prepare(
            `INSERT INTO telegram_offsets (bot_id, next_offset, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (bot_id) DO UPDATE SET next_offset = excluded.next_offset, updated_at = excluded.updated_at`,
          )
          .run(botId, nextOffset, Date.now()),
      );
    },
  };
}

export async function postgresOffsetStore(database: PostgresDatabase): Promise<OffsetStore> {
  await database.migrate('telegram', [{ version: 1, name: 'telegram update offsets', up: TABLE }]);
  return {
    async load(botId) {
      const rows = await database.query<{ next_offset: number }>(
        'SELECT next_offset FROM telegram_offsets WHERE bot_id = $1',
        [botId],
      );
      return rows[0]?.next_offset;
    },
    async save(botId, nextOffset) {
      await database.query(
        `INSERT INTO telegram_offsets (bot_id, next_offset, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (bot_id) DO UPDATE SET next_offset = excluded.next_offset, updated_at = excluded.updated_at`,
        [botId, nextOffset, Date.now()],
      );
    },
  };
}

/** The offset store of the storage service's engine. */
export function offsetStoreOf(storage: StorageService): Awaitable<OffsetStore> {
  return storage.engine === 'postgres'
    ? postgresOffsetStore(storage.postgres())
    : sqliteOffsetStore(storage.database());
}

/** Offsets kept in memory only (no storage service): a restart may answer the last updates again. */
export function memoryOffsetStore(): OffsetStore {
  const offsets = new Map<string, number>();
  return { load: (botId) => offsets.get(botId), save: (botId, offset) => void offsets.set(botId, offset) };
}
