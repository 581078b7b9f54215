// plugin-session-settings on PostgreSQL: the session settings conformance suite (the same as on SQLite), and a value
// written through one instance read by another on the same database (its copy is dropped by NOTIFY).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authority } from '@aalis/api-authority';
import { type SessionFieldsService, sessionFields } from '@aalis/api-session-settings';
import { describeSessionSettingsConformance } from '@aalis/api-session-settings/conformance';
import { App, definePlugin, memorySink, optional } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import type { Identity } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import settingsPlugin from './index.js';

async function boot(options: {
  dataDir: string;
  database: string;
  owners: Identity[];
  levels: { identity: Identity; level: number }[];
  platformTypes: Record<string, string>;
}): Promise<{ app: App; service: SessionFieldsService }> {
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  let service: SessionFieldsService | undefined;
  let setLevels: (() => Promise<void>) | undefined;
  app.plugin(storagePlugin, { dataDir: options.dataDir, database: options.database });
  app.plugin(authorityPlugin, { owners: options.owners });
  app.plugin(commandsPlugin);
  app.plugin(settingsPlugin, { platformTypes: options.platformTypes });
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { sessionFields, authority: optional(authority) },
      apply(handles) {
        service = handles.sessionFields.use;
        setLevels = async () => {
          if (!handles.authority.available) return;
          const authorityService = handles.authority.use;
          for (const { identity, level } of options.levels) {
            if (authorityService.levelOf(identity) !== level)
              await authorityService.setLevel({
                identity,
                level,
                caller: authorityService.callerOf(options.owners[0]),
              });
          }
        };
      },
    }),
  );
  await app.start();
  if (!service || !setLevels) throw new Error(`plugins did not start: ${JSON.stringify(app.states())}`);
  await setLevels();
  return { app, service };
}

describeSessionSettingsConformance(
  'plugin-session-settings (PostgreSQL)',
  async ({ owners, levels, platformTypes }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'aalis-settings-pg-'));
    const database = await throwawayDatabase();
    let current = await boot({ dataDir, database, owners, levels, platformTypes });
    return {
      service: current.service,
      async restart() {
        await current.app.stop();
        current = await boot({ dataDir, database, owners, levels, platformTypes });
        return current.service;
      },
      async close() {
        await current.app.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
);

describe('plugin-session-settings on one PostgreSQL from two processes', () => {
  it('a session value written through one instance is read by the other', async () => {
    const database = await throwawayDatabase();
    const owner = { platform: 'qq', userId: 'owner' };
    const field = {
      key: 'historyLimit',
      type: 'number' as const,
      label: 'History limit',
      visibility: 'advanced' as const,
      level: 1,
      default: 0,
    };
    const dirs = [await mkdtemp(join(tmpdir(), 'aalis-a-')), await mkdtemp(join(tmpdir(), 'aalis-b-'))];
    const common = { owners: [owner], levels: [], platformTypes: {} };
    const a = await boot({ dataDir: dirs[0]!, database, ...common });
    const b = await boot({ dataDir: dirs[1]!, database: `${database}?application_name=b`, ...common });
    a.service.register(field);
    b.service.register(field);
    const scope = { sessionId: 's1' };
    expect((await b.service.get(scope, 'historyLimit')).value).toBe(0); // b now holds a copy of the session layer
    await a.service.set({ layer: 'session', target: 's1', key: 'historyLimit', value: 7, caller: { via: 'host' } });
    let seen: unknown;
    for (let i = 0; i < 100 && seen !== 7; i++) {
      seen = (await b.service.get(scope, 'historyLimit')).value;
      if (seen !== 7) await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe(7);
    await a.app.stop();
    await b.app.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
});
