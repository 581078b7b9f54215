// The audit store's one suite, run on both engines: entries newest first with paging, values as JSON, secrets kept
// only as the mask, long values cut, and the oldest entries dropped past the bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { CONFIG_SECRET_MASK } from '@aalis/session-client';
import { openDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import { AUDIT_KEEP, AUDIT_VALUE_CHARS, type AuditStore, postgresAuditStore, sqliteAuditStore } from './audit-store.js';

const engines: {
  name: string;
  available: boolean;
  open(): Promise<{ store: AuditStore; dispose(): Promise<void> }>;
}[] = [
  {
    name: 'sqlite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'aalis-audit-'));
      const opened = openDatabase(dir);
      return {
        store: sqliteAuditStore(opened.database),
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
      return { store: await postgresAuditStore(database), dispose: () => database.close() };
    },
  },
];

const owner = { platform: 'webui', userId: 'owner' };

for (const engine of engines) {
  describe.skipIf(!engine.available)(`audit store (${engine.name})`, () => {
    it('keeps who changed which key when, old and new value, newest first, in pages', async () => {
      const { store, dispose } = await engine.open();
      try {
        await store.append(
          [
            {
              actor: owner,
              action: 'config.set',
              key: 'plugins.agent.systemPrompt',
              old: 'a',
              new: 'b',
              secret: false,
            },
            { actor: owner, action: 'config.set', key: 'plugins.agent.limits', new: { rounds: 3 }, secret: false },
          ],
          1000,
        );
        await store.append(
          [{ actor: owner, action: 'plugin.disable', key: 'plugins.tools', old: true, new: false, secret: false }],
          2000,
        );
        const first = await store.list({ limit: 2 });
        expect(first.more).toBe(true);
        expect(first.entries.map((entry) => [entry.action, entry.key, entry.at])).toEqual([
          ['plugin.disable', 'plugins.tools', 2000],
          ['config.set', 'plugins.agent.limits', 1000],
        ]);
        expect(first.entries[1]).toMatchObject({ new: { rounds: 3 }, secret: false, actor: owner });
        expect('old' in first.entries[1]!).toBe(false);
        const rest = await store.list({ limit: 2, before: first.entries[1]!.id });
        expect(rest).toMatchObject({
          more: false,
          entries: [{ key: 'plugins.agent.systemPrompt', old: 'a', new: 'b' }],
        });
      } finally {
        await dispose();
      }
    });

    it('never stores a secret’s value, cuts long values and keeps only the newest entries', async () => {
      const { store, dispose } = await engine.open();
      try {
        await store.append(
          [
            {
              actor: owner,
              action: 'config.set',
              key: 'llm.apiKey',
              old: 'sk-old-secret',
              new: 'sk-new-secret',
              secret: true,
            },
            {
              actor: owner,
              action: 'config.set',
              key: 'plugins.agent.systemPrompt',
              new: 'x'.repeat(5000),
              secret: false,
            },
          ],
          1,
        );
        const { entries } = await store.list({ limit: 10 });
        expect(JSON.stringify(entries)).not.toContain('sk-old-secret');
        expect(JSON.stringify(entries)).not.toContain('sk-new-secret');
        expect(entries.find((entry) => entry.key === 'llm.apiKey')).toMatchObject({
          old: CONFIG_SECRET_MASK,
          new: CONFIG_SECRET_MASK,
          secret: true,
        });
        const long = entries.find((entry) => entry.key === 'plugins.agent.systemPrompt')!.new as string;
        expect(long).toBe(`${'x'.repeat(AUDIT_VALUE_CHARS)}…`);
        expect(long.endsWith('…')).toBe(true);
        // Past the bound, the oldest go.
        const many = Array.from({ length: AUDIT_KEEP }, (_, index) => ({
          actor: owner,
          action: 'config.set',
          key: `k${index}`,
          new: index,
          secret: false,
        }));
        await store.append(many, 2);
        const all = await store.list({ limit: 200 });
        expect(all.entries[0]!.key).toBe(`k${AUDIT_KEEP - 1}`);
        let oldest = all.entries.at(-1)!.id;
        let count = all.entries.length;
        for (let more = all.more; more; ) {
          const page = await store.list({ limit: 200, before: oldest });
          count += page.entries.length;
          oldest = page.entries.at(-1)?.id ?? oldest;
          more = page.more;
        }
        expect(count).toBe(AUDIT_KEEP);
      } finally {
        await dispose();
      }
    }, 60_000);
  });
}
