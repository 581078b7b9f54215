// One conformance suite for the run store, on SQLite and on PostgreSQL: runs and steps kept as written, the first
// end of a run wins, a schedule's firing claimed once across connections.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { DATABASE_FILE, SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresRunStore } from './postgres-run-store.js';
import type { RunRow, RunStore } from './run-store.js';
import { sqliteRunStore } from './sqlite-run-store.js';

interface Engine {
  name: string;
  available: boolean;
  create(): Promise<{ connect(): Promise<RunStore>; dispose(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    available: true,
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-workflow-'));
      const opened: SqliteDatabase[] = [];
      return {
        async connect() {
          const database = new SqliteDatabase(join(dir, DATABASE_FILE));
          opened.push(database);
          return sqliteRunStore(database);
        },
        async dispose() {
          for (const database of opened) database.close();
          rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresBinDir() !== undefined,
    async create() {
      const url = await throwawayDatabase();
      const opened: PostgresDatabase[] = [];
      return {
        async connect() {
          const database = new PostgresDatabase(url);
          opened.push(database);
          return postgresRunStore(database);
        },
        async dispose() {
          for (const database of opened) await database.close();
        },
      };
    },
  },
];

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const run = (id: string, createdAt: number, workflow = 'report'): RunRow => ({
  id,
  workflow,
  status: 'running',
  trigger: 'manual',
  inputs: { city: '北京' },
  definition: { name: workflow, inputs: {}, nodes: [], triggers: { schedule: [], webhook: false } },
  by: { platform: 'webui', userId: 'owner' },
  createdAt,
});

for (const engine of engines) {
  describe.skipIf(!engine.available)(`run store on ${engine.name}`, () => {
    async function open() {
      const created = await engine.create();
      cleanup.push(() => created.dispose());
      return created;
    }

    it('keeps runs and lists them newest first, by workflow, and the running ones oldest first', async () => {
      const store = await (await open()).connect();
      await store.insertRun(run('r1', 1000));
      await store.insertRun(run('r2', 2000, 'other'));
      await store.insertRun(run('r3', 3000));
      expect(await store.getRun('r1')).toEqual(run('r1', 1000));
      expect(await store.getRun('nope')).toBeUndefined();
      expect((await store.listRuns({ limit: 10 })).map((row) => row.id)).toEqual(['r3', 'r2', 'r1']);
      expect((await store.listRuns({ workflow: 'report', limit: 1 })).map((row) => row.id)).toEqual(['r3']);
      expect(await store.endRun('r2', { status: 'succeeded', output: { text: 'ok' }, endedAt: 2500 })).toBe(true);
      expect((await store.runningRuns(10)).map((row) => row.id)).toEqual(['r1', 'r3']);
      expect(await store.getRun('r2')).toMatchObject({ status: 'succeeded', output: { text: 'ok' }, endedAt: 2500 });
    });

    it('the first end of a run wins', async () => {
      const store = await (await open()).connect();
      await store.insertRun(run('r1', 1000));
      expect(await store.endRun('r1', { status: 'cancelled', endedAt: 1100 })).toBe(true);
      expect(await store.endRun('r1', { status: 'failed', error: 'late', endedAt: 1200 })).toBe(false);
      expect(await store.getRun('r1')).toMatchObject({ status: 'cancelled', endedAt: 1100 });
    });

    it('keeps each step as last written, visible from another connection', async () => {
      const created = await open();
      const store = await created.connect();
      const other = await created.connect();
      await store.insertRun(run('r1', 1000));
      await store.putStep({
        runId: 'r1',
        key: 'a',
        nodeId: 'a',
        kind: 'tool',
        status: 'running',
        input: { x: 1 },
        attempts: 1,
        startedAt: 1001,
      });
      await store.putStep({
        runId: 'r1',
        key: 'm[0]',
        nodeId: 'm',
        kind: 'agent',
        status: 'succeeded',
        output: '好',
        attempts: 1,
        startedAt: 1002,
        endedAt: 1003,
      });
      await store.putStep({
        runId: 'r1',
        key: 'a',
        nodeId: 'a',
        kind: 'tool',
        status: 'failed',
        input: { x: 1 },
        error: 'boom',
        attempts: 2,
        startedAt: 1001,
        endedAt: 1010,
      });
      expect(await other.steps('r1')).toEqual([
        {
          runId: 'r1',
          key: 'a',
          nodeId: 'a',
          kind: 'tool',
          status: 'failed',
          input: { x: 1 },
          error: 'boom',
          attempts: 2,
          startedAt: 1001,
          endedAt: 1010,
        },
        {
          runId: 'r1',
          key: 'm[0]',
          nodeId: 'm',
          kind: 'agent',
          status: 'succeeded',
          output: '好',
          attempts: 1,
          startedAt: 1002,
          endedAt: 1003,
        },
      ]);
    });

    it('a firing of a schedule is claimed by exactly one of several connections', async () => {
      const created = await open();
      const stores = await Promise.all([created.connect(), created.connect(), created.connect()]);
      const claims = await Promise.all(stores.map((store) => store.claimFiring('report', 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await stores[0]!.claimFiring('report', 120_000)).toBe(true);
    });
  });
}
