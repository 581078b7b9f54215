// plugin-session-settings on a real App (plugin-storage in a temp dir, plugin-authority, plugin-commands): the
// conformance suite, the /session commands, events, database checks and restart persistence.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authority } from '@aalis/api-authority';
import { type CommandsService, commands } from '@aalis/api-commands';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { type AnySessionField, type SessionFieldsService, sessionFields } from '@aalis/api-session-settings';
import { describeSessionSettingsConformance } from '@aalis/api-session-settings/conformance';
import { storage } from '@aalis/api-storage';
import {
  type AnyPluginDefinition,
  App,
  definePlugin,
  type EventMap,
  events,
  memorySink,
  optional,
  provide,
} from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import personaPlugin from '@aalis/plugin-persona';
import sessionManagerPlugin from '@aalis/plugin-session-manager';
import storagePlugin from '@aalis/plugin-storage';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import settingsPlugin from './index.js';

const owner: Identity = { platform: 'qq', userId: 'owner' };
const member: Identity = { platform: 'qq', userId: 'member' };
const stranger: Identity = { platform: 'qq', userId: 'stranger' };

const agentFields: AnySessionField[] = [
  {
    key: 'llm',
    type: 'llm-ref',
    label: { key: 'test.llm' },
    visibility: 'composer',
    level: 1,
    describeUnset: () => 'follows the service preference',
  },
  {
    key: 'maxToolIterations',
    type: 'number',
    label: 'Max tool iterations',
    visibility: 'advanced',
    level: 'owner',
    validate: (value) => (Number.isInteger(value) && value >= 1 ? undefined : 'an integer ≥ 1'),
  },
  { key: 'historyLimit', type: 'number', label: 'History limit', visibility: 'advanced', level: 'owner', default: 0 },
  { key: 'enabledToolGroups', type: 'string[]', label: 'Tool groups', visibility: 'common', level: 1, default: ['*'] },
  { key: 'streaming', type: 'boolean', label: 'Streaming', visibility: 'advanced', level: 0 },
  { key: 'note', type: 'string', label: 'Note', visibility: 'advanced', level: 0 },
];

/** A plugin that registers fields through its handle (registrar: undone when it deactivates). */
const fieldOwner = definePlugin({
  name: 'field-owner',
  uses: { sessionFields },
  apply({ sessionFields }) {
    for (const field of agentFields) sessionFields.use.register(field);
  },
});

interface Booted {
  app: App;
  service: SessionFieldsService;
  commands: CommandsService;
  changes: EventMap['settings:changed'][];
  rows(): unknown[];
  stop(): Promise<void>;
}

async function boot({
  dataDir,
  owners = [owner],
  levels = [{ identity: member, level: 1 }],
  platformTypes = {},
  withAuthority = true,
  extra = [fieldOwner],
}: {
  dataDir: string;
  owners?: Identity[];
  levels?: { identity: Identity; level: number }[];
  platformTypes?: Record<string, string>;
  withAuthority?: boolean;
  extra?: AnyPluginDefinition[];
}): Promise<Booted> {
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  const changes: EventMap['settings:changed'][] = [];
  const found: Partial<Pick<Booted, 'service' | 'commands' | 'rows'>> & { setLevels?: () => Promise<void> } = {};
  app.plugin(storagePlugin, { dataDir });
  if (withAuthority) app.plugin(authorityPlugin, { owners });
  app.plugin(commandsPlugin);
  app.plugin(settingsPlugin, { platformTypes });
  for (const definition of extra) app.plugin(definition);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { sessionFields, commands, storage, events, authority: optional(authority) },
      apply(handles) {
        found.service = handles.sessionFields.use;
        found.commands = handles.commands.use;
        found.rows = () =>
          handles.storage.use
            .database()
            .connection.prepare('SELECT layer, target, key, value FROM session_settings ORDER BY layer, target, key')
            .all();
        handles.events.use.on('settings:changed', (change) => {
          changes.push(change);
        });
        found.setLevels = async () => {
          if (!handles.authority.available) return;
          const service = handles.authority.use;
          for (const { identity, level } of levels) {
            if (service.levelOf(identity) !== level)
              await service.setLevel({ identity, level, caller: service.callerOf(owners[0]) });
          }
        };
      },
    }),
  );
  await app.start();
  if (!found.service || !found.commands || !found.rows || !found.setLevels) {
    throw new Error(`plugins did not start: ${JSON.stringify(app.states())}`);
  }
  await found.setLevels();
  return { app, service: found.service, commands: found.commands, rows: found.rows, changes, stop: () => app.stop() };
}

