// The lease table per storage engine (namespace 'leases'): one row per held name with its holder, a note and the
// time it expires. SQLite uses this machine's clock (one data directory = one machine); PostgreSQL uses the
// server's clock, so hosts whose clocks differ agree on expiry. Release and takeover are NOTIFYed on PostgreSQL.
import type { PostgresDatabase } from '@aalis/postgres';
import type { SqliteDatabase } from '@aalis/sqlite';

export interface Claim {
  acquired: boolean;
  /** The note of an expired holder the lease was taken from. */
  takenOver?: { note: string | undefined };
}

export interface LeaseBackend {
  claim(name: string, holder: string, ttlMs: number): Promise<Claim>;
  /** Renews every lease of the holder; returns the names it still holds. */
  renew(holder: string, ttlMs: number): Promise<Set<string>>;
  note(name: string, holder: string, note: string | undefined): Promise<void>;
  release(name: string, holder: string): Promise<void>;
  /** Calls fn with the name of a lease another process released (PostgreSQL only; SQLite waiters poll). */
  onReleased?(fn: (name: string) => void): Promise<void>;
  /** How often a waiter asks again without being told. */
  readonly pollMs: number;
}

const TABLE = `CREATE TABLE aalis_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  note TEXT,
  expires_at BIGINT NOT NULL
)`;
const CHANNEL = 'aalis_leases';

export function sqliteLeases(database: SqliteDatabase): LeaseBackend {
  database.migrate('leases', [{ version: 1, name: 'leases', up: TABLE }]);
  return {
    pollMs: 15,
    async claim(name, holder, ttlMs) {
      return database.write((connection) => {
        const now = Date.now();
        const row = connection.prepare('SELECT holder, note, expires_at FROM aalis_leases WHERE name = ?').get(name) as
          | { holder: string; note: string | null; expires_at: number }
          | undefined;
        if (row && row.expires_at >= now && row.holder !== holder) return { acquired: false };
        connection
          .prepare(
            `INSERT INTO aalis_leases (name, holder, note, expires_at) VALUES (?, ?, NULL, ?)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, note = NULL, expires_at = excluded.expires_at`,
          )
          .run(name, holder, now + ttlMs);
        return row && row.holder !== holder
          ? { acquired: true, takenOver: { note: row.note ?? undefined } }
          : { acquired: true };
      });
    },
    async renew(holder, ttlMs) {
      const rows = database.write((connection) =>
        connection
          .prepare('UPDATE aalis_leases SET expires_at = ? WHERE holder = ? RETURNING name')
          .all(Date.now() + ttlMs, holder),
      ) as { name: string }[];
      return new Set(rows.map((row) => row.name));
    },
    async note(name, holder, note) {
      database.write((connection) =>
        connection
          .prepare('UPDATE aalis_leases SET note = ? WHERE name = ? AND holder = ?')
          .run(note ?? null, name, holder),
      );
    },
    async release(name, holder) {
      database.write((connection) =>
        connection.prepare('DELETE FROM aalis_leases WHERE name = ? AND holder = ?').run(name, holder),
      );
    },
  };
}

const NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

export async function postgresLeases(database: PostgresDatabase): Promise<LeaseBackend> {
  await database.migrate('leases', [{ version: 1, name: 'leases', up: TABLE }]);
  return {
    pollMs: 250,
    claim(name, holder, ttlMs) {
      return database.transaction(async (client) => {
        const { rows } = await client.query(
          `SELECT holder, note, expires_at < ${NOW} AS expired FROM aalis_leases WHERE name = $1 FOR UPDATE`,
          [name],
        );
        const row = rows[0] as { holder: string; note: string | null; expired: boolean } | undefined;
        if (!row) {
          const inserted = await client.query(
            `INSERT INTO aalis_leases (name, holder, note, expires_at) VALUES ($1, $2, NULL, ${NOW} + $3)
             ON CONFLICT (name) DO NOTHING RETURNING name`,
            [name, holder, ttlMs],
          );
          return { acquired: inserted.rows.length === 1 };
        }
        if (!row.expired && row.holder !== holder) return { acquired: false };
        await client.query(
          `UPDATE aalis_leases SET holder = $2, note = NULL, expires_at = ${NOW} + $3 WHERE name = $1`,
          [name, holder, ttlMs],
        );
        return row.holder !== holder
          ? { acquired: true, takenOver: { note: row.note ?? undefined } }
          : { acquired: true };
      });
    },
    async renew(holder, ttlMs) {
      const rows = await database.query<{ name: string }>(
        `UPDATE aalis_leases SET expires_at = ${NOW} + $2 WHERE holder = $1 RETURNING name`,
        [holder, ttlMs],
      );
      return new Set(rows.map((row) => row.name));
    },
    async note(name, holder, note) {
      await database.query('UPDATE aalis_leases SET note = $3 WHERE name = $1 AND holder = $2', [
        name,
        holder,
        note ?? null,
      ]);
    },
    async release(name, holder) {
      await database.query('DELETE FROM aalis_leases WHERE name = $1 AND holder = $2', [name, holder]);
      await database.notify(CHANNEL, name);
    },
    async onReleased(fn) {
      await database.listen(CHANNEL, fn);
    },
  };
}
