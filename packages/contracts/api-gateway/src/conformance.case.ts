// Conformance suite of the gateway. An implementation's test calls
//   describeGatewayConformance('plugin-gateway', () => fixture)
// The fixture starts a real App with the implementation and what it requires (a hooks provider); the suite adds
// fakes of the agent, commands and session manager through provide, and registers middlewares through hooks.
import { type AgentService, agent } from '@aalis/api-agent';
import { type CommandsService, commands } from '@aalis/api-commands';
import { type HooksService, hooks } from '@aalis/api-hooks';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { type AnyPluginDefinition, type App, definePlugin, events, provide, type ServiceHandle } from '@aalis/core';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GatewayService, gateway, INBOUND_PHASES } from './gateway-service.js';

export interface GatewayFixture {
  /** Builds and starts an App with the implementation, what it requires (hooks) and `extras`. */
  start(extras: readonly AnyPluginDefinition[]): Promise<App>;
  stop(): Promise<void>;
}

interface Fakes {
  agent?: Partial<AgentService>;
  commands?: Partial<CommandsService>;
  sessionManager?: Partial<SessionManagerService>;
}

const incoming = (overrides: Partial<IncomingMessage> = {}): IncomingMessage => ({
  sessionId: 'direct-1',
  platform: 'test',
  sender: { userId: 'alice', displayName: 'Alice' },
  content: 'hello',
  messageId: 'm1',
  ...overrides,
});

const fakeCommands = (): Partial<CommandsService> => ({
  isCommand: (text) => text.startsWith('/'),
  execute: async (message) => {
    if (message.content === '/ping') return { handled: true, reply: 'pong' };
    if (message.content === '/quiet') return { handled: true };
    return { handled: false };
  },
});

