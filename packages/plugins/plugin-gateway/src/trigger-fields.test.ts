// The trigger policy on the session-settings layers: the real session-settings, commands, authority and storage
// plugins; a venue overrides the configured names, `/session.set` changes a room's keywords, the flow phase's early
// judgement is the one the trigger phase applies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentService, agent } from '@aalis/api-agent';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { type SessionFieldsService, sessionFields } from '@aalis/api-session-settings';
import { App, definePlugin, memorySink, provide } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import hooksPlugin from '@aalis/plugin-hooks';
import sessionSettingsPlugin from '@aalis/plugin-session-settings';
import storagePlugin from '@aalis/plugin-storage';
import type { IncomingMessage } from '@aalis/schema-message';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

let dataDir: string;
let app: App;
let gw: GatewayService;
let fields: SessionFieldsService;
let handled: IncomingMessage[];
let seenInFlow: (string | undefined)[];

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aalis-trigger-fields-'));
  handled = [];
  seenInFlow = [];
  app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(commandsPlugin);
  app.plugin(authorityPlugin, { owners: [{ platform: 'qq', userId: 'root' }] });
  app.plugin(sessionSettingsPlugin);
  app.plugin(plugin, { trigger: { names: ['Aalis'], unaddressed: 'drop' } });
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { gateway, provide, sessionFields, hooks },
      apply(handles) {
        gw = handles.gateway.use;
        fields = handles.sessionFields.use;
        handles.hooks.use.middleware('inbound:flow', async (context, next) => {
          await context.judgeTrigger();
          seenInFlow.push(context.message.triggerType);
          await next();
        });
        handles.provide.use.service(agent, {
          handleMessage: async (message: IncomingMessage) => {
            handled.push(message);
          },
        } as Partial<AgentService> as never);
      },
    }),
  );
  await app.start();
});

afterEach(async () => {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const from = (userId: string, content: string, extra: Partial<IncomingMessage> = {}): IncomingMessage => ({
  sessionId: 'onebot:group:1',
  platform: 'qq',
  venue: '1',
  sender: { userId },
  content,
  ...extra,
});

describe('trigger policy as session fields', () => {
  it('registers each setting as a session field with the configured defaults', async () => {
    const scope = { sessionId: 'onebot:group:1', platform: 'qq', venue: '1' };
    expect((await fields.get(scope, 'triggerNames')).value).toEqual(['Aalis']);
    expect((await fields.get(scope, 'triggerPoke')).value).toBe(true);
    expect((await fields.get(scope, 'joinChance')).value).toBe(0);
    expect((await fields.get(scope, 'joinIntervalSeconds')).value).toBe(300);
  });

  it('turns pokes off on a venue layer: a poke there is ambient, elsewhere direct; judged once, in the flow phase', async () => {
    await fields.set({
      layer: 'venue',
      target: 'qq/1',
      key: 'triggerPoke',
      value: false,
      caller: { via: 'host' },
    });
    await gw.receive(from('u1', '', { triggerType: 'poke' }));
    await gw.receive(from('u1', '', { triggerType: 'poke', sessionId: 'onebot:group:2', venue: '2' }));
    expect(seenInFlow).toEqual(['ambient', 'direct']);
    expect(handled.map((message) => message.triggerType)).toEqual(['ambient', 'direct']);
  });

  it('refuses a join chance outside 0–1 with the field’s own words', async () => {
    await expect(
      fields.set({ layer: 'session', target: 'onebot:group:1', key: 'joinChance', value: 2, caller: { via: 'host' } }),
    ).rejects.toThrow(/0 to 1/);
  });
});
