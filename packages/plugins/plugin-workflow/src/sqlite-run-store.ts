// Runs and steps in the data directory's SQLite database.
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
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

export const WORKFLOW_NAMESPACE = 'workflow';

export const WORKFLOW_TABLES = `CREATE TABLE workflow_runs (
  id TEXT PRIMARY KEY,
  workflow TEXT NOT NULL,
  status TEXT NOT NULL,
  trigger TEXT NOT NULL,
  inputs TEXT NOT NULL,
  definition TEXT NOT NULL,
  by_identity TEXT,
  parent_run TEXT,
  output TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX workflow_runs_recent ON workflow_runs(workflow, created_at);
CREATE INDEX workflow_runs_created ON workflow_runs(created_at);
CREATE INDEX workflow_runs_status ON workflow_runs(status, created_at);
CREATE TABLE workflow_steps (
  run_id TEXT NOT NULL,
  step_key TEXT NOT NULL,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  input TEXT,
  output TEXT,
  error TEXT,
  attempts INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  ended_at BIGINT,
  PRIMARY KEY (run_id, step_key)
);
CREATE TABLE workflow_firings (
  workflow TEXT NOT NULL,
  fire_at BIGINT NOT NULL,
  PRIMARY KEY (workflow, fire_at)
);`;

const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'workflow runs', up: WORKFLOW_TABLES }];

export function sqliteRunStore(database: SqliteDatabase): RunStore {
  database.migrate(WORKFLOW_NAMESPACE, MIGRATIONS);
  const write = (sql: string, ...params: unknown[]) =>
    database.write((connection) => connection.prepare(sql).run(...params)).changes;
  const marks = (columns: string) =>
    columns
      .split(',')
      .map(() => '?')
      .join(', ');
  return {
    async insertRun(row) {
      write(`INSERT INTO workflow_runs (${RUN_COLUMNS}) VALUES (${marks(RUN_COLUMNS)})`, ...runValues(row));
    },
    async getRun(id) {
      const row = database.statement(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = ?`).get(id) as
        | StoredRun
        | undefined;
      return row ? runOf(row) : undefined;
    },
    async listRuns({ workflow, limit }) {
      const rows = (
        workflow === undefined
          ? database
              .statement(`SELECT ${RUN_COLUMNS} FROM workflow_runs ORDER BY created_at DESC, id DESC LIMIT ?`)
              .all(limit)
          : database
              .statement(
                `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
              )
              .all(workflow, limit)
      ) as StoredRun[];
      return rows.map(runOf);
    },
    async runningRuns(limit) {
      const rows = database
        .statement(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE status = 'running' ORDER BY created_at LIMIT ?`)
        .all(limit) as StoredRun[];
      return rows.map(runOf);
    },
    async endRun(id, end) {
      return (
        write(
          `UPDATE workflow_runs SET status = ?, output = ?, error = ?, ended_at = ? WHERE id = ? AND status = 'running'`,
          end.status,
          end.output === undefined ? null : JSON.stringify(end.output),
          end.error ?? null,
          end.endedAt,
          id,
        ) === 1
      );
    },
    async steps(runId) {
      const rows = database
        .statement(`SELECT ${STEP_COLUMNS} FROM workflow_steps WHERE run_id = ? ORDER BY started_at, step_key`)
        .all(runId) as StoredStep[];
      return rows.map(stepOf);
    },
    async putStep(row) {
      write(
        `INSERT OR REPLACE INTO workflow_steps (${STEP_COLUMNS}) VALUES (${marks(STEP_COLUMNS)})`,
        ...stepValues(row),
      );
    },
    async claimFiring(workflow, at) {
      return write(`INSERT OR IGNORE INTO workflow_firings (workflow, fire_at) VALUES (?, ?)`, workflow, at) === 1;
    },
  };
}
