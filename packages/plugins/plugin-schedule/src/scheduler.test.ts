// The scheduler on both engines: bad times are clear errors, a due firing is claimed exactly once — by one
// scheduler after a restart, and by exactly one of several schedulers with their own connections to one database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Events, I18n } from '@aalis/core';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import type { IncomingMessage } from '@aalis/schema-message';
import { DATABASE_FILE, SqliteDatabase } from '@aalis/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresScheduleStore } from './postgres-schedule-store.js';
import type { ScheduleStore } from './schedule-store.js';
import { scheduleErrors } from './schedule-texts.js';
import { Scheduler } from './scheduler.js';
import { sqliteScheduleStore } from './sqlite-schedule-store.js';

const i18n: I18n = {
  locale: 'zh-CN',
  t: (text) => (typeof text === 'string' ? text : `${text.key}:${JSON.stringify(text.params)}`),
};
const events = { emit: () => {} } as unknown as Events;
const logger = { info() {}, warn() {}, error() {}, debug() {} } as never;

interface Engine {
  name: string;
  available: boolean;
  /** A fresh database; `connect()` opens one more independent connection to it. */
  create(): Promise<{ connect(): Promise<ScheduleStore>; dispose(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    available: true,
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-schedule-'));
      const opened: SqliteDatabase[] = [];
      return {
        async connect() {
          const database = new SqliteDatabase(join(dir, DATABASE_FILE));
          opened.push(database);
          return sqliteScheduleStore(database);
        },
        async dispose() {
          for (const database of opened) database.close();
          rmSync(dir, { recursive: true, force: true });
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
          return postgresScheduleStore(database);
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

function scheduler(store: ScheduleStore, fired: IncomingMessage[], now: () => number) {
  const instance = new Scheduler({
    store,
    handleMessage: async (message) => void fired.push(message),
    events,
    i18n,
    logger,
    timeZone: 'Asia/Shanghai',
    pollIntervalMs: 60_000,
    now,
  });
  cleanup.push(() => instance.stop());
  return instance;
}

const request = {
  sessionId: 's1',
  platform: 'cli',
  prompt: 'drink water',
  createdBy: { platform: 'cli', userId: 'ada' },
};

for (const engine of engines) {
  describe.skipIf(!engine.available)(`scheduler on ${engine.name}`, () => {
    it('refuses a cron expression that never fires, a bad expression, an unknown zone and a past moment', async () => {
      const db = await engine.create();
      cleanup.push(db.dispose);
      const one = scheduler(await db.connect(), [], () => Date.UTC(2026, 11, 1, 12));
      const codeOf = (promise: Promise<unknown>) =>
        promise.then(
          () => 'none',
          (error: { code: string }) => error.code,
        );
      expect(await codeOf(one.create({ ...request, cron: '0 0 30 2 *' }))).toBe('AALIS_SCHEDULE_NEVER_FIRES');
      expect(await codeOf(one.create({ ...request, cron: 'every day' }))).toBe('AALIS_SCHEDULE_CRON_INVALID');
      expect(await codeOf(one.create({ ...request, cron: '0 9 * * *', timeZone: 'Mars/Olympus' }))).toBe(
        'AALIS_SCHEDULE_TIME_ZONE_UNKNOWN',
      );
      expect(await codeOf(one.create({ ...request, at: '2020-01-01T09:00' }))).toBe('AALIS_SCHEDULE_TIME_PAST');
      expect(await codeOf(one.create({ ...request, at: '2027-01-01T09:00', inMinutes: 5 }))).toBe(
        'AALIS_SCHEDULE_WHEN_AMBIGUOUS',
      );
      expect(scheduleErrors.AALIS_SCHEDULE_NEVER_FIRES({ cron: '0 0 30 2 *' }).localized('zh-CN')).toBe(
        'cron 表达式 0 0 30 2 * 永远不会触发（如 2 月 30 日）。请换一个会到来的时间。',
      );
      expect(await one.list('s1')).toEqual([]);
    });

    it('reads moments and cron expressions in the time zone', async () => {
      const db = await engine.create();
      cleanup.push(db.dispose);
      const one = scheduler(await db.connect(), [], () => Date.UTC(2026, 11, 1, 12));
      const at = await one.create({ ...request, at: '2026-12-02T09:00' });
      expect(at.nextAt).toBe(Date.UTC(2026, 11, 2, 1));
      const cron = await one.create({ ...request, cron: '0 9 * * *', timeZone: 'Europe/Paris' });
      expect(cron.nextAt).toBe(Date.UTC(2026, 11, 2, 8));
    });

    it('fires a due reminder once, also when the scheduler restarts on the same database', async () => {
      const db = await engine.create();
      cleanup.push(db.dispose);
      let now = Date.UTC(2026, 11, 1, 12);
      const fired: IncomingMessage[] = [];
      const first = scheduler(await db.connect(), fired, () => now);
      const row = await first.create({ ...request, inMinutes: 10 });
      await first.poll();
      expect(fired).toEqual([]);
      await first.stop();
      now += 11 * 60_000;
      const restarted = scheduler(await db.connect(), fired, () => now);
      await restarted.poll();
      await restarted.poll();
      const again = scheduler(await db.connect(), fired, () => now + 60_000);
      await again.poll();
      expect(fired).toHaveLength(1);
      expect(fired[0]).toMatchObject({
        sessionId: 's1',
        platform: 'cli',
        source: 'schedule',
        triggerType: 'scheduled',
        actor: { platform: 'cli', userId: 'ada' },
        content: `schedule.fire:${JSON.stringify({ id: row.id, prompt: 'drink water' })}`,
      });
      expect((await again.list('s1'))[0]).toMatchObject({ status: 'done', fires: 1, nextAt: null });
    });

    it('three schedulers with their own connections fire each due firing exactly once', async () => {
      const db = await engine.create();
      cleanup.push(db.dispose);
      let now = Date.UTC(2026, 11, 1, 12);
      const fired: IncomingMessage[] = [];
      const schedulers = [
        scheduler(await db.connect(), fired, () => now),
        scheduler(await db.connect(), fired, () => now),
        scheduler(await db.connect(), fired, () => now),
      ];
      await schedulers[0]!.create({ ...request, inMinutes: 1 });
      await schedulers[0]!.create({ ...request, prompt: 'stand up', cron: '*/5 * * * *' });
      for (let round = 0; round < 3; round++) {
        now += 5 * 60_000;
        await Promise.all(schedulers.flatMap((one) => [one.poll(), one.poll()]));
      }
      const prompts = fired.map((message) => String(message.content).includes('stand up'));
      expect(prompts.filter((standUp) => !standUp)).toHaveLength(1);
      expect(prompts.filter((standUp) => standUp)).toHaveLength(3);
    });

    it('a cancelled task never fires', async () => {
      const db = await engine.create();
      cleanup.push(db.dispose);
      let now = Date.UTC(2026, 11, 1, 12);
      const fired: IncomingMessage[] = [];
      const one = scheduler(await db.connect(), fired, () => now);
      const row = await one.create({ ...request, inMinutes: 1 });
      expect(await one.cancel(row)).toBe(true);
      expect(await one.cancel(row)).toBe(false);
      now += 120_000;
      await one.poll();
      expect(fired).toEqual([]);
      expect((await one.list('s1'))[0]?.status).toBe('cancelled');
    });
  });
}
