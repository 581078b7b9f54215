// The schedule table on SQLite (the data directory's database).
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import {
  COLUMNS,
  fromStored,
  ORDER_FOR_SESSION,
  type ScheduleRow,
  type ScheduleStore,
  type StoredRow,
  toValues,
} from './schedule-store.js';

export const SCHEDULE_NAMESPACE = 'schedule';

/** The schedules table in a dialect (`time`: the integer type of its times), one schema for both engines. */
export function scheduleMigrations(time: 'INTEGER' | 'BIGINT') {
  return [
    {
      version: 1,
      name: 'scheduled tasks',
      up: `CREATE TABLE schedules (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      venue TEXT,
      kind TEXT NOT NULL,
      cron TEXT,
      time_zone TEXT NOT NULL,
      next_at ${time},
      prompt TEXT NOT NULL,
      created_by TEXT,
      created_at ${time} NOT NULL,
      status TEXT NOT NULL,
      last_fired_at ${time},
      fires INTEGER NOT NULL
    );
    CREATE INDEX schedules_due ON schedules(status, next_at);
    CREATE INDEX schedules_session ON schedules(session_id, created_at);`,
    },
  ];
}

const MIGRATIONS: readonly Migration[] = scheduleMigrations('INTEGER');

export function sqliteScheduleStore(database: SqliteDatabase): ScheduleStore {
  database.migrate(SCHEDULE_NAMESPACE, MIGRATIONS);
  const write = (sql: string, ...params: unknown[]) =>
    database.write((connection) => connection.prepare(sql).run(...params)).changes;
  return {
    async insert(row: ScheduleRow) {
      write(
        `INSERT INTO schedules (${COLUMNS}) VALUES (${COLUMNS.split(',')
          .map(() => '?')
          .join(', ')})`,
        ...toValues(row),
      );
    },
    async get(id) {
      const row = database.statement(`SELECT ${COLUMNS} FROM schedules WHERE id = ?`).get(id) as StoredRow | undefined;
      return row ? fromStored(row) : undefined;
    },
    async listForSession(sessionId, limit = 200) {
      const rows = database
        .statement(`SELECT ${COLUMNS} FROM schedules WHERE session_id = ? ${ORDER_FOR_SESSION} LIMIT ?`)
        .all(sessionId, limit) as StoredRow[];
      return rows.map(fromStored);
    },
    async due(now, limit) {
      const rows = database
        .statement(
          `SELECT ${COLUMNS} FROM schedules WHERE status = 'scheduled' AND next_at <= ? ORDER BY next_at LIMIT ?`,
        )
        .all(now, limit) as StoredRow[];
      return rows.map(fromStored);
    },
    async soonest() {
      const row = database.statement(`SELECT MIN(next_at) AS next FROM schedules WHERE status = 'scheduled'`).get() as {
        next: number | null;
      };
      return row.next ?? undefined;
    },
    async claim(id, expectedNextAt, next, now) {
      return (
        write(
          `UPDATE schedules SET next_at = ?, status = ?, fires = fires + 1, last_fired_at = ?
           WHERE id = ? AND status = 'scheduled' AND next_at = ?`,
          next,
          next === null ? 'done' : 'scheduled',
          now,
          id,
          expectedNextAt,
        ) === 1
      );
    },
    async cancel(id) {
      return (
        write(`UPDATE schedules SET status = 'cancelled', next_at = NULL WHERE id = ? AND status = 'scheduled'`, id) ===
        1
      );
    },
    async deleteSession(sessionId) {
      write('DELETE FROM schedules WHERE session_id = ?', sessionId);
    },
  };
}
