// The schedule table on PostgreSQL (every process of a deployment shares it; the claim is one conditional UPDATE).
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import {
  COLUMNS,
  fromStored,
  ORDER_FOR_SESSION,
  type ScheduleStore,
  type StoredRow,
  toValues,
} from './schedule-store.js';
import { SCHEDULE_NAMESPACE, scheduleMigrations } from './sqlite-schedule-store.js';

const MIGRATIONS: readonly PostgresMigration[] = scheduleMigrations('BIGINT');

export async function postgresScheduleStore(database: PostgresDatabase): Promise<ScheduleStore> {
  await database.migrate(SCHEDULE_NAMESPACE, MIGRATIONS);
  const placeholders = COLUMNS.split(',')
    .map((_, index) => `$${index + 1}`)
    .join(', ');
  const rows = async (sql: string, params: unknown[]) =>
    (await database.query<StoredRow & Record<string, unknown>>(sql, params)).map(fromStored);
  return {
    async insert(row) {
      await database.query(`INSERT INTO schedules (${COLUMNS}) VALUES (${placeholders})`, toValues(row));
    },
    async get(id) {
      return (await rows(`SELECT ${COLUMNS} FROM schedules WHERE id = $1`, [id]))[0];
    },
    async listForSession(sessionId, limit = 200) {
      return rows(`SELECT ${COLUMNS} FROM schedules WHERE session_id = $1 ${ORDER_FOR_SESSION} LIMIT $2`, [
        sessionId,
        limit,
      ]);
    },
    async due(now, limit) {
      return rows(
        `SELECT ${COLUMNS} FROM schedules WHERE status = 'scheduled' AND next_at <= $1 ORDER BY next_at LIMIT $2`,
        [now, limit],
      );
    },
    async soonest() {
      const [row] = await database.query<{ next: string | null }>(
        `SELECT MIN(next_at) AS next FROM schedules WHERE status = 'scheduled'`,
      );
      return row?.next == null ? undefined : Number(row.next);
    },
    async claim(id, expectedNextAt, next, now) {
      const claimed = await database.query(
        `UPDATE schedules SET next_at = $1, status = $2, fires = fires + 1, last_fired_at = $3
         WHERE id = $4 AND status = 'scheduled' AND next_at = $5 RETURNING id`,
        [next, next === null ? 'done' : 'scheduled', now, id, expectedNextAt],
      );
      return claimed.length === 1;
    },
    async cancel(id) {
      const cancelled = await database.query(
        `UPDATE schedules SET status = 'cancelled', next_at = NULL WHERE id = $1 AND status = 'scheduled' RETURNING id`,
        [id],
      );
      return cancelled.length === 1;
    },
    async deleteSession(sessionId) {
      await database.query('DELETE FROM schedules WHERE session_id = $1', [sessionId]);
    },
  };
}
