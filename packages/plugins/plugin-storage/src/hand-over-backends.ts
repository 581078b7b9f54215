// The hand-over table per storage engine (namespace 'hand-over'): one row per item with its name, payload, taker,
// note and outcome. An item counts as orphaned when its taker no longer holds the name's lease (aalis_leases, same
// database): the next holder takes it again. PostgreSQL takes with FOR UPDATE SKIP LOCKED and NOTIFYs puts,
// finishes and signals; SQLite serialises takes in its write lock and its waiters poll.
import type { HandOverItem } from '@aalis/api-storage';
import type { PostgresDatabase } from '@aalis/postgres';
import type { SqliteDatabase } from '@aalis/sqlite';
import { postgresLeases, sqliteLeases } from './lease-backends.js';
import { writeTogether } from './stretch-writes.js';

export interface HandOverBackend {
  /** `from`: the putting process's holder id (PostgreSQL's NOTIFY carries it, so a process can skip its own). */
  put(name: string, payload: string, from: string): Promise<number>;
  /**
   * `expected`: this process put an item under the name since it last took from it (its own input, most often taken
   * here next), so a read to spare an empty take its write transaction would only cost a statement.
   */
  take(name: string, taker: string, limit: number, expected?: boolean): Promise<HandOverItem[]>;
  note(id: number, note: string | undefined): Promise<void>;
  /** True when this call finished the item (false: already finished, or no such item). */
  finish(id: number, outcome: string): Promise<boolean>;
  /** The outcomes of those of `ids` that are finished (ids of unknown items map to ''). */
  outcomes(ids: readonly number[]): Promise<Map<number, string>>;
  /** Ids of items put after `after` (for SQLite's put poll), with their names. */
  putSince?(after: number): Promise<{ id: number; name: string }[]>;
  /** Names with items untaken for at least `olderThanMs`, or taken by a holder that lost the lease. */
  waiting(prefix: string, olderThanMs: number): Promise<string[]>;
  /** Removes finished items older than `ageMs`. */
  purge(ageMs: number): Promise<void>;
  /** PostgreSQL: calls back on every put, finish and signal of any process. */
  listen?(events: {
    put(name: string, from: string): void;
    finished(id: number): void;
    signal(name: string, text: string): void;
    /** The listening connection was cut and made again: notifications sent meanwhile were missed. */
    reconnected(): void;
  }): Promise<void>;
  signal?(name: string, text: string): Promise<void>;
  /** How often waiters check again without being told. */
  readonly pollMs: number;
}

const columns = `name TEXT NOT NULL,
  payload TEXT NOT NULL,
  taker TEXT,
  note TEXT,
  outcome TEXT,
  put_at BIGINT NOT NULL,
  finished_at BIGINT`;
const INDEX = 'CREATE INDEX aalis_hand_over_open ON aalis_hand_over (name, id) WHERE outcome IS NULL';

/**
 * An item taken by a holder that does not hold the name's lease any more (released, expired, taken over). A name
 * never leased keeps its items with their takers (a queue used without a lease).
 */
const orphanedSql = (now: string) => `EXISTS (SELECT 1 FROM aalis_leases l WHERE l.name = q.name
  AND (l.holder <> q.taker OR l.released = 1 OR l.expires_at < ${now}))`;

interface Row {
  id: number;
  name: string;
  payload: string;
  note: string | null;
  previous: string | null;
}

const item = (row: Row, taker: string): HandOverItem => ({
  id: Number(row.id),
  name: row.name,
  payload: row.payload,
  note: row.note ?? undefined,
  orphaned: row.previous !== null && row.previous !== taker,
});

