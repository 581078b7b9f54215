// plugin-commands on a real App (plugin-storage in a temp dir, plugin-authority, plugin-memory-sqlite): the
// conformance suite, /help, /clear (with and without an agent), unknown commands and refusals.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, type BoundAgent } from '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { type CommandsService, commands } from '@aalis/api-commands';
import { describeCommandsConformance } from '@aalis/api-commands/conformance';
import { type MemoryService, memory } from '@aalis/api-memory';
import { type AnyPluginDefinition, App, definePlugin, events, memorySink, provide } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import hooksPlugin from '@aalis/plugin-hooks';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import storagePlugin from '@aalis/plugin-storage';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import commandsPlugin from './index.js';

const owner: Identity = { platform: 'qq', userId: 'owner' };
const alice: Identity = { platform: 'qq', userId: 'alice' };

interface Booted {
  app: App;
  service: CommandsService;
  memory: MemoryService;
  dataDir: string;
  close(): Promise<void>;
}

async function boot({
  owners = [owner],
  levels = [],
  commandsConfig = {},
  extra = [],
}: {
  owners?: Identity[];
  levels?: { identity: Identity; level: number }[];
  commandsConfig?: Record<string, unknown>;
  extra?: AnyPluginDefinition[];
} = {}): Promise<Booted> {
  const dataDir = await mkdtemp(join(tmpdir(), 'aalis-commands-'));
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  const handles: { service?: CommandsService; memory?: MemoryService; setLevels?: () => Promise<void> } = {};
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(memoryPlugin);
  app.plugin(authorityPlugin, { owners });
  app.plugin(commandsPlugin, commandsConfig);
  for (const definition of extra) app.plugin(definition);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { commands, memory, authority },
      apply({ commands, memory, authority }) {
        handles.service = commands.use;
        handles.memory = memory.use;
        handles.setLevels = async () => {
          for (const { identity, level } of levels) {
            await authority.use.setLevel({ identity, level, caller: authority.use.callerOf(owners[0]) });
          }
        };
      },
    }),
  );
  await app.start();
  if (!handles.service || !handles.memory || !handles.setLevels) {
    throw new Error(`plugins did not start: ${JSON.stringify(app.states())}`);
  }
  await handles.setLevels();
  return {
    app,
    service: handles.service,
    memory: handles.memory,
    dataDir,
    async close() {
      await app.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describeCommandsConformance('plugin-commands', async ({ owners, levels }) => {
  const booted = await boot({ owners, levels });
  return { service: booted.service, locale: 'en', close: booted.close };
});

function message(content: string, from: Identity = alice, sessionId = 'session-1'): IncomingMessage {
  return { sessionId, platform: from.platform, sender: { userId: from.userId }, content };
}

describe('plugin-commands', () => {
  let booted: Booted | undefined;
  afterEach(async () => {
    await booted?.close();
    booted = undefined;
  });

  it('/help lists the commands the caller may use, with usage', async () => {
    booted = await boot();
    const { service } = booted;
    service.register({ name: 'secret', description: 'owner stuff', level: 'owner', handler: () => 'x' });
    service.register({ name: 'model', description: 'list models', usage: '[keyword] [-p <n>]', handler: () => 'x' });
    const forAlice = (await service.execute(message('/help'))).reply!;
    expect(forAlice).toContain('/model [keyword] [-p <n>] — list models');
    expect(forAlice).toContain('/clear');
    expect(forAlice).not.toContain('/secret');
    const forOwner = (await service.execute(message('/help', owner))).reply!;
    expect(forOwner).toContain('/secret — owner stuff');
    const detail = (await service.execute(message('/help model'))).reply!;
    expect(detail).toContain('/model [keyword] [-p <n>]');
    expect(detail).toContain('list models');
  });

  it('/help pages with -p and explains an invalid page number', async () => {
    booted = await boot({ commandsConfig: { helpPageSize: 2 } });
    const { service } = booted;
    for (const name of ['a1', 'a2', 'a3']) service.register({ name, description: name, handler: () => name });
    const first = (await service.execute(message('/help'))).reply!;
    expect(first).toContain('/a1');
    expect(first).toContain('Page 1/3');
    const third = (await service.execute(message('/help -p 3'))).reply!;
    expect(third).toContain('/help');
    expect(third).not.toContain('/a1');
    expect((await service.execute(message('/help -p x'))).reply).toContain('AALIS_COMMAND_PAGE_INVALID');
    expect((await service.execute(message('/help -p 9'))).reply).toContain('AALIS_COMMAND_PAGE_OUT_OF_RANGE');
  });

  it('answers an unknown command with a hint at /help, in the app locale', async () => {
    booted = await boot();
    const { reply } = await booted.service.execute(message('/frobnicate now'));
    expect(reply).toBe(
      'Unknown command /frobnicate. Send /help to see the commands you can use. (AALIS_COMMAND_UNKNOWN)',
    );
  });

  it('refuses /clear below the configured level', async () => {
    booted = await boot({ commandsConfig: { clearLevel: 1 } });
    const { reply } = await booted.service.execute(message('/clear'));
    expect(reply).toBe(
      '/clear needs authority level 1; yours is 0. Ask an owner if you need it. (AALIS_COMMAND_FORBIDDEN)',
    );
  });

  it('rejects an invalid clearLevel in the config', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'aalis-commands-'));
    const app = new App({ logSinks: [memorySink()] });
    app.plugin(storagePlugin, { dataDir });
    app.plugin(commandsPlugin, { clearLevel: 'admin' });
    await app.start();
    expect(app.stateOf('@aalis/plugin-commands')).toMatchObject({
      state: 'error',
      error: { code: 'AALIS_CONFIG_INVALID' },
    });
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("/clear clears this session's history through memory, leaving other sessions", async () => {
    booted = await boot();
    const { service, memory } = booted;
    await memory.append('session-1', [{ role: 'user', content: 'one' }]);
    await memory.append('session-2', [{ role: 'user', content: 'two' }]);
    const { reply } = await service.execute(message('/clear'));
    expect(reply).toBe("This session's message history is cleared.");
    expect(await memory.countHistory('session-1')).toBe(0);
    expect(await memory.countHistory('session-2')).toBe(1);
  });

  it('/clear with an argument it does not take (the -t forgotten, a mistyped flag) is a coded error and clears nothing', async () => {
    booted = await boot();
    const { service, memory } = booted;
    await memory.append('session-1', [{ role: 'user', content: 'one' }]);
    const { reply } = await service.execute(message('/clear vector'));
    expect(reply).toBe(
      '/clear does not take "vector", so nothing was cleared. Send /clear to clear the message history, or /clear -t <type> for one kind only (e.g. /clear -t vector). (AALIS_COMMAND_CLEAR_ARGUMENT)',
    );
    expect((await service.execute(message('/clear -x vector'))).reply).toContain('"-x"');
    expect(await memory.countHistory('session-1')).toBe(1);
  });

  it('/clear goes through AgentService.clearing when an agent is present', async () => {
    const calls: { sessionIds: readonly string[] | undefined; reason?: string; countDuring?: number }[] = [];
    let memoryHandle: MemoryService | undefined;
    const fakeAgent = definePlugin({
      name: 'fake-agent',
      provides: [agent],
      uses: { provide, memory },
      apply({ provide, memory: memoryService }) {
        memoryHandle = memoryService.use;
        const service: BoundAgent = {
          handleMessage: async () => {},
          abort: () => false,
          async clearing(sessionIds, clear, reason) {
            const call: (typeof calls)[number] = { sessionIds, reason };
            calls.push(call);
            await clear();
            call.countDuring = await memoryHandle!.countHistory('session-1');
          },
          assignModel: async () => {},
          registerPreprocessor: () => () => {},
        };
        provide.use.service(agent, service);
      },
    });
    booted = await boot({ extra: [fakeAgent] });
    await booted.memory.append('session-1', [{ role: 'user', content: 'one' }]);
    await booted.service.execute(message('/clear'));
    expect(calls).toEqual([{ sessionIds: ['session-1'], reason: '/clear', countDuring: 0 }]);
  });

  it('/clear -t vector does not clear the history; listeners of commands:clear get the type', async () => {
    const received: string[][] = [];
    const calls: string[] = [];
    const vector = definePlugin({
      name: 'vector-memory',
      uses: { events },
      apply({ events }) {
        events.use.on('commands:clear', ({ types, acknowledge }) => {
          received.push([...types]);
          if (types.includes('vector')) acknowledge('vector');
        });
      },
    });
    const fakeAgent = definePlugin({
      name: 'fake-agent',
      provides: [agent],
      uses: { provide },
      apply({ provide }) {
        provide.use.service(agent, {
          handleMessage: async () => {},
          abort: () => false,
          clearing: async () => {
            calls.push('clearing');
          },
          assignModel: async () => {},
          registerPreprocessor: () => () => {},
        } satisfies BoundAgent);
      },
    });
    booted = await boot({ extra: [vector, fakeAgent] });
    await booted.memory.append('session-1', [{ role: 'user', content: 'one' }]);
    const { reply } = await booted.service.execute(message('/clear -t vector,graph'));
    expect(received).toEqual([['vector', 'graph']]);
    expect(calls).toEqual([]);
    expect(await booted.memory.countHistory('session-1')).toBe(1);
    expect(reply).toBe('Cleared: vector.\nNo plugin handles these types: graph.');
    await booted.service.execute(message('/clear -t context,vector'));
    expect(calls).toEqual(['clearing']);
  });

  it('unregisters the commands of a plugin when it deactivates', async () => {
    const extra = definePlugin({
      name: 'extra',
      uses: { commands },
      apply({ commands }) {
        commands.use.register({ name: 'ping', description: 'ping', handler: () => 'pong' });
      },
    });
    booted = await boot({ extra: [extra] });
    expect((await booted.service.execute(message('/ping'))).reply).toBe('pong');
    await booted.app.remove('extra');
    expect((await booted.service.execute(message('/ping'))).reply).toContain('AALIS_COMMAND_UNKNOWN');
  });
});
