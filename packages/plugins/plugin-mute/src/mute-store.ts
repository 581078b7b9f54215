// Where mutes are kept: one row per muted session in the storage engine's database (the data directory's SQLite,
// or PostgreSQL shared by every process), so a mute survives a restart and every process sees it.
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export interface MuteRow {
  sessionId: string;
  /** Epoch ms when the mute ends; undefined = until /unmute. */
  until: number | undefined;
  /** Who muted ('<platform>:<userId>'); undefined for a keyword of nobody in particular or the host. */
  by: string | undefined;
  createdAt: number;
}

export interface MuteStore {
  get(sessionId: string): Promise<MuteRow | undefined>;
  put(row: MuteRow): Promise<void>;
  /** Whether a row was removed. */
  remove(sessionId: string): Promise<boolean>;
}

export const MUTE_NAMESPACE = 'mute';

const TABLE = (bigint: string) => `CREATE TABLE mutes (
  session_id TEXT PRIMARY KEY,
  until_at ${bigint},
  muted_by TEXT,
  created_at ${bigint} NOT NULL
)`;

interface StoredRow {
  session_id: string;
  until_at: number | string | null;
  muted_by: string | null;
  created_at: number | string;
}

const fromStored = (row: StoredRow): MuteRow => ({
  sessionId: row.session_id,
  until: row.until_at === null ? undefined : Number(row.until_at),
  by: row.muted_by ?? undefined,
  createdAt: Number(row.created_at),
});

const SQLITE_MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'mutes', up: TABLE('INTEGER') }];
const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [{ version: 1, name: 'mutes', up: TABLE('BIGINT') }];

export function sqliteMuteStore(database: SqliteDatabase): MuteStore {
  database.migrate(MUTE_NAMESPACE, SQLITE_MIGRATIONS);
  return {
    async get(sessionId) {
      const row = database
        .statement('SELECT session_id, until_at, muted_by, created_at FROM mutes WHERE session_id = ?')
        .get(sessionId) as StoredRow | undefined;
      return row ? fromStored(row) : undefined;
    },
    async put(row) {
      database.write((connection) =>
        connection
          .prepare(
            `INSERT INTO mutes (session_id, until_at, muted_by, created_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (session_id) DO UPDATE SET until_at = excluded.until_at, muted_by = excluded.muted_by,
             created_at = excluded.created_at`,
          )
          .run(row.sessionId, row.until ?? null, row.by ?? null, row.createdAt),
      );
    },
    async remove(sessionId) {
      return (
        database.write((connection) => connection.prepare('DELETE FROM mutes WHERE session_id = ?').run(sessionId))
          .changes > 0
      );
    },
  };
}

export async function postgresMuteStore(database: PostgresDatabase): Promise<MuteStore> {
  await database.migrate(MUTE_NAMESPACE, POSTGRES_MIGRATIONS);
  return {
    async get(sessionId) {
      const rows = await database.query<StoredRow & Record<string, unknown>>(
        'SELECT session_id, until_at, muted_by, created_at FROM mutes WHERE session_id = $1',
        [sessionId],
      );
      return rows[0] ? fromStored(rows[0]) : undefined;
    },
    async put(row) {
      await database.query(
        `INSERT INTO mutes (session_id, until_at, muted_by, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (session_id) DO UPDATE SET until_at = excluded.until_at, muted_by = excluded.muted_by,
         created_at = excluded.created_at`,
        [row.sessionId, row.until ?? null, row.by ?? null, row.createdAt],
      );
    },
    async remove(sessionId) {
      const rows = await database.query('DELETE FROM mutes WHERE session_id = $1 RETURNING session_id', [sessionId]);
      return rows.length > 0;
    },
  };
}
