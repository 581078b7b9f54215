// Runs and steps in PostgreSQL, shared by every process of a deployment.
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import {
  RUN_COLUMNS,
  type RunStore,
  runOf,
  runValues,
  STEP_COLUMNS,
  type StoredRun,
  type StoredStep,
  stepOf,
  stepValues,
} from './run-store.js';
import { WORKFLOW_NAMESPACE, WORKFLOW_TABLES } from './sqlite-run-store.js';

const MIGRATIONS: readonly PostgresMigration[] = [{ version: 1, name: 'workflow runs', up: WORKFLOW_TABLES }];

const placeholders = (columns: string) =>
  columns
    .split(',')
    .map((_, index) => `$${index + 1}`)
    .join(', ');

export async function postgresRunStore(database: PostgresDatabase): Promise<RunStore> {
  await database.migrate(WORKFLOW_NAMESPACE, MIGRATIONS);
  const runs = async (sql: string, params: unknown[]) =>
    (await database.query<StoredRun & Record<string, unknown>>(sql, params)).map(runOf);
  return {
    async insertRun(row) {
      await database.query(
        `INSERT INTO workflow_runs (${RUN_COLUMNS}) VALUES (${placeholders(RUN_COLUMNS)})`,
        runValues(row),
      );
    },
    async getRun(id) {
      return (await runs(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = $1`, [id]))[0];
    },
    async listRuns({ workflow, limit }) {
      return workflow === undefined
        ? runs(`SELECT ${RUN_COLUMNS} FROM workflow_runs ORDER BY created_at DESC, id DESC LIMIT $1`, [limit])
        : runs(
            `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
            [workflow, limit],
          );
    },
    async runningRuns(limit) {
      return runs(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE status = 'running' ORDER BY created_at LIMIT $1`, [
        limit,
      ]);
    },
    async endRun(id, end) {
      const ended = await database.query(
        `UPDATE workflow_runs SET status = $1, output = $2, error = $3, ended_at = $4
         WHERE id = $5 AND status = 'running' RETURNING id`,
        [end.status, end.output === undefined ? null : JSON.stringify(end.output), end.error ?? null, end.endedAt, id],
      );
      return ended.length === 1;
    },
    async steps(runId) {
      const rows = await database.query<StoredStep & Record<string, unknown>>(
        `SELECT ${STEP_COLUMNS} FROM workflow_steps WHERE run_id = $1 ORDER BY started_at, step_key`,
        [runId],
      );
      return rows.map(stepOf);
    },
    async putStep(row) {
      await database.query(
        `INSERT INTO workflow_steps (${STEP_COLUMNS}) VALUES (${placeholders(STEP_COLUMNS)})
         ON CONFLICT (run_id, step_key) DO UPDATE SET status = EXCLUDED.status, input = EXCLUDED.input,
           output = EXCLUDED.output, error = EXCLUDED.error, attempts = EXCLUDED.attempts,
           started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at`,
        stepValues(row),
      );
    },
    async claimFiring(workflow, at) {
      const claimed = await database.query(
        `INSERT INTO workflow_firings (workflow, fire_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING workflow`,
        [workflow, at],
      );
      return claimed.length === 1;
    },
  };
}
