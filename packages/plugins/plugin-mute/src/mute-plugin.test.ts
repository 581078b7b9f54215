// plugin-mute on both storage engines with the real gateway, hooks, commands, authority and storage plugins: /mute
// and /unmute by level, mute keywords said to her, messages kept as context while muted, turn output withheld,
// the stop without `by` and with `queued`, a mute surviving a restart and seen by a second process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AbortOptions, type AgentService, agent } from '@aalis/api-agent';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, events, memorySink, provide } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import gatewayPlugin from '@aalis/plugin-gateway';
import hooksPlugin from '@aalis/plugin-hooks';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import mutePlugin from './index.js';

interface Booted {
  app: App;
  gw: GatewayService;
  handled: IncomingMessage[];
  outbound: OutgoingMessage[];
  aborts: [string, AbortOptions | undefined][];
}

const OWNER = { platform: 'qq', userId: 'boss' };
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function boot(dataDir: string, database?: string, mute: Record<string, unknown> = {}): Promise<Booted> {
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  const booted = { app, handled: [], outbound: [], aborts: [] } as Omit<Booted, 'gw'> & { gw?: GatewayService };
  app.plugin(storagePlugin, { dataDir, ...(database ? { database } : {}) });
  app.plugin(hooksPlugin);
  app.plugin(commandsPlugin);
  app.plugin(authorityPlugin, { owners: [OWNER] });
  app.plugin(gatewayPlugin, { trigger: { names: ['Aalis'] } });
  app.plugin(mutePlugin, { cacheMs: 50, ...mute });
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { gateway, provide, events },
      apply(handles) {
        booted.gw = handles.gateway.use;
        handles.events.use.on('outbound:message', (message) => {
          booted.outbound.push(message);
        });
        handles.provide.use.service(agent, {
          handleMessage: async (message: IncomingMessage) => {
            booted.handled.push(message);
          },
          abort: (sessionId: string, options?: AbortOptions) => {
            booted.aborts.push([sessionId, options]);
            return true;
          },
        } as Partial<AgentService> as never);
        // Group sessions are multi-party rooms (what the trigger rules read); the rest private chats.
        handles.provide.use.service(sessionManager, {
          settled: async () => {},
          rootOf: async (id: string) => ({
            id,
            kind: 'room',
            platform: 'qq',
            originChat: { multiParty: id.includes(':group:') },
            createdAt: 0,
            updatedAt: 0,
          }),
        } as Partial<SessionManagerService> as SessionManagerService);
      },
    }),
  );
  await app.start();
  await app.settled();
  stops.push(() => app.stop());
  if (!booted.gw) throw new Error(`not started: ${JSON.stringify(app.states())}`);
  return booted as Booted;
}

const say = (userId: string, content: string, extra: Partial<IncomingMessage> = {}): IncomingMessage => ({
  sessionId: 'qq:private:1',
  platform: 'qq',
  sender: { userId },
  content,
  ...extra,
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`plugin-mute (${engine})`, () => {
    const setup = async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'aalis-mute-'));
      stops.push(() => rm(dataDir, { recursive: true, force: true }));
      const database = engine === 'postgres' ? await throwawayDatabase() : undefined;
      return { dataDir, database };
    };

    it('/mute by an owner stops the turn with queued inputs and no `by`; she then reads and does not speak', async () => {
      const { dataDir, database } = await setup();
      const a = await boot(dataDir, database);
      await a.gw.receive(say('boss', '/mute 10m'));
      expect(a.aborts).toEqual([['qq:private:1', { queued: true, reason: 'mute' }]]);
      expect(a.outbound.at(-1)?.content).toMatch(/keep quiet until/);
      await a.gw.receive(say('alice', 'are you there?'));
      expect(a.handled.map((message) => [message.content, message.triggerType])).toEqual([
        ['are you there?', 'ambient'],
      ]);
      // A turn's reply (it carries a turn id) does not go out while muted; a command's reply does.
      await a.gw.dispatchOutbound({
        sessionId: 'qq:private:1',
        platform: 'qq',
        content: 'late reply',
        kind: 'reply',
        turnId: 't1',
      });
      expect(a.outbound.map((message) => message.content)).not.toContain('late reply');
      await a.gw.receive(say('boss', '/unmute'));
      expect(a.outbound.at(-1)?.content).toBe('The mute is lifted; I can speak again.');
      await a.gw.receive(say('alice', 'back?'));
      expect(a.handled.at(-1)).toMatchObject({ content: 'back?', triggerType: 'direct' });
    });

    it('refuses /mute below the level and a duration it cannot read', async () => {
      const { dataDir, database } = await setup();
      const a = await boot(dataDir, database);
      await a.gw.receive(say('alice', '/mute'));
      expect(a.outbound.at(-1)?.content).toMatch(/needs authority level 1/);
      await a.gw.receive(say('boss', '/mute soonish'));
      expect(a.outbound.at(-1)?.content).toMatch(/"soonish" is not understood/);
      expect(a.aborts).toEqual([]);
    });

    it('a mute keyword said to her mutes; said about something else it does not', async () => {
      const { dataDir, database } = await setup();
      const a = await boot(dataDir, database);
      const room = { sessionId: 'qq:group:9', venue: '9' };
      await a.gw.receive(say('carol', 'tell him to shut up', { ...room }));
      expect(a.aborts).toEqual([]);
      await a.gw.receive(say('carol', 'Aalis, shut up', { ...room }));
      expect(a.aborts).toEqual([['qq:group:9', { queued: true, reason: 'mute' }]]);
      expect(a.handled.at(-1)).toMatchObject({ content: 'Aalis, shut up', triggerType: 'ambient' });
    });

    it('survives a restart and is seen by a second process on the same database', async () => {
      const { dataDir, database } = await setup();
      const a = await boot(dataDir, database);
      await a.gw.receive(say('boss', '/mute'));
      await a.app.stop();
      const b = await boot(dataDir, database);
      await b.gw.receive(say('alice', 'hello?'));
      expect(b.handled.at(-1)).toMatchObject({ triggerType: 'ambient' });
      // Another process on the same database (its own data directory on PostgreSQL; the same one on SQLite).
      const otherDir = database ? await mkdtemp(join(tmpdir(), 'aalis-mute-b-')) : dataDir;
      if (database) stops.push(() => rm(otherDir, { recursive: true, force: true }));
      const c = await boot(otherDir, database);
      await c.gw.receive(say('boss', '/unmute'));
      for (let i = 0; i < 50; i++) {
        await b.gw.receive(say('alice', `ping ${i}`));
        if (b.handled.at(-1)?.triggerType === 'direct') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(b.handled.at(-1)?.triggerType).toBe('direct');
    });
  });
}
