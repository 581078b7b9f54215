import { PassThrough } from 'node:stream';
import type { TokenUsageEvent } from '@aalis/api-agent';
import { type CommandDefinition, type CommandsService, commands } from '@aalis/api-commands';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import type { PlatformInfo, PlatformService } from '@aalis/api-platform';
import { platform } from '@aalis/api-platform';
import { type SessionInit, type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, type Events, events, memorySink, provide, type TextRef, translate } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { createCliPlatform } from './cli-platform.js';

/** Stand-ins for the services the platform uses: a gateway that answers like an agent, and registries. */
function fakes() {
  const received: IncomingMessage[] = [];
  const registered: CommandDefinition[] = [];
  const platforms: PlatformInfo[] = [];
  const ensured: SessionInit[] = [];
  let bus!: Events;
  const plugin = definePlugin({
    name: '@test/fakes',
    provides: [gateway, commands, platform, sessionManager],
    uses: { provide, events },
    apply({ provide, events }) {
      bus = events.use;
      const service: GatewayService = {
        async receive(message) {
          received.push(message);
          if (message.content.startsWith('stopped there')) {
            // Its turn ran on another process and was recorded as stopped there; the same event for another session and
            // for another terminal's line is not this terminal's.
            bus.emit('agent:stopped-elsewhere', { message: { ...message, sessionId: 'elsewhere' } });
            const other = { ...message, metadata: { aalisTerminal: 'another-terminal' } };
            bus.emit('agent:stopped-elsewhere', { message: other });
            bus.emit('agent:stopped-elsewhere', { message });
            return { arrival: received.length, outcome: 'dispatched', phase: 'inbound:dispatch' };
          }
          const turnId = `turn-${received.length}`;
          bus.emit('outbound:stream', { sessionId: message.sessionId, turnId, reasoningDelta: 'hmm' });
          bus.emit('outbound:stream', { sessionId: 'elsewhere', turnId: 'x', delta: 'NOT MINE' });
          bus.emit('outbound:message', { sessionId: 'elsewhere', kind: 'reply', content: 'NOT MINE' });
          bus.emit('outbound:message', {
            sessionId: message.sessionId,
            platform: 'cli',
            kind: 'reply',
            content: `echo: ${message.content}`,
            turnId,
          });
          bus.emit('outbound:stream', { sessionId: message.sessionId, turnId, done: true });
          return { arrival: received.length, outcome: 'dispatched', phase: 'inbound:dispatch' };
        },
        dispatchOutbound: async () => ({ emitted: true }),
      };
      provide.use.service(gateway, service);
      provide.use.service(commands, {
        register: (definition: CommandDefinition) => {
          registered.push(definition);
          return () => {};
        },
      } as unknown as CommandsService);
      provide.use.service(platform, {
        register: (info: PlatformInfo) => {
          platforms.push(info);
          return () => {};
        },
      } as unknown as PlatformService);
      provide.use.service(sessionManager, {
        ensure: async (init: SessionInit) => {
          ensured.push(init);
          return { ...init, createdAt: 0, updatedAt: 0 };
        },
      } as unknown as SessionManagerService);
    },
  });
  return { plugin, received, registered, platforms, ensured, bus: () => bus };
}

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
});

async function boot(
  mode: 'lines' | 'interactive',
  section: Record<string, unknown> = {},
  session?: string,
  tty = false,
) {
  const input = Object.assign(new PassThrough(), tty ? { isTTY: true, setRawMode: () => {} } : {});
  const output = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 80 } : {});
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  const services = fakes();
  const cli = createCliPlatform({ mode, input, output, ...(session ? { session } : {}), env: { NO_COLOR: '1' } });
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  apps.push(app);
  app.plugin(services.plugin);
  app.plugin(cli.plugin, section);
  await app.start();
  await app.settled();
  return { ...services, cli, input, output: () => printed, app };
}