export function describeGatewayConformance(
  name: string,
  createFixture: () => GatewayFixture | Promise<GatewayFixture>,
): void {
  describe(`gateway conformance: ${name}`, () => {
    let fixture: GatewayFixture;
    let service: ServiceHandle<GatewayService>;
    let hookService: HooksService;
    let outbound: OutgoingMessage[];
    let handled: IncomingMessage[];

    const boot = async (fakes: Fakes = {}) => {
      outbound = [];
      const extras: AnyPluginDefinition[] = [
        definePlugin({
          name: 'gateway-fakes',
          uses: { provide },
          apply({ provide }) {
            if (fakes.agent) provide.use.service(agent, fakes.agent as never);
            if (fakes.commands) provide.use.service(commands, fakes.commands as CommandsService);
            if (fakes.sessionManager) {
              provide.use.service(sessionManager, fakes.sessionManager as SessionManagerService);
            }
          },
        }),
        definePlugin({
          name: 'gateway-probe',
          uses: { gateway, hooks, events },
          apply(handles) {
            service = handles.gateway;
            hookService = handles.hooks.use;
            handles.events.use.on('outbound:message', (message) => {
              outbound.push(message);
            });
          },
        }),
      ];
      const app = await fixture.start(extras);
      expect(app.stateOf('gateway-probe').state).toBe('active');
      return service.use;
    };

    const recordingAgent = (): Partial<AgentService> => {
      handled = [];
      return {
        handleMessage: async (message) => {
          handled.push({ ...message });
        },
      };
    };

    beforeEach(async () => {
      fixture = await createFixture();
      handled = [];
    });

    afterEach(async () => {
      await fixture.stop();
    });

    it('runs command → flow → trigger → dispatch, then the agent', async () => {
      const order: string[] = [];
      const gw = await boot({
        agent: {
          handleMessage: async () => {
            order.push('agent');
          },
        },
      });
      for (const phase of INBOUND_PHASES) {
        hookService.middleware(phase, async (_context, next) => {
          order.push(phase);
          await next();
        });
      }
      const report = await gw.receive(incoming());
      expect(order).toEqual([...INBOUND_PHASES, 'agent']);
      expect(report).toMatchObject({ outcome: 'dispatched', phase: 'inbound:dispatch' });
    });

    it('numbers arrivals in increasing order and stamps the time', async () => {
      const gw = await boot({ agent: recordingAgent() });
      const first = incoming();
      const second = incoming({ content: 'again' });
      const a = await gw.receive(first);
      const b = await gw.receive(second);
      expect(b.arrival).toBeGreaterThan(a.arrival);
      expect(first.arrival).toBe(a.arrival);
      expect(second.arrival).toBe(b.arrival);
      expect(handled.map((message) => message.arrival)).toEqual([a.arrival, b.arrival]);
      expect(handled[0]?.timestamp).toBeTypeOf('number');
      const concurrent = await Promise.all([1, 2, 3].map(() => gw.receive(incoming())));
      expect(new Set(concurrent.map((report) => report.arrival)).size).toBe(3);
    });

    it('answers a command, dispatching the reply outbound, and stops there', async () => {
      const order: string[] = [];
      const gw = await boot({ agent: recordingAgent(), commands: fakeCommands() });
      hookService.middleware('inbound:flow', async (_context, next) => {
        order.push('flow');
        await next();
      });
      const report = await gw.receive(incoming({ content: '/ping', venue: 'v1' }));
      expect(report).toMatchObject({ outcome: 'command', phase: 'inbound:command' });
      expect(outbound).toEqual([
        { sessionId: 'direct-1', platform: 'test', venue: 'v1', content: 'pong', kind: 'system', replyTo: 'm1' },
      ]);
      expect(handled).toEqual([]);
      expect(order).toEqual([]);
      expect(await gw.receive(incoming({ content: '/quiet' }))).toMatchObject({ outcome: 'command' });
      expect(outbound).toHaveLength(1);
      expect(await gw.receive(incoming({ content: '/unknown-to-commands' }))).toMatchObject({ outcome: 'dispatched' });
      expect(await gw.receive(incoming({ content: '/ping', source: 'scheduler' }))).toMatchObject({
        outcome: 'dispatched',
      });
      expect(handled.map((message) => message.content)).toEqual(['/unknown-to-commands', '/ping']);
    });

    it('drops an input at the phase whose middleware does not call next', async () => {
      const gw = await boot({ agent: recordingAgent() });
      hookService.middleware('inbound:flow', async (context, next) => {
        if (context.message.content !== 'muted') await next();
      });
      expect(await gw.receive(incoming({ content: 'muted' }))).toMatchObject({
        outcome: 'dropped',
        phase: 'inbound:flow',
      });
      expect(await gw.receive(incoming({ content: 'fine' }))).toMatchObject({ outcome: 'dispatched' });
      expect(handled.map((message) => message.content)).toEqual(['fine']);
    });

    it('sets triggerType: direct outside multi-party rooms, keeps a given one, leaves injections alone', async () => {
      const gw = await boot({ agent: recordingAgent() });
      await gw.receive(incoming());
      await gw.receive(incoming({ triggerType: 'immediate' }));
      await gw.receive(incoming({ source: 'scheduler' }));
      expect(handled.map((message) => message.triggerType)).toEqual(['direct', 'immediate', undefined]);
    });

    it('tells the flow phase the trigger verdict early, once, and applies the same one in the trigger phase', async () => {
      const gw = await boot({ agent: recordingAgent() });
      const early: (string | undefined)[] = [];
      hookService.middleware('inbound:flow', async (context, next) => {
        expect(await context.judgeTrigger()).toBe('set');
        expect(await context.judgeTrigger()).toBe('set');
        early.push(context.message.triggerType);
        await next();
      });
      await gw.receive(incoming());
      expect(early).toEqual(['direct']);
      expect(handled.map((message) => message.triggerType)).toEqual(['direct']);
    });

    it('lets middlewares rewrite the message before the agent sees it', async () => {
      const gw = await boot({ agent: recordingAgent() });
      hookService.middleware('inbound:flow', async (context, next) => {
        context.message.content = `${context.message.content}!`;
        await next();
      });
      await gw.receive(incoming());
      expect(handled[0]?.content).toBe('hello!');
    });

    it('resolves only once the agent has settled the input', async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let settled = false;
      const gw = await boot({ agent: { handleMessage: () => gate } });
      const pending = gw.receive(incoming()).then((report) => {
        settled = true;
        return report;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      release();
      expect(await pending).toMatchObject({ outcome: 'dispatched' });
    });

    it('reports no-agent when nobody answers', async () => {
      const gw = await boot();
      expect(await gw.receive(incoming())).toMatchObject({ outcome: 'no-agent', phase: 'inbound:dispatch' });
    });

    it('waits while the session is being deleted', async () => {
      const order: string[] = [];
      let release: () => void = () => {};
      const deletion = new Promise<void>((resolve) => {
        release = resolve;
      });
      const gw = await boot({
        agent: {
          handleMessage: async () => {
            order.push('agent');
          },
        },
        sessionManager: {
          settled: async (sessionId) => {
            if (sessionId === 'being-deleted') await deletion;
          },
          rootOf: async () => undefined,
        },
      });
      const pending = gw.receive(incoming({ sessionId: 'being-deleted' }));
      await new Promise((resolve) => setImmediate(resolve));
      order.push('deleted');
      release();
      await pending;
      expect(order).toEqual(['deleted', 'agent']);
    });

    it('reports a throwing phase as failed without throwing', async () => {
      const gw = await boot({ agent: recordingAgent() });
      hookService.middleware('inbound:trigger', async () => {
        throw new Error('broken middleware');
      });
      expect(await gw.receive(incoming())).toMatchObject({ outcome: 'failed', phase: 'inbound:trigger' });
      expect(handled).toEqual([]);
    });

    it('refuses malformed inbound and outbound messages with coded errors', async () => {
      const gw = await boot({ agent: recordingAgent() });
      for (const bad of [
        { ...incoming(), sessionId: '' },
        { ...incoming(), platform: undefined },
        { ...incoming(), content: 5 },
        { ...incoming(), sender: null },
      ]) {
        await expect(gw.receive(bad as never)).rejects.toMatchObject({ code: 'AALIS_GATEWAY_MESSAGE_INVALID' });
      }
      await expect(gw.dispatchOutbound({ sessionId: 's', content: 'x', kind: 'loud' } as never)).rejects.toMatchObject({
        code: 'AALIS_GATEWAY_OUTBOUND_INVALID',
      });
      // A notice's catalogue text must be one (a key, parameters that are strings, numbers or texts).
      await expect(
        gw.dispatchOutbound({
          sessionId: 's',
          content: 'x',
          kind: 'system',
          text: { key: 'a', params: { b: null } },
        } as never),
      ).rejects.toMatchObject({ code: 'AALIS_GATEWAY_OUTBOUND_INVALID', details: { field: 'text' } });
      expect(handled).toEqual([]);
      expect(outbound).toEqual([]);
    });

    it('sends outbound messages through the outbound:dispatch chain; its default emits outbound:message', async () => {
      const gw = await boot();
      const message: OutgoingMessage = {
        sessionId: 's1',
        platform: 'test',
        content: 'hi',
        kind: 'reply',
        turnId: 't1',
      };
      expect(await gw.dispatchOutbound(message)).toEqual({ emitted: true });
      expect(outbound).toEqual([message]);
      hookService.middleware('outbound:dispatch', async (context, next) => {
        if (context.message.content === 'secret') return;
        context.message = { ...context.message, content: context.message.content.toUpperCase() };
        await next();
      });
      expect(await gw.dispatchOutbound({ ...message, content: 'secret' })).toEqual({ emitted: false });
      expect(await gw.dispatchOutbound({ ...message, content: 'loud' })).toEqual({ emitted: true });
      expect(outbound.map((entry) => entry.content)).toEqual(['hi', 'LOUD']);
    });
  });
}
