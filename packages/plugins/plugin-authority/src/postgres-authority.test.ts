// plugin-authority on PostgreSQL: the authority conformance suite (the same as on SQLite), and a level set by one
// process seen by another on the same database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuthorityService, authority } from '@aalis/api-authority';
import { describeAuthorityConformance } from '@aalis/api-authority/conformance';
import { App, definePlugin, memorySink } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import type { Identity } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import authorityPlugin from './index.js';

async function boot(dataDir: string, database: string, owners: Identity[]) {
  const app = new App({ logSinks: [memorySink()] });
  let service: AuthorityService | undefined;
  app.plugin(storagePlugin, { dataDir, database });
  app.plugin(authorityPlugin, { owners });
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { authority },
      apply({ authority }) {
        service = authority.use;
      },
    }),
  );
  await app.start();
  if (!service) throw new Error(`authority did not start: ${JSON.stringify(app.states())}`);
  return { app, service };
}

describeAuthorityConformance('plugin-authority (PostgreSQL)', async ({ owners }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'aalis-authority-pg-'));
  const database = await throwawayDatabase();
  let current = await boot(dataDir, database, owners);
  return {
    service: current.service,
    async restart() {
      await current.app.stop();
      current = await boot(dataDir, database, owners);
      return current.service;
    },
    async close() {
      await current.app.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

describe('plugin-authority on one PostgreSQL from two processes', () => {
  it('a level set through one instance is seen by the other', async () => {
    const database = await throwawayDatabase();
    const owner = { platform: 'qq', userId: 'boss' };
    const dirs = [await mkdtemp(join(tmpdir(), 'aalis-a-')), await mkdtemp(join(tmpdir(), 'aalis-b-'))];
    // Two pools, as two processes would have: the second instance gets its own URL spelling.
    const a = await boot(dirs[0]!, database, [owner]);
    const b = await boot(dirs[1]!, `${database}?application_name=b`, [owner]);
    const alice = { platform: 'qq', userId: 'alice' };
    await a.service.setLevel({ identity: alice, level: 3, caller: a.service.callerOf(owner) });
    for (let i = 0; i < 100 && b.service.levelOf(alice) !== 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(b.service.levelOf(alice)).toBe(3);
    expect(b.service.levels()).toEqual([{ identity: alice, level: 3 }]);
    await a.app.stop();
    await b.app.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
});