export function sqliteHandOver(database: SqliteDatabase): HandOverBackend {
  sqliteLeases(database);
  database.migrate('hand-over', [
    {
      version: 1,
      name: 'hand-over',
      up: `CREATE TABLE aalis_hand_over (id INTEGER PRIMARY KEY AUTOINCREMENT, ${columns}); ${INDEX}`,
    },
  ]);
  const now = '?';
  const open = `SELECT id, name, payload, note, taker AS previous FROM aalis_hand_over q
    WHERE name = ? AND outcome IS NULL AND (taker IS NULL OR (taker <> ? AND ${orphanedSql(now)}))
    ORDER BY id LIMIT ?`;
  const takeable = (name: string, taker: string, limit: number) =>
    database.statement(open).all(name, taker, Date.now(), limit) as Row[];
  // Writes commit at once (not through the group commit): an input is acknowledged, taken and placed — or joins a
  // running turn — without waiting for the next turn of the event loop.
  return {
    pollMs: 25,
    async put(name, payload) {
      return database.write(
        () =>
          database
            .statement('INSERT INTO aalis_hand_over (name, payload, put_at) VALUES (?, ?, ?) RETURNING id')
            .get(name, payload, Date.now()) as { id: number },
      ).id;
    },
    async take(name, taker, limit, expected = false) {
      // A read first (WAL readers take no lock): a take finding nothing — the owner looking again after each of its
      // takes, and before it gives the lease back — costs no write transaction. What it found is read again under
      // the write lock, where another process may have taken it meanwhile. Skipped when an item is expected: the
      // read under the lock decides alone, as it always did.
      if (!expected && takeable(name, taker, 1).length === 0) return [];
      return database.write(() => {
        const rows = takeable(name, taker, limit);
        const mark = database.statement('UPDATE aalis_hand_over SET taker = ? WHERE id = ?');
        for (const row of rows) mark.run(taker, row.id);
        return rows.map((row) => item(row, taker));
      });
    },
    async note(id, note) {
      // With the turn's lease note (lease-backends.ts) and its other items' notes, in one commit (stretch-writes.ts).
      await writeTogether(database, () =>
        database.statement('UPDATE aalis_hand_over SET note = ? WHERE id = ?').run(note ?? null, id),
      );
    },
    async finish(id, outcome) {
      const result = database.write(() =>
        database
          .statement('UPDATE aalis_hand_over SET outcome = ?, finished_at = ? WHERE id = ? AND outcome IS NULL')
          .run(outcome, Date.now(), id),
      );
      return result.changes === 1;
    },
    async outcomes(ids) {
      const found = new Map<number, string>();
      if (ids.length === 0) return found;
      // One waited id is the usual case: its statement is kept; a longer list is compiled for its length.
      const sql = `SELECT id, outcome FROM aalis_hand_over WHERE id IN (${ids.map(() => '?').join(', ')})`;
      const rows = (ids.length === 1 ? database.statement(sql) : database.connection.prepare(sql)).all(...ids) as {
        id: number;
        outcome: string | null;
      }[];
      const known = new Set<number>();
      for (const row of rows) {
        known.add(row.id);
        if (row.outcome !== null) found.set(row.id, row.outcome);
      }
      for (const id of ids) if (!known.has(id)) found.set(id, '');
      return found;
    },
    async putSince(after) {
      return database
        .statement('SELECT id, name FROM aalis_hand_over WHERE id > ? AND outcome IS NULL ORDER BY id')
        .all(after) as { id: number; name: string }[];
    },
    async waiting(prefix, olderThanMs) {
      const rows = database
        .statement(
          `SELECT DISTINCT name FROM aalis_hand_over q WHERE outcome IS NULL AND substr(name, 1, ?) = ?
           AND ((taker IS NULL AND put_at <= ?) OR (taker IS NOT NULL AND ${orphanedSql(now)})) ORDER BY name`,
        )
        .all(prefix.length, prefix, Date.now() - olderThanMs, Date.now()) as { name: string }[];
      return rows.map((row) => row.name);
    },
    async purge(ageMs) {
      database.write((connection) =>
        connection
          .prepare('DELETE FROM aalis_hand_over WHERE outcome IS NOT NULL AND finished_at < ?')
          .run(Date.now() - ageMs),
      );
    },
  };
}

const NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
const CHANNEL = { put: 'aalis_hand_over_put', finished: 'aalis_hand_over_done', signal: 'aalis_hand_over_signal' };