describeSessionSettingsConformance('plugin-session-settings (SQLite)', async ({ owners, levels, platformTypes }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'aalis-settings-'));
  let current = await boot({ dataDir, owners, levels, platformTypes, extra: [] });
  return {
    service: current.service,
    async restart() {
      await current.stop();
      current = await boot({ dataDir, owners, levels, platformTypes, extra: [] });
      return current.service;
    },
    async close() {
      await current.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

function message(content: string, from: Identity, sessionId = 'room-1'): IncomingMessage {
  return { sessionId, platform: from.platform, venue: 'group-1', sender: { userId: from.userId }, content };
}

describe('plugin-session-settings', () => {
  let dataDir: string;
  let booted: Booted | undefined;
  const start = async (options: Partial<Parameters<typeof boot>[0]> = {}) => {
    dataDir ??= await mkdtemp(join(tmpdir(), 'aalis-settings-'));
    booted = await boot({ dataDir, ...options });
    return booted;
  };
  afterEach(async () => {
    await booted?.stop();
    booted = undefined;
    // The process's WAL checkpoint worker closes its own connection to the database a moment after the app's (a
    // message to its thread): removing the directory meanwhile can meet a file it still writes (ENOTEMPTY); retried.
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    dataDir = undefined!;
  });

  it('/session shows effective values, the layer each came from, and unset texts', async () => {
    const { service, commands } = await start();
    await service.set({
      layer: 'platform',
      target: 'qq',
      key: 'historyLimit',
      value: 30,
      caller: { identity: owner, via: 'chat' },
    });
    await service.set({
      layer: 'session',
      target: 'room-1',
      key: 'streaming',
      value: true,
      caller: { identity: owner, via: 'chat' },
    });
    const { reply } = await commands.execute(message('/session', stranger));
    expect(reply).toBe(
      [
        'Settings of this session:',
        'test.llm (llm): follows the service preference [not set]',
        'Max tool iterations (maxToolIterations): not set [not set]',
        'History limit (historyLimit): 30 [platform]',
        'Tool groups (enabledToolGroups): * [default]',
        'Streaming (streaming): true [this session]',
        'Note (note): not set [not set]',
        'Change one: /session.set <key> <value>; restore: /session.reset <key>',
      ].join('\n'),
    );
  });

  it('reads share one frozen copy: neither a reader nor the writer can change the stored value; a write is seen by the next read', async () => {
    const { service } = await start();
    const scope = { sessionId: 'room-1', platform: 'qq', venue: 'group-1' };
    const caller = { identity: owner, via: 'chat' as const };
    const written = ['alpha', 'beta'];
    await service.set({ layer: 'session', target: 'room-1', key: 'enabledToolGroups', value: written, caller });
    written.push('gamma'); // the writer's own object stays its own
    const first = (await service.get(scope, 'enabledToolGroups')).value as string[];
    expect(first).toEqual(['alpha', 'beta']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => first.push('delta')).toThrow(TypeError);
    // No copy per read: the same frozen value, through get and getAll alike.
    expect((await service.get(scope, 'enabledToolGroups')).value).toBe(first);
    expect((await service.getAll(scope)).enabledToolGroups!.value).toBe(first);
    expect((await service.layerValues({ layer: 'session', target: 'room-1' })).enabledToolGroups).toBe(first);

    // A field's default: one frozen copy, the field's own object untouched.
    const other = { sessionId: 'room-2', platform: 'qq', venue: 'group-1' };
    const fallback = await service.get(other, 'enabledToolGroups');
    expect(fallback).toEqual({ value: ['*'], layer: 'default' });
    expect(() => (fallback.value as string[]).push('x')).toThrow(TypeError);
    expect(agentFields.find((field) => field.key === 'enabledToolGroups')!.default).toEqual(['*']);
    expect(Object.isFrozen(agentFields.find((field) => field.key === 'enabledToolGroups')!.default)).toBe(false);

    await service.set({ layer: 'session', target: 'room-1', key: 'enabledToolGroups', value: ['zeta'], caller });
    expect(await service.get(scope, 'enabledToolGroups')).toEqual({ value: ['zeta'], layer: 'session' });
    await service.reset({ layer: 'session', target: 'room-1', key: 'enabledToolGroups', caller });
    expect(await service.get(scope, 'enabledToolGroups')).toEqual({ value: ['*'], layer: 'default' });
  });

  it('the layer targets kept per session follow the scope: another venue, platform or session reads its own layers', async () => {
    const { service } = await start();
    const caller = { identity: owner, via: 'chat' as const };
    const write = (layer: 'venue' | 'platform' | 'session', target: string, value: number) =>
      service.set({ layer, target, key: 'historyLimit', value, caller });
    await write('venue', 'qq/group-1', 11);
    await write('venue', 'qq/group-2', 12);
    await write('platform', 'tg', 13);
    const read = (scope: { sessionId: string; platform: string; venue?: string }) => service.get(scope, 'historyLimit');
    expect(await read({ sessionId: 's', platform: 'qq', venue: 'group-1' })).toEqual({ value: 11, layer: 'venue' });
    expect(await read({ sessionId: 's', platform: 'qq', venue: 'group-2' })).toEqual({ value: 12, layer: 'venue' });
    expect(await read({ sessionId: 's', platform: 'qq' })).toEqual({ value: 0, layer: 'default' });
    expect(await read({ sessionId: 's', platform: 'tg', venue: 'group-1' })).toEqual({ value: 13, layer: 'platform' });
    // More sessions than the targets kept: the oldest go, each session still reads its own layers.
    for (let index = 0; index < 1100; index++) await write('session', `many-${index}`, index + 1);
    for (const index of [0, 1, 600, 1099]) {
      expect(await read({ sessionId: `many-${index}`, platform: 'qq', venue: 'group-1' })).toEqual({
        value: index + 1,
        layer: 'session',
      });
    }
    expect(await read({ sessionId: 'many-0', platform: 'qq', venue: 'group-2' })).toEqual({
      value: 1,
      layer: 'session',
    });
    await service.reset({ layer: 'session', target: 'many-0', key: 'historyLimit', caller });
    expect(await read({ sessionId: 'many-0', platform: 'qq', venue: 'group-2' })).toEqual({
      value: 12,
      layer: 'venue',
    });
  });

  it('a value loaded from the database is frozen too (after a restart)', async () => {
    const first = await start();
    const caller = { identity: owner, via: 'chat' as const };
    await first.service.set({ layer: 'platform', target: 'qq', key: 'enabledToolGroups', value: ['kept'], caller });
    await first.stop();
    const { service } = await start();
    const scope = { sessionId: 'room-1', platform: 'qq', venue: 'group-1' };
    const loaded = (await service.get(scope, 'enabledToolGroups')).value as string[];
    expect(loaded).toEqual(['kept']);
    expect(() => loaded.push('more')).toThrow(TypeError);
    expect((await service.get(scope, 'enabledToolGroups')).value).toEqual(['kept']);
  });

  it('/session.set parses the value by field type and writes the session layer', async () => {
    const { service, commands, changes } = await start();
    const set = async (text: string, from = owner) => (await commands.execute(message(text, from))).reply;
    expect(await set('/session.set llm openai-1/gpt-4o/mini')).toBe(
      'This session\'s "test.llm" is now openai-1/gpt-4o/mini.',
    );
    expect(await set('/session.set maxToolIterations 8')).toContain('is now 8');
    expect(await set('/session.set streaming off')).toContain('is now false');
    expect(await set('/session.set enabledToolGroups web, files')).toContain('is now web, files');
    expect(await set('/session.set enabledToolGroups ["a b"]')).toContain('is now a b');
    expect(await set("/session.set note it's --free text")).toBe('This session\'s "Note" is now it\'s --free text.');
    expect(await set('/session.set note ""')).toBe('This session\'s "Note" is now .');
    const scope = { sessionId: 'room-1', platform: 'qq', venue: 'group-1' };
    expect(await service.get(scope, 'llm')).toEqual({
      value: { provider: 'openai-1', model: 'gpt-4o/mini' },
      layer: 'session',
    });
    expect(await service.get(scope, 'maxToolIterations')).toEqual({ value: 8, layer: 'session' });
    expect(await service.get(scope, 'streaming')).toEqual({ value: false, layer: 'session' });
    expect(await service.get(scope, 'enabledToolGroups')).toEqual({ value: ['a b'], layer: 'session' });
    expect(changes.at(-1)).toEqual({ layer: 'session', target: 'room-1', key: 'note', value: '' });
    expect(changes).toContainEqual({ layer: 'session', target: 'room-1', key: 'enabledToolGroups', value: ['a b'] });
  });

  it('/session.set answers bad input with coded errors and writes nothing', async () => {
    const { commands, rows, changes } = await start();
    const reply = async (text: string, from = owner) => (await commands.execute(message(text, from))).reply!;
    expect(await reply('/session.set nope 1')).toBe(
      'There is no session setting "nope". Known settings: llm, maxToolIterations, historyLimit, enabledToolGroups, streaming, note. (AALIS_SETTINGS_UNKNOWN_FIELD)',
    );
    expect(await reply('/session.set llm gpt-4o')).toContain('AALIS_SETTINGS_INVALID_VALUE');
    expect(await reply('/session.set llm /gpt-4o')).toContain('<provider instance id>/<model id>');
    expect(await reply('/session.set maxToolIterations many')).toContain('expects a number, received "many"');
    expect(await reply('/session.set maxToolIterations 0')).toContain('expects an integer ≥ 1, received 0');
    expect(await reply('/session.set streaming maybe')).toContain('AALIS_SETTINGS_INVALID_VALUE');
    expect(await reply('/session.set llm a/b', stranger)).toBe(
      'Changing session setting "llm" needs authority level 1; yours is 0. Nothing was changed. (AALIS_SETTINGS_FORBIDDEN)',
    );
    expect(await reply('/session.set historyLimit 5', member)).toContain('AALIS_SETTINGS_FORBIDDEN');
    expect(await reply('/session.set llm')).toBe('Usage: /session.set <key> <value>. Send /session to see the keys.');
    expect(rows()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('/session.reset removes the session override and reports what is now in effect', async () => {
    const { service, commands, rows } = await start();
    await service.set({
      layer: 'global',
      target: '',
      key: 'historyLimit',
      value: 50,
      caller: { identity: owner, via: 'chat' },
    });
    await commands.execute(message('/session.set historyLimit 10', owner));
    expect((await commands.execute(message('/session.reset historyLimit', member))).reply).toContain(
      'AALIS_SETTINGS_FORBIDDEN',
    );
    expect(rows()).toHaveLength(2);
    expect((await commands.execute(message('/session.reset historyLimit', owner))).reply).toBe(
      'This session\'s "History limit" is reset; now in effect: 50 [global].',
    );
    expect(rows()).toEqual([{ layer: 'global', target: '', key: 'historyLimit', value: '50' }]);
  });

  it('forbidden and invalid service writes leave the database unchanged', async () => {
    const { service, rows } = await start();
    await service.set({
      layer: 'session',
      target: 'room-1',
      key: 'llm',
      value: { provider: 'a', model: 'b' },
      caller: { identity: member, via: 'chat' },
    });
    const before = rows();
    await expect(
      service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'x', model: 'y' },
        caller: { identity: stranger, via: 'chat' },
      }),
    ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
    await expect(
      service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'x' },
        caller: { identity: owner, via: 'chat' },
      }),
    ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_INVALID_VALUE' });
    expect(rows()).toEqual(before);
  });

  it('a field disappears when the plugin that registered it deactivates; stored values remain', async () => {
    const { app, service } = await start();
    await service.set({
      layer: 'session',
      target: 'room-1',
      key: 'streaming',
      value: true,
      caller: { identity: owner, via: 'chat' },
    });
    await app.remove('field-owner');
    expect(service.field('streaming')).toBeUndefined();
    await expect(service.get({ sessionId: 'room-1' }, 'streaming')).rejects.toMatchObject({
      code: 'AALIS_SETTINGS_UNKNOWN_FIELD',
    });
    app.plugin(fieldOwner);
    await app.settled();
    expect(await service.get({ sessionId: 'room-1' }, 'streaming')).toEqual({ value: true, layer: 'session' });
  });

  it('reads the platform-type layer through the platformTypes config', async () => {
    const { service } = await start({ platformTypes: { 'qq-main': 'onebot', 'qq-alt': 'onebot' } });
    await service.set({
      layer: 'platformType',
      target: 'onebot',
      key: 'historyLimit',
      value: 20,
      caller: { identity: owner, via: 'chat' },
    });
    expect(await service.get({ sessionId: 's', platform: 'qq-alt' }, 'historyLimit')).toEqual({
      value: 20,
      layer: 'platformType',
    });
    expect(await service.get({ sessionId: 's', platform: 'webui' }, 'historyLimit')).toEqual({
      value: 0,
      layer: 'default',
    });
    expect(
      await service.get({ sessionId: 's', platform: 'webui', platformType: 'onebot' }, 'historyLimit'),
    ).toMatchObject({
      layer: 'platformType',
    });
  });

  it('fills platform and venue from the session manager when the scope has no platform', async () => {
    const fakeSessions = definePlugin({
      name: 'fake-sessions',
      provides: [sessionManager],
      uses: { provide },
      apply({ provide }) {
        provide.use.service(sessionManager, {
          get: async (id: string) =>
            id === 'room-1'
              ? { id, kind: 'room', platform: 'qq', venue: 'group-1', createdAt: 0, updatedAt: 0 }
              : undefined,
        } as unknown as SessionManagerService);
      },
    });
    const { service } = await start({ extra: [fieldOwner, fakeSessions] });
    await service.set({
      layer: 'venue',
      target: 'qq/group-1',
      key: 'historyLimit',
      value: 12,
      caller: { identity: owner, via: 'chat' },
    });
    expect(await service.get({ sessionId: 'room-1' }, 'historyLimit')).toEqual({ value: 12, layer: 'venue' });
  });

  it('without an authority service, chat callers are nobody and host callers are owners', async () => {
    const { service } = await start({ withAuthority: false });
    await expect(
      service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'a', model: 'b' },
        caller: { identity: owner, via: 'chat' },
      }),
    ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
    await service.set({ layer: 'session', target: 'room-1', key: 'historyLimit', value: 3, caller: { via: 'host' } });
    expect(await service.get({ sessionId: 'room-1' }, 'historyLimit')).toEqual({ value: 3, layer: 'session' });
  });

  it('/session.set persona with a persona there is not reads 应为 <the personas there are>, and writes nothing', async () => {
    const { commands, rows } = await start({ extra: [personaPlugin] });
    const { reply } = await commands.execute(message('/session.set persona nobody', owner));
    expect(reply).toBe(
      'Session setting "persona" expects one of the personas there are (default; /persona lists them), received "nobody". Nothing was changed. (AALIS_SETTINGS_INVALID_VALUE)',
    );
    expect(rows()).toEqual([]);
  });

  it('deleting a session deletes its own layer: a new session with the same id starts from the shared layers', async () => {
    const probe: { sessions?: SessionManagerService } = {};
    const sessionsProbe = definePlugin({
      name: 'sessions-probe',
      uses: { sessionManager },
      apply({ sessionManager }) {
        probe.sessions = sessionManager.use;
      },
    });
    const { service, rows } = await start({ extra: [fieldOwner, sessionManagerPlugin, sessionsProbe] });
    const sessions = probe.sessions!;
    await sessions.ensure({ id: 'work', kind: 'direct', platform: 'qq' });
    await sessions.ensure({ id: 'other', kind: 'direct', platform: 'qq' });
    const caller = { identity: owner, via: 'chat' as const };
    await service.set({ layer: 'session', target: 'work', key: 'historyLimit', value: 5, caller });
    await service.set({ layer: 'session', target: 'other', key: 'historyLimit', value: 7, caller });
    await service.set({ layer: 'global', target: '', key: 'historyLimit', value: 3, caller });
    expect(await service.get({ sessionId: 'work', platform: 'qq' }, 'historyLimit')).toEqual({
      value: 5,
      layer: 'session',
    });

    await sessions.deleteSession('work');

    expect(rows()).not.toContainEqual(expect.objectContaining({ layer: 'session', target: 'work' }));
    await sessions.ensure({ id: 'work', kind: 'direct', platform: 'qq' });
    expect(await service.get({ sessionId: 'work', platform: 'qq' }, 'historyLimit')).toEqual({
      value: 3,
      layer: 'global',
    });
    // Another session's own layer is untouched.
    expect(await service.get({ sessionId: 'other', platform: 'qq' }, 'historyLimit')).toEqual({
      value: 7,
      layer: 'session',
    });
  });

  it('keeps settings and levels across a restart on the same data directory', async () => {
    const first = await start();
    await first.commands.execute(message('/session.set llm p/m', member));
    await first.service.set({
      layer: 'global',
      target: '',
      key: 'historyLimit',
      value: 9,
      caller: { identity: owner, via: 'chat' },
    });
    await first.stop();
    booted = await boot({ dataDir, levels: [] });
    const scope = { sessionId: 'room-1', platform: 'qq' };
    expect(await booted.service.get(scope, 'llm')).toEqual({ value: { provider: 'p', model: 'm' }, layer: 'session' });
    expect(await booted.service.get(scope, 'historyLimit')).toEqual({ value: 9, layer: 'global' });
    // The member's level 1 came back from the database too: they can still change the model.
    expect((await booted.commands.execute(message('/session.set llm p/n', member))).reply).toContain('is now p/n');
  });
});
