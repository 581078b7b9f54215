// The `authority_levels` table per storage engine. SQLite is read directly (synchronous). PostgreSQL is shared by
// several processes and read asynchronously, so its rows are copied into this process at start and kept current:
// a change commits with a NOTIFY that every process (this one too) answers by reloading the changed row.
import type { LevelEntry } from '@aalis/api-authority';
import type { StorageService } from '@aalis/api-storage';
import type { PostgresDatabase, PostgresMigration, Queryable } from '@aalis/postgres';
import type { Identity } from '@aalis/schema-message';
import type { Connection, Migration, SqliteDatabase } from '@aalis/sqlite';

type Awaitable<T> = T | Promise<T>;

export interface LevelsBackend {
  levelOf(identity: Identity): number;
  /** Every level > 0, ordered by platform then userId. */
  all(): LevelEntry[];
  /**
   * Sets a level in one transaction: `check(current)` runs inside it (throwing leaves the row unchanged).
   * Returns the previous level.
   */
  setLevel(
    identity: Identity,
    level: number,
    by: Identity | undefined,
    check: (current: number) => void,
  ): Awaitable<number>;
}

const TABLE = `CREATE TABLE authority_levels (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  level INTEGER NOT NULL CHECK (level > 0),
  updated_at BIGINT NOT NULL,
  updated_by TEXT,
  PRIMARY KEY (platform, user_id)
)`;

export const AUTHORITY_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'authority levels', up: `${TABLE} WITHOUT ROWID` },
];
const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [{ version: 1, name: 'authority levels', up: TABLE }];
const CHANNEL = 'aalis_authority';

export function sqliteLevels(database: SqliteDatabase): LevelsBackend {
  database.migrate('authority', AUTHORITY_MIGRATIONS);
  const read = (connection: Connection, identity: Identity) =>
    (
      connection
        .prepare('SELECT level FROM authority_levels WHERE platform = ? AND user_id = ?')
        .get(identity.platform, identity.userId) as { level: number } | undefined
    )?.level ?? 0;
  return {
    levelOf: (identity) => read(database.connection, identity),
    all() {
      const rows = database.connection
        .prepare('SELECT platform, user_id AS userId, level FROM authority_levels ORDER BY platform, user_id')
        .all() as { platform: string; userId: string; level: number }[];
      return rows.map(({ platform, userId, level }) => ({ identity: { platform, userId }, level }));
    },
    setLevel(identity, level, by, check) {
      return database.write((connection) => {
        const current = read(connection, identity);
        check(current);
        if (level === 0) {
          connection
            .prepare('DELETE FROM authority_levels WHERE platform = ? AND user_id = ?')
            .run(identity.platform, identity.userId);
        } else {
          connection
            .prepare(
              `INSERT INTO authority_levels (platform, user_id, level, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (platform, user_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at,
               updated_by = excluded.updated_by`,
            )
            .run(identity.platform, identity.userId, level, Date.now(), by ? JSON.stringify(by) : null);
        }
        return current;
      });
    },
  };
}

const keyOf = (identity: Identity) => JSON.stringify([identity.platform, identity.userId]);

export async function postgresLevels(database: PostgresDatabase): Promise<LevelsBackend> {
  await database.migrate('authority', POSTGRES_MIGRATIONS);
  const copy = new Map<string, LevelEntry>();
  const put = (identity: Identity, level: number) => {
    if (level > 0) copy.set(keyOf(identity), { identity: { ...identity }, level });
    else copy.delete(keyOf(identity));
  };
  const reload = async (client: Queryable, identity: Identity) => {
    const { rows } = await client.query('SELECT level FROM authority_levels WHERE platform = $1 AND user_id = $2', [
      identity.platform,
      identity.userId,
    ]);
    put(identity, (rows[0] as { level: number } | undefined)?.level ?? 0);
  };
  await database.listen(CHANNEL, (payload) => {
    try {
      void reload(database.pool, JSON.parse(payload) as Identity).catch(() => {});
    } catch {
      // not ours
    }
  });
  const rows = await database.query<{ platform: string; user_id: string; level: number }>(
    'SELECT platform, user_id, level FROM authority_levels',
  );
  for (const row of rows) put({ platform: row.platform, userId: row.user_id }, row.level);
  return {
    levelOf: (identity) => copy.get(keyOf(identity))?.level ?? 0,
    all: () =>
      [...copy.values()]
        .map((entry) => ({ identity: { ...entry.identity }, level: entry.level }))
        .sort((a, b) =>
          a.identity.platform === b.identity.platform
            ? a.identity.userId < b.identity.userId
              ? -1
              : 1
            : a.identity.platform < b.identity.platform
              ? -1
              : 1,
        ),
    async setLevel(identity, level, by, check) {
      const previous = await database.transaction(async (client) => {
        // The row lock (or, for a new row, the advisory lock on its key) serialises concurrent changes of one level.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`authority:${keyOf(identity)}`]);
        const { rows } = await client.query(
          'SELECT level FROM authority_levels WHERE platform = $1 AND user_id = $2 FOR UPDATE',
          [identity.platform, identity.userId],
        );
        const current = (rows[0] as { level: number } | undefined)?.level ?? 0;
        check(current);
        if (level === 0) {
          await client.query('DELETE FROM authority_levels WHERE platform = $1 AND user_id = $2', [
            identity.platform,
            identity.userId,
          ]);
        } else {
          await client.query(
            `INSERT INTO authority_levels (platform, user_id, level, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (platform, user_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at,
             updated_by = excluded.updated_by`,
            [identity.platform, identity.userId, level, Date.now(), by ? JSON.stringify(by) : null],
          );
        }
        await client.query('SELECT pg_notify($1, $2)', [
          CHANNEL,
          JSON.stringify({ platform: identity.platform, userId: identity.userId }),
        ]);
        return current;
      });
      put(identity, level);
      return previous;
    },
  };
}

export function levelsBackendOf(storage: StorageService): Awaitable<LevelsBackend> {
  return storage.engine === 'postgres' ? postgresLevels(storage.postgres()) : sqliteLevels(storage.database());
}