export async function postgresHandOver(database: PostgresDatabase): Promise<HandOverBackend> {
  await postgresLeases(database);
  await database.migrate('hand-over', [
    {
      version: 1,
      name: 'hand-over',
      up: `CREATE TABLE aalis_hand_over (id BIGSERIAL PRIMARY KEY, ${columns}); ${INDEX}`,
    },
  ]);
  return {
    pollMs: 1000,
    async put(name, payload, from) {
      // The insert and its NOTIFY in one statement: one round trip.
      const [row] = await database.query<{ id: number }>(
        `WITH added AS (INSERT INTO aalis_hand_over (name, payload, put_at) VALUES ($1, $2, ${NOW}) RETURNING id)
         SELECT id, pg_notify('${CHANNEL.put}', $3) FROM added`,
        [name, payload, JSON.stringify({ name, from })],
      );
      return Number(row!.id);
    },
    async take(name, taker, limit) {
      const rows = await database.query<Row>(
        `WITH picked AS (
           SELECT id, taker FROM aalis_hand_over q
           WHERE name = $1 AND outcome IS NULL AND (taker IS NULL OR (taker <> $2 AND ${orphanedSql(NOW)}))
           ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         UPDATE aalis_hand_over q SET taker = $2 FROM picked WHERE q.id = picked.id
         RETURNING q.id, q.name, q.payload, q.note, picked.taker AS previous`,
        [name, taker, limit],
      );
      return rows.map((row) => item(row, taker)).sort((a, b) => a.id - b.id);
    },
    async note(id, note) {
      await database.query('UPDATE aalis_hand_over SET note = $2 WHERE id = $1', [id, note ?? null]);
    },
    async finish(id, outcome) {
      const rows = await database.query(
        `WITH done AS (UPDATE aalis_hand_over SET outcome = $2, finished_at = ${NOW} WHERE id = $1 AND outcome IS NULL
           RETURNING id)
         SELECT pg_notify('${CHANNEL.finished}', id::text) FROM done`,
        [id, outcome],
      );
      return rows.length === 1;
    },
    async outcomes(ids) {
      const found = new Map<number, string>();
      if (ids.length === 0) return found;
      const rows = await database.query<{ id: number; outcome: string | null }>(
        'SELECT id, outcome FROM aalis_hand_over WHERE id = ANY($1::bigint[])',
        [ids],
      );
      const known = new Set<number>();
      for (const row of rows) {
        known.add(Number(row.id));
        if (row.outcome !== null) found.set(Number(row.id), row.outcome);
      }
      for (const id of ids) if (!known.has(id)) found.set(id, '');
      return found;
    },
    async waiting(prefix, olderThanMs) {
      const rows = await database.query<{ name: string }>(
        `SELECT DISTINCT name FROM aalis_hand_over q WHERE outcome IS NULL AND left(name, $1) = $2
         AND ((taker IS NULL AND put_at <= ${NOW} - $3) OR (taker IS NOT NULL AND ${orphanedSql(NOW)}))
         ORDER BY name`,
        [prefix.length, prefix, olderThanMs],
      );
      return rows.map((row) => row.name);
    },
    async purge(ageMs) {
      await database.query(`DELETE FROM aalis_hand_over WHERE outcome IS NOT NULL AND finished_at < ${NOW} - $1`, [
        ageMs,
      ]);
    },
    async listen(events) {
      database.onReconnect(() => events.reconnected());
      await database.listen(CHANNEL.put, (payload) => {
        try {
          const { name, from } = JSON.parse(payload) as { name: string; from: string };
          events.put(name, from);
        } catch {
          // not ours
        }
      });
      await database.listen(CHANNEL.finished, (id) => events.finished(Number(id)));
      await database.listen(CHANNEL.signal, (payload) => {
        try {
          const { name, text } = JSON.parse(payload) as { name: string; text: string };
          events.signal(name, text);
        } catch {
          // not ours
        }
      });
    },
    async signal(name, text) {
      await database.notify(CHANNEL.signal, JSON.stringify({ name, text }));
    },
  };
}
