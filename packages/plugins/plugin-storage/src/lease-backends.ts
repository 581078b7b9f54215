// The lease table per storage engine (namespace 'leases'): one row per name with its holder, a note, the time it
// expires and whether it was released (released rows stay, so the next holder learns who held the name last and
// whether that holder let go or died). SQLite uses this machine's clock (one data directory = one machine);
// PostgreSQL uses the server's clock, so hosts whose clocks differ agree on expiry, and NOTIFYs releases.
import type { PostgresDatabase } from '@aalis/postgres';
import type { SqliteDatabase } from '@aalis/sqlite';
import { writeTogether } from './stretch-writes.js';

export interface Claim {
  acquired: boolean;
  /** The note of an expired holder the lease was taken from (it never released it). */
  takenOver?: { note: string | undefined };
  /** Who held it last (released or expired); undefined for a name never held. */
  previousHolder?: string;
  /** The note asked for was written by the claim itself (SQLite: in its transaction); otherwise Leases notes it. */
  noted?: boolean;
}

export interface LeaseBackend {
  /** Takes the name if free; `note`, when given, is kept in the row from the start (see Claim.noted). */
  claim(name: string, holder: string, ttlMs: number, note?: string): Promise<Claim>;
  /** Renews every lease of the holder; returns the names it still holds. */
  renew(holder: string, ttlMs: number): Promise<Set<string>>;
  note(name: string, holder: string, note: string | undefined): Promise<void>;
  release(name: string, holder: string): Promise<void>;
  /** Calls fn with the name of a lease another process released (PostgreSQL only; SQLite waiters poll). */
  onReleased?(fn: (name: string) => void): Promise<void>;
  /** Names with the prefix held by nobody alive (expired, not released). */
  abandoned(prefix: string): Promise<string[]>;
  /** How often a waiter asks again without being told. */
  readonly pollMs: number;
}

const TABLE = `CREATE TABLE aalis_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  note TEXT,
  expires_at BIGINT NOT NULL,
  released INTEGER NOT NULL DEFAULT 0
)`;
const CHANNEL = 'aalis_leases';

interface Row {
  holder: string;
  note: string | null;
  expired: boolean;
  released: number;
}

/** Whether `holder` may take the name now, and what it learns from the row it replaces. */
function decide(row: Row | undefined, holder: string): Claim {
  if (!row) return { acquired: true };
  if (row.released === 0 && !row.expired && row.holder !== holder) return { acquired: false };
  const claim: Claim = { acquired: true, previousHolder: row.holder };
  if (row.released === 0 && row.holder !== holder) claim.takenOver = { note: row.note ?? undefined };
  return claim;
}

export function sqliteLeases(database: SqliteDatabase): LeaseBackend {
  database.migrate('leases', [{ version: 1, name: 'leases', up: TABLE }]);
  return {
    pollMs: 25,
    async claim(name, holder, ttlMs, note) {
      // A read first (WAL readers take no lock): waiters polling a held name never queue for the write lock.
      const seen = database
        .statement('SELECT holder, expires_at, released FROM aalis_leases WHERE name = ?')
        .get(name) as { holder: string; expires_at: number; released: number } | undefined;
      if (seen && seen.released === 0 && seen.expires_at >= Date.now() && seen.holder !== holder)
        return { acquired: false };
      // The claim and its note in one transaction, shared with the other writes of this event-loop turn (group
      // commit): a turn's claim costs no commit of its own.
      return database.writeSoon(() => {
        const now = Date.now();
        const stored = database
          .statement('SELECT holder, note, expires_at, released FROM aalis_leases WHERE name = ?')
          .get(name) as { holder: string; note: string | null; expires_at: number; released: number } | undefined;
        const claim = decide(stored && { ...stored, expired: stored.expires_at < now }, holder);
        if (!claim.acquired) return claim;
        database
          .statement(
            `INSERT INTO aalis_leases (name, holder, note, expires_at, released) VALUES (?, ?, ?, ?, 0)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, note = excluded.note,
             expires_at = excluded.expires_at, released = 0`,
          )
          .run(name, holder, note ?? null, now + ttlMs);
        return { ...claim, noted: true };
      });
    },
    async renew(holder, ttlMs) {
      const rows = database.write(() =>
        database
          .statement('UPDATE aalis_leases SET expires_at = ? WHERE holder = ? AND released = 0 RETURNING name')
          .all(Date.now() + ttlMs, holder),
      ) as { name: string }[];
      return new Set(rows.map((row) => row.name));
    },
    async note(name, holder, note) {
      // With the notes of the turn's items (hand-over-backends.ts), in one commit (stretch-writes.ts).
      await writeTogether(database, () =>
        database
          .statement('UPDATE aalis_leases SET note = ? WHERE name = ? AND holder = ? AND released = 0')
          .run(note ?? null, name, holder),
      );
    },
    async abandoned(prefix) {
      const rows = database
        .statement('SELECT name FROM aalis_leases WHERE released = 0 AND expires_at < ? AND substr(name, 1, ?) = ?')
        .all(Date.now(), prefix.length, prefix) as { name: string }[];
      return rows.map((row) => row.name);
    },
    async release(name, holder) {
      // Group commit too: the releases of many sessions' turns ending in one event-loop turn share one commit.
      await database.writeSoon(() =>
        database
          .statement('UPDATE aalis_leases SET released = 1, note = NULL WHERE name = ? AND holder = ?')
          .run(name, holder),
      );
    },
  };
}

const NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * The heartbeat (renew) finds a process's held leases by holder: without an index that is a scan of every lease row
 * ever written (released rows stay) per heartbeat of every process. Partial: only held rows are looked up so.
 */
const LEASES_BY_HOLDER = 'CREATE INDEX aalis_leases_holder ON aalis_leases (holder) WHERE released = 0';

export async function postgresLeases(database: PostgresDatabase): Promise<LeaseBackend> {
  await database.migrate('leases', [
    { version: 1, name: 'leases', up: TABLE },
    { version: 2, name: 'leases by holder', up: LEASES_BY_HOLDER },
  ]);
  return {
    pollMs: 250,
    async claim(name, holder, ttlMs) {
      // A plain read first: a waiter asking about a name another process holds takes no row lock and no
      // transaction (the holder's heartbeat and notes never wait for it).
      const [seen] = await database.query<{ holder: string; expired: boolean; released: number }>(
        `SELECT holder, expires_at < ${NOW} AS expired, released FROM aalis_leases WHERE name = $1`,
        [name],
      );
      if (seen && seen.released === 0 && !seen.expired && seen.holder !== holder) return { acquired: false };
      return database.transaction(async (client) => {
        const { rows } = await client.query(
          `SELECT holder, note, expires_at < ${NOW} AS expired, released FROM aalis_leases WHERE name = $1 FOR UPDATE`,
          [name],
        );
        const row = rows[0] as Row | undefined;
        if (!row) {
          const inserted = await client.query(
            `INSERT INTO aalis_leases (name, holder, note, expires_at) VALUES ($1, $2, NULL, ${NOW} + $3)
             ON CONFLICT (name) DO NOTHING RETURNING name`,
            [name, holder, ttlMs],
          );
          return { acquired: inserted.rows.length === 1 };
        }
        const claim = decide(row, holder);
        if (!claim.acquired) return claim;
        await client.query(
          `UPDATE aalis_leases SET holder = $2, note = NULL, expires_at = ${NOW} + $3, released = 0 WHERE name = $1`,
          [name, holder, ttlMs],
        );
        return claim;
      });
    },
    async renew(holder, ttlMs) {
      const rows = await database.query<{ name: string }>(
        `UPDATE aalis_leases SET expires_at = ${NOW} + $2 WHERE holder = $1 AND released = 0 RETURNING name`,
        [holder, ttlMs],
      );
      return new Set(rows.map((row) => row.name));
    },
    async note(name, holder, note) {
      await database.query('UPDATE aalis_leases SET note = $3 WHERE name = $1 AND holder = $2 AND released = 0', [
        name,
        holder,
        note ?? null,
      ]);
    },
    async abandoned(prefix) {
      const rows = await database.query<{ name: string }>(
        `SELECT name FROM aalis_leases WHERE released = 0 AND expires_at < ${NOW} AND left(name, $1) = $2`,
        [prefix.length, prefix],
      );
      return rows.map((row) => row.name);
    },
    async release(name, holder) {
      // The release and its NOTIFY in one statement: one round trip.
      await database.query(
        `WITH done AS (UPDATE aalis_leases SET released = 1, note = NULL WHERE name = $1 AND holder = $2 RETURNING name)
         SELECT pg_notify('${CHANNEL}', $1) FROM done`,
        [name, holder],
      );
    },
    async onReleased(fn) {
      await database.listen(CHANNEL, fn);
    },
  };
}
