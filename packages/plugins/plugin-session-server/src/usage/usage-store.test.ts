// The usage store's one suite, run on both engines: sums per day (in the reader's offset), model, account, session
// and platform over a period, unpriced calls counted apart, and pruning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { openDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import { postgresUsageStore, sqliteUsageStore, type UsageCall, type UsageStore } from './usage-store.js';

const engines: {
  name: string;
  available: boolean;
  open(): Promise<{ store: UsageStore; dispose(): Promise<void> }>;
}[] = [
  {
    name: 'sqlite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-usage-'));
      const opened = openDatabase(dir);
      return {
        store: sqliteUsageStore(opened.database),
        async dispose() {
          opened.release();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresBinDir() !== undefined,
    async open() {
      const database = new PostgresDatabase(await throwawayDatabase());
      return { store: await postgresUsageStore(database), dispose: () => database.close() };
    },
  },
];

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 10, 23, 30);

function call(overrides: Partial<UsageCall>): UsageCall {
  return {
    at: START,
    sessionId: 'webui:alice:1',
    platform: 'webui',
    account: 'webui:alice',
    model: 'openai/small',
    purpose: 'chat',
    promptTokens: 100,
    completionTokens: 10,
    cachedPromptTokens: 40,
    cost: 0.5,
    currency: 'USD',
    ...overrides,
  };
}

for (const engine of engines) {
  describe.runIf(engine.available)(`usage store on ${engine.name}`, () => {
    it('sums calls per day, model, account, session and platform within the period', async () => {
      const { store, dispose } = await engine.open();
      try {
        await store.record(call({}));
        await store.record(call({ at: START + DAY, model: 'openai/big', promptTokens: 1000, cost: 2 }));
        await store.record(
          call({
            at: START + DAY + 1,
            sessionId: 'telegram:private:7',
            platform: 'telegram',
            account: 'telegram:7',
            cost: undefined,
            currency: undefined,
          }),
        );
        await store.record(call({ at: START - 40 * DAY }));
        const period = { from: START - DAY, to: START + 2 * DAY, limit: 100 };

        const days = await store.sums({ ...period, groupBy: 'day', offsetMs: 0 });
        expect(days.map((sum) => [sum.key, sum.calls, sum.promptTokens, sum.cost, sum.unpriced])).toEqual([
          ['2026-01-10', 1, 100, 0.5, 0],
          ['2026-01-11', 2, 1100, 2, 1],
        ]);
        // One hour ahead of UTC, 23:30 is already the next day.
        const ahead = await store.sums({ ...period, groupBy: 'day', offsetMs: 3_600_000 });
        expect(ahead.map((sum) => sum.key)).toEqual(['2026-01-11', '2026-01-12']);

        const models = await store.sums({ ...period, groupBy: 'model', offsetMs: 0 });
        expect(models.map((sum) => [sum.key, sum.calls, sum.completionTokens, sum.cachedPromptTokens])).toEqual([
          ['openai/big', 1, 10, 40],
          ['openai/small', 2, 20, 80],
        ]);
        const accounts = await store.sums({ ...period, groupBy: 'account', offsetMs: 0 });
        expect(accounts.map((sum) => [sum.key, sum.calls])).toEqual([
          ['webui:alice', 2],
          ['telegram:7', 1],
        ]);
        const platforms = await store.sums({ ...period, groupBy: 'platform', offsetMs: 0 });
        expect(platforms.map((sum) => [sum.key, sum.currency ?? null])).toEqual([
          ['webui', 'USD'],
          ['telegram', null],
        ]);
        const sessions = await store.sums({ ...period, groupBy: 'session', offsetMs: 0, limit: 1 });
        expect(sessions.map((sum) => sum.key)).toEqual(['webui:alice:1']);

        expect(await store.prune(START - DAY)).toBe(1);
        expect(await store.prune(START - DAY)).toBe(0);
      } finally {
        await dispose();
      }
    });
  });
}
