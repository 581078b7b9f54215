// plugin-flow-control in the gateway's flow phase with the real gateway, hooks, commands, authority and storage
// plugins and a clock of the test's: cooldowns, token buckets, quiet hours, one notice per person per window, owners
// exempt, and every held input passed on as ambient context with a log line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentService, agent } from '@aalis/api-agent';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { type SessionFieldsService, sessionFields, venueTarget } from '@aalis/api-session-settings';
import { App, definePlugin, events, type LogRecord, memorySink, optional, provide } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import gatewayPlugin from '@aalis/plugin-gateway';
import hooksPlugin from '@aalis/plugin-hooks';
import sessionSettingsPlugin from '@aalis/plugin-session-settings';
import storagePlugin from '@aalis/plugin-storage';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { createFlowControlPlugin } from './index.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function boot(flow: Record<string, unknown>, { layers = false }: { layers?: boolean } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'aalis-flow-'));
  stops.push(() => rm(dataDir, { recursive: true, force: true }));
  const clock = { now: Date.parse('2026-12-07T12:00:00Z') };
  const sink = memorySink('debug');
  const app = new App({ logSinks: [sink], locale: 'en' });
  const handled: IncomingMessage[] = [];
  const outbound: OutgoingMessage[] = [];
  let gw: GatewayService | undefined;
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(authorityPlugin, { owners: [{ platform: 'qq', userId: 'boss' }] });
  app.plugin(gatewayPlugin, { trigger: { names: ['Aalis'] } });
  if (layers) app.plugin(sessionSettingsPlugin);
  let fields: SessionFieldsService | undefined;
  app.plugin(createFlowControlPlugin({ now: () => clock.now }), flow);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { gateway, provide, events, sessionFields: optional(sessionFields) },
      apply(handles) {
        gw = handles.gateway.use;
        if (handles.sessionFields.available) fields = handles.sessionFields.use;
        handles.events.use.on('outbound:message', (message) => {
          outbound.push(message);
        });
        handles.provide.use.service(agent, {
          handleMessage: async (message: IncomingMessage) => {
            handled.push(message);
          },
        } as Partial<AgentService> as never);
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
  if (!gw) throw new Error(`not started: ${JSON.stringify(app.states())}`);
  const service = gw;
  let id = 0;
  const say = (userId: string, content: string, room = 'qq:group:1') =>
    service.receive({
      sessionId: room,
      platform: 'qq',
      venue: room.split(':').at(-1)!,
      sender: { userId },
      content,
      messageId: `m${++id}`,
    });
  const inject = (content: string, room = 'qq:group:1') =>
    service.receive({ sessionId: room, platform: 'qq', sender: {}, content, source: 'schedule' });
  const triggers = () => handled.map((message) => `${message.sender.userId}:${message.triggerType}`);
  const held = () =>
    (sink as unknown as { records: LogRecord[] }).records
      .map((record) => record.message)
      .filter((line) => line.startsWith('flow: held'));
  return { clock, say, inject, handled, outbound, triggers, held, fields: () => fields };
}

