// plugin-authority against the authority conformance suite, on a real App with plugin-storage in a temp dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuthorityService, authority } from '@aalis/api-authority';
import { describeAuthorityConformance } from '@aalis/api-authority/conformance';
import { commands } from '@aalis/api-commands';
import { App, definePlugin, memorySink } from '@aalis/core';
import commandsPlugin from '@aalis/plugin-commands';
import storagePlugin from '@aalis/plugin-storage';
import type { Identity } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import authorityPlugin from './index.js';

async function boot(dataDir: string, owners: Identity[]) {
  const app = new App({ logSinks: [memorySink()] });
  let service: AuthorityService | undefined;
  app.plugin(storagePlugin, { dataDir });
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

describeAuthorityConformance('plugin-authority (SQLite)', async ({ owners }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'aalis-authority-'));
  let current = await boot(dataDir, owners);
  return {
    service: current.service,
    async restart() {
      await current.app.stop();
      current = await boot(dataDir, owners);
      return current.service;
    },
    async close() {
      await current.app.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

describe('plugin-authority commands', () => {
  it('/level shows levels and /level.set sets them under the setLevel rule', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'aalis-authority-'));
    const app = new App({ logSinks: [memorySink()], locale: 'en' });
    let run: ((text: string, userId: string) => Promise<string | undefined>) | undefined;
    app.plugin(storagePlugin, { dataDir });
    app.plugin(authorityPlugin, { owners: [{ platform: 'qq', userId: 'boss' }] });
    app.plugin(commandsPlugin);
    app.plugin(
      definePlugin({
        name: 'probe',
        uses: { commands },
        apply({ commands }) {
          run = async (text, userId) =>
            (await commands.use.execute({ sessionId: 's', platform: 'qq', sender: { userId }, content: text })).reply;
        },
      }),
    );
    await app.start();
    expect(await run!('/level', 'boss')).toBe('qq:boss is an owner (above every level).');
    expect(await run!('/level.set qq alice 2', 'bob')).toContain('AALIS_COMMAND_FORBIDDEN');
    expect(await run!('/level.set qq alice 2', 'boss')).toBe('The authority level of qq:alice is now 2.');
    expect(await run!('/level', 'alice')).toBe('The authority level of qq:alice is 2.');
    expect(await run!('/level.set qq bob 2', 'alice')).toContain('AALIS_AUTHORITY_FORBIDDEN');
    expect(await run!('/level.set qq bob 1', 'alice')).toBe('The authority level of qq:bob is now 1.');
    expect(await run!('/level.set qq bob x', 'boss')).toBe(
      'Usage: /level.set <platform> <userId> <level>, the level an integer ≥ 0.',
    );
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
});
