// Where the poller keeps its getUpdates offset, per bot, so a restart (or the process taking the polling over)
// neither answers an update twice nor skips one: in the storage engine's database (SQLite or PostgreSQL). Beside it,
// the ids of updates above the offset that are stored already: the offset stops at an update whose input could not be
// stored (Telegram delivers it again), and the later ones of its batch that were stored are not handed over again
// when Telegram repeats them, after a restart too.
import type { StorageService } from '@aalis/api-storage';
import type { PostgresDatabase } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

const TABLE = `CREATE TABLE telegram_offsets (
  bot_id TEXT PRIMARY KEY,
  next_offset BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)`;

/** The ids stored above the offset, as a JSON array (at most one getUpdates batch: 100). */
const STORED_ABOVE = `ALTER TABLE telegram_offsets ADD COLUMN stored_above TEXT NOT NULL DEFAULT '[]'`;

const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'telegram update offsets', up: `${TABLE} WITHOUT ROWID` },
  { version: 2, name: 'updates stored above the offset', up: STORED_ABOVE },
];

/** Where the poller stands: the next offset to ask from, and the updates at or above it already stored. */
export interface KeptOffset {
  readonly nextOffset: number | undefined;
  readonly storedAbove: readonly number[];
}

type Awaitable<T> = T | Promise<T>;

export interface OffsetStore {
  load(botId: string): Awaitable<KeptOffset>;
  save(botId: string, nextOffset: number, storedAbove: readonly number[]): Awaitable<void>;
}

function keptOf(row: { next_offset: number | string; stored_above: string } | undefined): KeptOffset {
  if (!row) return { nextOffset: undefined, storedAbove: [] };
  let storedAbove: number[] = [];
  try {
    const parsed: unknown = JSON.parse(row.stored_above);
    if (Array.isArray(parsed)) storedAbove = parsed.filter((id): id is number => Number.isSafeInteger(id));
  } catch {
    // Unreadable: the updates above the offset are handed over again (as before this column existed).
  }
  return { nextOffset: Number(row.next_offset), storedAbove };
}

const UPSERT_TAIL = `ON CONFLICT (bot_id) DO UPDATE SET next_offset = excluded.next_offset,
  stored_above = excluded.stored_above, updated_at = excluded.updated_at`;

export function sqliteOffsetStore(database: SqliteDatabase): OffsetStore {
  database.migrate('telegram', MIGRATIONS);
  return {
    load(botId) {
      const row = database
        .statement('SELECT next_offset, stored_above FROM telegram_offsets WHERE bot_id = ?')
        .get(botId) as { next_offset: number; stored_above: string } | undefined;
      return keptOf(row);
    },
    save(botId, nextOffset, storedAbove) {
      database.write((connection) =>
        connection
          .prepare(
            `INSERT INTO telegram_offsets (bot_id, next_offset, stored_above, updated_at) VALUES (?, ?, ?, ?)
             ${UPSERT_TAIL}`,
          )
          .run(botId, nextOffset, JSON.stringify(storedAbove), Date.now()),
      );
    },
  };
}

export async function postgresOffsetStore(database: PostgresDatabase): Promise<OffsetStore> {
  await database.migrate('telegram', [
    { version: 1, name: 'telegram update offsets', up: TABLE },
    { version: 2, name: 'updates stored above the offset', up: STORED_ABOVE },
  ]);
  return {
    async load(botId) {
      const rows = await database.query<{ next_offset: string; stored_above: string }>(
        'SELECT next_offset, stored_above FROM telegram_offsets WHERE bot_id = $1',
        [botId],
      );
      return keptOf(rows[0]);
    },
    async save(botId, nextOffset, storedAbove) {
      await database.query(
        `INSERT INTO telegram_offsets (bot_id, next_offset, stored_above, updated_at) VALUES ($1, $2, $3, $4)
         ${UPSERT_TAIL}`,
        [botId, nextOffset, JSON.stringify(storedAbove), Date.now()],
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
  const offsets = new Map<string, KeptOffset>();
  return {
    load: (botId) => offsets.get(botId) ?? { nextOffset: undefined, storedAbove: [] },
    save: (botId, nextOffset, storedAbove) => void offsets.set(botId, { nextOffset, storedAbove: [...storedAbove] }),
  };
}