describe('plugin-flow-control', () => {
  it('takes each room’s cooldown, rate and quiet hours from its settings layers over the configuration', async () => {
    const { clock, say, triggers, outbound, fields } = await boot({ cooldown: { roomSeconds: 0 } }, { layers: true });
    const service = fields()!;
    const host = { via: 'host' as const };
    // Group 1 (its venue layer) cools down for a minute; group 2 is rate-limited per session; group 3 is quiet now.
    await service.set({
      layer: 'venue',
      target: venueTarget({ platform: 'qq', venue: '1' }),
      key: 'flowRoomCooldownSeconds',
      value: 60,
      caller: host,
    });
    await service.set({ layer: 'session', target: 'qq:group:2', key: 'flowRoomPerMinute', value: 1, caller: host });
    await service.set({ layer: 'session', target: 'qq:group:3', key: 'flowQuietFrom', value: '11:00', caller: host });
    await service.set({ layer: 'session', target: 'qq:group:3', key: 'flowQuietTo', value: '13:00', caller: host });
    await expect(
      service.set({ layer: 'session', target: 'qq:group:3', key: 'flowQuietTo', value: '25:00', caller: host }),
    ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_INVALID_VALUE' });
    expect(service.field('flowPersonCooldownSeconds')?.field).toMatchObject({ level: 1, default: 0 });
    await say('alice', 'Aalis 1');
    await say('bob', 'Aalis 2');
    await say('alice', 'Aalis 3', 'qq:group:2');
    await say('bob', 'Aalis 4', 'qq:group:2');
    await say('alice', 'Aalis 5', 'qq:group:3');
    await say('alice', 'Aalis 6', 'qq:group:4');
    await say('bob', 'Aalis 7', 'qq:group:4');
    expect(triggers()).toEqual([
      'alice:direct',
      'bob:ambient',
      'alice:direct',
      'bob:ambient',
      'alice:ambient',
      'alice:direct',
      'bob:direct',
    ]);
    expect(outbound.map((message) => message.content)).toContain(
      "It's quiet hours (11:00–13:00); I'm not speaking now. I saw this one and kept it.",
    );
    clock.now += 60_000;
    await say('bob', 'Aalis 8');
    expect(triggers().at(-1)).toBe('bob:direct');
  });

  it('cools a room down after an addressed input; held inputs go on as context with one notice per person', async () => {
    const { clock, say, outbound, triggers, held } = await boot({ cooldown: { roomSeconds: 30 } });
    await say('alice', 'Aalis, hi');
    await say('bob', 'Aalis, me too');
    await say('bob', 'Aalis, hello??');
    await say('carol', 'just chatting');
    clock.now += 30_000;
    await say('bob', 'Aalis, now?');
    expect(triggers()).toEqual(['alice:direct', 'bob:ambient', 'bob:ambient', 'carol:ambient', 'bob:direct']);
    expect(outbound.map((message) => message.content)).toEqual([
      'I just answered; ask me again in 30 s. I saw this one and kept it.',
    ]);
    expect(outbound[0]).toMatchObject({ sessionId: 'qq:group:1', kind: 'system', replyTo: 'm2' });
    expect(held()).toHaveLength(2);
    expect(held()[0]).toMatch(/^flow: held #\d+ session=qq:group:1 rule=cooldown.room retryAfterMs=30000 notice$/);
  });

  it('cools each person down in their room, not the others', async () => {
    const { say, triggers } = await boot({ cooldown: { personSeconds: 60 } });
    await say('alice', 'Aalis 1');
    await say('alice', 'Aalis 2');
    await say('bob', 'Aalis 3');
    await say('alice', 'Aalis 4', 'qq:group:2');
    expect(triggers()).toEqual(['alice:direct', 'alice:ambient', 'bob:direct', 'alice:direct']);
  });

  it('limits a person by token bucket across rooms, refilling over time; owners pass', async () => {
    const { clock, say, triggers } = await boot({ rateLimit: { person: { perMinute: 2, burst: 2 } } });
    await say('alice', 'Aalis a');
    await say('alice', 'Aalis b', 'qq:group:2');
    await say('alice', 'Aalis c');
    await say('boss', 'Aalis d');
    await say('boss', 'Aalis e');
    await say('boss', 'Aalis f');
    clock.now += 30_000;
    await say('alice', 'Aalis g');
    expect(triggers()).toEqual([
      'alice:direct',
      'alice:direct',
      'alice:ambient',
      'boss:direct',
      'boss:direct',
      'boss:direct',
      'alice:direct',
    ]);
  });

  it('limits a room and a platform', async () => {
    const room = await boot({ rateLimit: { room: { perMinute: 1 } } });
    await room.say('alice', 'Aalis a');
    await room.say('bob', 'Aalis b');
    await room.say('bob', 'Aalis c', 'qq:group:2');
    expect(room.triggers()).toEqual(['alice:direct', 'bob:ambient', 'bob:direct']);
    const platform = await boot({ rateLimit: { platform: { perMinute: 1 } } });
    await platform.say('alice', 'Aalis a');
    await platform.say('bob', 'Aalis b', 'qq:group:2');
    expect(platform.triggers()).toEqual(['alice:direct', 'bob:ambient']);
    expect(platform.held()[0]).toMatch(/rule=rate.platform/);
  });

  it('keeps quiet hours in their time zone, with a notice naming them', async () => {
    const { clock, say, triggers, outbound } = await boot({
      quietHours: { from: '19:00', to: '21:00', timeZone: 'Asia/Shanghai' },
    });
    clock.now = Date.parse('2026-12-07T11:30:00Z'); // 19:30 in Shanghai
    await say('alice', 'Aalis?');
    clock.now = Date.parse('2026-12-07T13:00:00Z'); // 21:00
    await say('alice', 'Aalis!');
    expect(triggers()).toEqual(['alice:ambient', 'alice:direct']);
    expect(outbound[0]?.content).toBe(
      "It's quiet hours (19:00–21:00); I'm not speaking now. I saw this one and kept it.",
    );
  });

  it('does not gate unaddressed chatter or injections', async () => {
    const { say, inject, handled, triggers, held } = await boot({ cooldown: { roomSeconds: 60 } });
    await say('alice', 'lunch?');
    await say('alice', 'Aalis, lunch?');
    await inject('remind the room');
    expect(triggers()).toEqual(['alice:ambient', 'alice:direct', 'undefined:undefined']);
    expect(held()).toEqual([]);
    expect(handled).toHaveLength(3);
  });
});
