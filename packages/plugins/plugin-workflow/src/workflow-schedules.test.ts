// Scheduled workflows: each cron firing between two looks starts one run, claimed once in the database, so a second
// scheduler on the same database (another process) starts none of the same firings; a workflow with problems is
// left alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartOptions, WorkflowDefinition, WorkflowService } from '@aalis/api-workflow';
import { DATABASE_FILE, SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteRunStore } from './sqlite-run-store.js';
import { WorkflowSchedules } from './workflow-schedules.js';

const dirs: string[] = [];
const databases: SqliteDatabase[] = [];
afterEach(() => {
  for (const database of databases.splice(0)) database.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {} } as never;

function definition(name: string, schedule: string[]): WorkflowDefinition {
  return { name, inputs: {}, nodes: [], triggers: { schedule, timeZone: 'UTC', webhook: false } };
}

/** A workflow service that only lists and records starts (the schedules' view of it). */
function service(started: string[]): WorkflowService {
  const definitions = [definition('hourly', ['0 * * * *']), definition('never', [])];
  const unused = async (): Promise<never> => {
    throw new Error('not used by the schedules');
  };
  return {
    list: async () => [...definitions.map((entry) => ({ name: entry.name })), { name: 'broken', problems: [] }],
    definition: async (name: string) => definitions.find((entry) => entry.name === name)!,
    start: async (name: string, _inputs: Record<string, unknown>, options: StartOptions) => {
      started.push(`${name}:${options.trigger}`);
      return { id: 'r', workflow: name, status: 'running', trigger: options.trigger, inputs: {}, createdAt: 0 };
    },
    source: unused,
    validate: unused,
    save: unused,
    remove: unused,
    webhook: unused,
    wait: unused,
    cancel: unused,
    runs: unused,
    run: unused,
  };
}

describe('WorkflowSchedules', () => {
  it('starts each firing once, across two schedulers on one database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-workflow-schedules-'));
    dirs.push(dir);
    const stores = [0, 1].map(() => {
      const database = new SqliteDatabase(join(dir, DATABASE_FILE));
      databases.push(database);
      return sqliteRunStore(database);
    });
    const started: string[] = [];
    let now = Date.parse('2026-12-07T08:59:30Z');
    const schedulers = stores.map(
      (store) =>
        new WorkflowSchedules({
          service: service(started),
          store,
          logger,
          timeZone: 'UTC',
          pollMs: 1000,
          now: () => now,
        }),
    );
    now = Date.parse('2026-12-07T09:00:05Z');
    await Promise.all(schedulers.map((scheduler) => scheduler.check()));
    expect(started).toEqual(['hourly:schedule']);
    now = Date.parse('2026-12-07T09:30:00Z');
    await Promise.all(schedulers.map((scheduler) => scheduler.check()));
    expect(started).toEqual(['hourly:schedule']);
    now = Date.parse('2026-12-07T11:00:01Z');
    await Promise.all(schedulers.map((scheduler) => scheduler.check()));
    expect(started).toEqual(['hourly:schedule', 'hourly:schedule', 'hourly:schedule']);
  });
});