describe('the cli platform plugin', () => {
  it('chats line by line in its session, printing only its own replies', async () => {
    const { cli, input, output, received, ensured, platforms } = await boot('lines', { userId: 'ada' });
    const finished = cli.run();
    input.end('hello\nsecond\n');
    await expect(finished).resolves.toBe('end-of-input');
    expect(received.map((message) => [message.sessionId, message.content])).toEqual([
      ['cli:ada', 'hello'],
      ['cli:ada', 'second'],
    ]);
    expect(output()).toBe('echo: hello\necho: second\n');
    expect(ensured).toEqual([{ id: 'cli:ada', kind: 'cli', platform: 'cli', title: expect.any(String) }]);
    expect(platforms).toEqual([
      { id: 'cli', type: 'local', capabilities: { streaming: true, quoting: false, rooms: false } },
    ]);
  });

  it('prints the stopped-turn line for its own line whose turn was stopped on another process, in both modes', async () => {
    const lines = await boot('lines', { userId: 'ada' });
    const finished = lines.cli.run();
    lines.input.end('stopped there\nhello\n');
    await expect(finished).resolves.toBe('end-of-input');
    expect(lines.output()).toBe('⏹ This turn was stopped\necho: hello\n');
    const interactive = await boot('interactive', { userId: 'ada' });
    const running = interactive.cli.run();
    interactive.input.write('stopped there\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    interactive.cli.close();
    await running;
    expect(interactive.output().split('⏹ This turn was stopped').length).toBe(2);
  });

  it('piped input that ended waits while a background task of its session runs; Ctrl-D at a terminal does not', async () => {
    const task = (status: 'running' | 'done') => ({
      sessionId: 'cli:ada',
      task: {
        id: 'st-1',
        kind: 'subtask',
        sessionId: 'cli:ada',
        title: 'survey',
        status,
        createdAt: 0,
        stoppable: true,
      },
    });
    const settledWithin = (promise: Promise<unknown>, ms: number) =>
      Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(resolve, ms, false))]);
    for (const mode of ['lines', 'interactive'] as const) {
      const piped = await boot(mode, { userId: 'ada' });
      const finished = piped.cli.run();
      piped.input.write('start a survey\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      piped.bus().emit('background:changed', task('running'));
      piped.input.end();
      expect(await settledWithin(finished, 800)).toBe(false);
      piped.bus().emit('background:changed', task('done'));
      await expect(finished).resolves.toBe('end-of-input');
    }
    const atTerminal = await boot('interactive', { userId: 'ada' }, undefined, true);
    const finished = atTerminal.cli.run();
    await new Promise((resolve) => setTimeout(resolve, 50));
    atTerminal.bus().emit('background:changed', task('running'));
    atTerminal.input.end();
    expect(await settledWithin(finished, 2_000)).toBe(true);
  });

  it('talks in the session given by --session over the configured one', async () => {
    const { cli, input, received } = await boot('lines', { session: 'configured' }, 'explicit');
    expect(cli.sessionId()).toBe('explicit');
    const finished = cli.run();
    input.end('x\n');
    await finished;
    expect(received[0]!.sessionId).toBe('explicit');
  });

  it('answers /usage with the latest usage line and /reasoning with the latest reasoning of the session', async () => {
    const { cli, input, registered, bus } = await boot('lines');
    const command = (name: string) => registered.find((definition) => definition.name === name)!;
    const run = (name: string, sessionId = 'cli:local') =>
      command(name).handler({ sessionId, t: (text: string | TextRef) => translate(text, 'en') } as never);
    expect(run('usage')).toEqual({ key: 'cli.usage.none' });
    expect(run('reasoning')).toEqual({ key: 'cli.reasoning.none' });
    const finished = cli.run();
    input.end('think\n');
    await finished;
    expect(run('reasoning')).toBe('hmm');
    bus().emit('token:usage', {
      sessionId: 'cli:local',
      turnId: 't',
      usageRatio: 0.1,
      used: 10,
      contextWindow: 100,
      trimmed: false,
      parts: [],
      breakdown: { reservedForReply: 5 },
    } as unknown as TokenUsageEvent);
    expect(run('usage')).toContain('[token-usage:OK] 10/100 (10.0%)');
  });

  it('rejects a bad section', async () => {
    const { app } = await boot('lines', { reasoning: 'loud' });
    expect(app.stateOf('@aalis/plugin-cli')).toMatchObject({ state: 'error' });
  });
});
