// plugin-gateway in multi-party rooms, with its trigger configuration and a session manager.
import { type AgentService, agent } from '@aalis/api-agent';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { type SessionInfo, type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, memorySink, provide, type ServiceHandle } from '@aalis/core';
import hooksPlugin from '@aalis/plugin-hooks';
import type { IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

const sessions: Record<string, SessionInfo> = {
  room: { id: 'room', kind: 'room', platform: 'qq', originChat: { multiParty: true }, createdAt: 0, updatedAt: 0 },
  dm: { id: 'dm', kind: 'room', platform: 'qq', originChat: { multiParty: false }, createdAt: 0, updatedAt: 0 },
};

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function boot(config: unknown) {
  const handled: IncomingMessage[] = [];
  let service!: ServiceHandle<GatewayService>;
  app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(hooksPlugin);
  app.plugin(plugin, config);
  app.plugin(
    definePlugin({
      name: 'fakes',
      uses: { provide, gateway },
      apply(handles) {
        service = handles.gateway;
        handles.provide.use.service(agent, {
          handleMessage: async (message: IncomingMessage) => {
            handled.push(message);
          },
        } as Partial<AgentService> as never);
        handles.provide.use.service(sessionManager, {
          settled: async () => {},
          rootOf: async (id: string) => sessions[id],
        } as Partial<SessionManagerService> as SessionManagerService);
      },
    }),
  );
  await app.start();
  return { gw: service.use, handled };
}

const message = (sessionId: string, content: string): IncomingMessage => ({
  sessionId,
  platform: 'qq',
  venue: 'g1',
  sender: { userId: 'u1' },
  content,
});

describe('plugin-gateway trigger phase in rooms', () => {
  it('drops unaddressed multi-party room messages when configured and passes those naming her', async () => {
    const { gw, handled } = await boot({ trigger: { names: ['Aalis'], unaddressed: 'drop' } });
    expect(await gw.receive(message('room', 'lunch?'))).toMatchObject({ outcome: 'dropped', phase: 'inbound:trigger' });
    expect(await gw.receive(message('room', 'Aalis, lunch?'))).toMatchObject({ outcome: 'dispatched' });
    expect(await gw.receive(message('dm', 'lunch?'))).toMatchObject({ outcome: 'dispatched' });
    expect(handled.map((entry) => [entry.sessionId, entry.triggerType])).toEqual([
      ['room', 'direct'],
      ['dm', 'direct'],
    ]);
  });

  it('passes unaddressed room messages on as ambient by default', async () => {
    const { gw, handled } = await boot({});
    await gw.receive(message('room', 'lunch?'));
    expect(handled[0]?.triggerType).toBe('ambient');
  });

  it('refuses an invalid trigger configuration', async () => {
    app = new App({ logSinks: [memorySink()] });
    app.plugin(hooksPlugin);
    const id = app.plugin(plugin, { trigger: { unaddressed: 'sometimes' } });
    await app.start();
    expect(app.stateOf(id)).toMatchObject({ state: 'error', error: { code: 'AALIS_CONFIG_INVALID' } });
  });
});
