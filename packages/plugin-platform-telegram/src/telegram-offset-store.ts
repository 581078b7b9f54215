// Where the poller keeps its getUpdates offset, per bot, so a restart neither answers an update twice nor skips
// one: in the data directory's database.
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'telegram update offsets',
    up: `CREATE TABLE telegram_offsets (
      bot_id TEXT PRIMARY KEY,
      next_offset INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID`,
  },
];

export interface OffsetStore {
  load(botId: string): number | undefined;
  save(botId: string, nextOffset: number): void;
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

/** Offsets kept in memory only (no storage service): a restart may answer the last updates again. */
export function memoryOffsetStore(): OffsetStore {
  const offsets = new Map<string, number>();
  return { load: (botId) => offsets.get(botId), save: (botId, offset) => void offsets.set(botId, offset) };
}
