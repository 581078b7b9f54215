// Conformance suite of the session settings service: every implementation runs it (see
// plugin-session-settings' test). The implementation must resolve callers through an authority service that
// knows the fixture's owners and levels.
import type { Identity } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { LAYERS, type SettingsLayer, venueTarget } from './layers.js';
import type { AnySessionField, SettingsScope } from './session-field.js';
import type { SessionFieldsService, SettingsCaller } from './session-fields-service.js';

export interface SessionSettingsFixture {
  service: SessionFieldsService;
  /** Stops the implementation and starts a new one on the same stored data (fields must be registered again). */
  restart(): Promise<SessionFieldsService>;
  close(): Promise<void>;
}

export type CreateSessionSettingsFixture = (options: {
  owners: Identity[];
  levels: { identity: Identity; level: number }[];
  /** Platform id → platform type. */
  platformTypes: Record<string, string>;
}) => Promise<SessionSettingsFixture>;

const owner: Identity = { platform: 'qq', userId: 'owner' };
const member: Identity = { platform: 'qq', userId: 'member' };
const stranger: Identity = { platform: 'qq', userId: 'stranger' };
const asOwner: SettingsCaller = { identity: owner, via: 'chat' };
const asMember: SettingsCaller = { identity: member, via: 'chat' };
const asStranger: SettingsCaller = { identity: stranger, via: 'chat' };

const scope: SettingsScope = { sessionId: 'room-1', platform: 'qq-main', venue: 'group-9' };
const targets: Record<SettingsLayer, string> = {
  global: '',
  platformType: 'onebot',
  platform: 'qq-main',
  venue: venueTarget({ platform: 'qq-main', venue: 'group-9' }),
  session: 'room-1',
};

const fields: AnySessionField[] = [
  {
    key: 'maxToolIterations',
    type: 'number',
    label: 'Max tool iterations',
    visibility: 'advanced',
    level: 'owner',
    validate: (value) => (Number.isInteger(value) && value >= 1 ? undefined : 'an integer ≥ 1'),
  },
  { key: 'historyLimit', type: 'number', label: 'History limit', visibility: 'advanced', level: 1, default: 0 },
  { key: 'llm', type: 'llm-ref', label: 'Model', visibility: 'composer', level: 1 },
  {
    key: 'think',
    type: 'select',
    label: 'Thinking',
    visibility: 'common',
    level: 0,
    dynamicOptions: { source: 'test-thinking', dependsOn: ['llm'] },
    describeUnset: () => 'model default',
  },
  {
    key: 'style',
    type: 'select',
    label: 'Style',
    visibility: 'common',
    level: 0,
    options: [
      { value: 'terse', label: 'Terse' },
      { value: 'chatty', label: 'Chatty' },
    ],
  },
  { key: 'enabledToolGroups', type: 'string[]', label: 'Tool groups', visibility: 'common', level: 1, default: ['*'] },
  { key: 'streaming', type: 'boolean', label: 'Streaming', visibility: 'advanced', level: 0 },
];

export function describeSessionSettingsConformance(name: string, createFixture: CreateSessionSettingsFixture): void {
  describe(`session settings conformance: ${name}`, () => {
    let fixture: SessionSettingsFixture | undefined;
    const setup = async () => {
      fixture = await createFixture({
        owners: [owner],
        levels: [{ identity: member, level: 1 }],
        platformTypes: { 'qq-main': 'onebot' },
      });
      for (const field of fields) fixture.service.register(field);
      return fixture;
    };
    afterEach(async () => {
      await fixture?.close();
      fixture = undefined;
    });

    it('lists registered fields in registration order and drops one when its registration is disposed', async () => {
      const { service } = await setup();
      expect(service.fields().map((info) => info.field.key)).toEqual(fields.map((field) => field.key));
      const dispose = service.register({
        key: 'temp',
        type: 'string',
        label: 'Temp',
        visibility: 'advanced',
        level: 0,
      });
      expect(service.field('temp')).toBeDefined();
      dispose();
      expect(service.field('temp')).toBeUndefined();
      expect(() =>
        service.register({ key: 'llm', type: 'string', label: 'again', visibility: 'common', level: 0 }),
      ).toThrow(expect.objectContaining({ code: 'AALIS_SETTINGS_DUPLICATE_FIELD' }));
    });

    it("reports the field's default, or unset, when no layer sets it", async () => {
      const { service } = await setup();
      expect(await service.get(scope, 'historyLimit')).toEqual({ value: 0, layer: 'default' });
      expect(await service.get(scope, 'llm')).toEqual({ value: undefined, layer: 'unset' });
      expect(await service.describeUnset(scope, 'think')).toBe('model default');
    });

    it('each layer overrides the layers below it (global < platformType < platform < venue < session)', async () => {
      const { service } = await setup();
      for (const [index, layer] of LAYERS.entries()) {
        await service.set({ layer, target: targets[layer], key: 'historyLimit', value: index + 10, caller: asOwner });
        expect(await service.get(scope, 'historyLimit')).toEqual({ value: index + 10, layer });
      }
      for (const [index, layer] of [...LAYERS].reverse().entries()) {
        await service.reset({ layer, target: targets[layer], key: 'historyLimit', caller: asOwner });
        const below = LAYERS.length - 2 - index;
        const expected = below >= 0 ? { value: below + 10, layer: LAYERS[below] } : { value: 0, layer: 'default' };
        expect(await service.get(scope, 'historyLimit')).toEqual(expected);
      }
    });

    it('a scope reads only its own targets on each layer', async () => {
      const { service } = await setup();
      await service.set({ layer: 'session', target: 'room-2', key: 'historyLimit', value: 5, caller: asOwner });
      await service.set({ layer: 'platform', target: 'other', key: 'historyLimit', value: 6, caller: asOwner });
      await service.set({
        layer: 'venue',
        target: venueTarget({ platform: 'other', venue: 'group-9' }),
        key: 'historyLimit',
        value: 7,
        caller: asOwner,
      });
      expect(await service.get(scope, 'historyLimit')).toEqual({ value: 0, layer: 'default' });
      expect(await service.get({ sessionId: 'room-2' }, 'historyLimit')).toEqual({ value: 5, layer: 'session' });
    });

    it('getAll reports every field with the layer its value came from', async () => {
      const { service } = await setup();
      await service.set({
        layer: 'global',
        target: '',
        key: 'llm',
        value: { provider: 'p', model: 'm' },
        caller: asOwner,
      });
      await service.set({ layer: 'venue', target: targets.venue, key: 'style', value: 'terse', caller: asOwner });
      await service.set({ layer: 'session', target: 'room-1', key: 'streaming', value: false, caller: asOwner });
      const all = await service.getAll(scope);
      expect(all).toMatchObject({
        llm: { value: { provider: 'p', model: 'm' }, layer: 'global' },
        style: { value: 'terse', layer: 'venue' },
        streaming: { value: false, layer: 'session' },
        enabledToolGroups: { value: ['*'], layer: 'default' },
        think: { value: undefined, layer: 'unset' },
      });
      expect(Object.keys(all).sort()).toEqual(fields.map((field) => field.key).sort());
    });

    it('offers fixed options, and dynamic options computed from the dependsOn values', async () => {
      const { service } = await setup();
      expect((await service.options({ scope, key: 'style' })).map((option) => option.value)).toEqual([
        'terse',
        'chatty',
      ]);
      expect(await service.options({ scope, key: 'think' })).toEqual([]);
      const seen: unknown[] = [];
      service.registerOptionSource('test-thinking', ({ sessionId, values }) => {
        seen.push({ sessionId, values });
        const llm = values.llm as { model: string } | undefined;
        return llm?.model === 'deep' ? [{ value: 'high', label: 'High' }] : [{ value: 'off', label: 'Off' }];
      });
      expect(await service.options({ scope, key: 'think' })).toEqual([{ value: 'off', label: 'Off' }]);
      await service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'p', model: 'deep' },
        caller: asOwner,
      });
      expect(await service.options({ scope, key: 'think' })).toEqual([{ value: 'high', label: 'High' }]);
      expect(
        await service.options({ scope, key: 'think', values: { llm: { provider: 'p', model: 'shallow' } } }),
      ).toEqual([{ value: 'off', label: 'Off' }]);
      expect(seen[1]).toEqual({ sessionId: 'room-1', values: { llm: { provider: 'p', model: 'deep' } } });
    });

    it('rejects an unknown key with a coded error listing the known keys', async () => {
      const { service } = await setup();
      const write = service.set({ layer: 'session', target: 'room-1', key: 'nope', value: 1, caller: asOwner });
      await expect(write).rejects.toMatchObject({ code: 'AALIS_SETTINGS_UNKNOWN_FIELD' });
      await expect(write).rejects.toThrow(/historyLimit/);
      await expect(service.get(scope, 'nope')).rejects.toMatchObject({ code: 'AALIS_SETTINGS_UNKNOWN_FIELD' });
      expect(await service.layerValues({ layer: 'session', target: 'room-1' })).toEqual({});
    });

    it('rejects values of the wrong type or failing validation, naming key, expected and received; nothing written', async () => {
      const { service } = await setup();
      const bad: [string, unknown][] = [
        ['historyLimit', 'ten'],
        ['historyLimit', Number.NaN],
        ['llm', { provider: 'p', model: '' }],
        ['llm', 'p/m'],
        ['style', 'loud'],
        ['enabledToolGroups', ['a', 1]],
        ['streaming', 'yes'],
        ['maxToolIterations', 0],
        ['maxToolIterations', 2.5],
      ];
      for (const [key, value] of bad) {
        const write = service.set({ layer: 'session', target: 'room-1', key, value, caller: asOwner });
        await expect(write, `${key}=${JSON.stringify(value)}`).rejects.toMatchObject({
          code: 'AALIS_SETTINGS_INVALID_VALUE',
          details: { key },
        });
      }
      await expect(
        service.set({ layer: 'session', target: 'room-1', key: 'maxToolIterations', value: 0, caller: asOwner }),
      ).rejects.toThrow(/integer ≥ 1/);
      expect(await service.layerValues({ layer: 'session', target: 'room-1' })).toEqual({});
    });

    it('refuses writes above the caller level; nothing written', async () => {
      const { service } = await setup();
      await expect(
        service.set({
          layer: 'session',
          target: 'room-1',
          key: 'llm',
          value: { provider: 'p', model: 'm' },
          caller: asStranger,
        }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN', details: { key: 'llm' } });
      await expect(
        service.set({ layer: 'session', target: 'room-1', key: 'maxToolIterations', value: 3, caller: asMember }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
      await expect(
        service.set({
          layer: 'session',
          target: 'room-1',
          key: 'llm',
          value: { provider: 'p', model: 'm' },
          caller: { via: 'chat' },
        }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
      expect(await service.layerValues({ layer: 'session', target: 'room-1' })).toEqual({});
      await service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'p', model: 'm' },
        caller: asMember,
      });
      await expect(
        service.reset({ layer: 'session', target: 'room-1', key: 'llm', caller: asStranger }),
      ).rejects.toMatchObject({
        code: 'AALIS_SETTINGS_FORBIDDEN',
      });
      expect(await service.layerValues({ layer: 'session', target: 'room-1' })).toEqual({
        llm: { provider: 'p', model: 'm' },
      });
    });

    it('a host caller without an identity acts as the host; with one it is checked like a chat caller', async () => {
      const { service } = await setup();
      await service.set({
        layer: 'session',
        target: 'room-1',
        key: 'maxToolIterations',
        value: 4,
        caller: { via: 'host' },
      });
      expect(await service.get(scope, 'maxToolIterations')).toEqual({ value: 4, layer: 'session' });
      await expect(
        service.set({
          layer: 'session',
          target: 'room-1',
          key: 'maxToolIterations',
          value: 5,
          caller: { identity: member, via: 'host' },
        }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
    });

    it('rejects an unknown layer or an empty target', async () => {
      const { service } = await setup();
      await expect(
        service.set({ layer: 'room' as SettingsLayer, target: 'x', key: 'streaming', value: true, caller: asOwner }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_INVALID_LAYER' });
      await expect(
        service.set({ layer: 'session', target: '', key: 'streaming', value: true, caller: asOwner }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_INVALID_TARGET' });
    });

    it('keeps settings across a restart', async () => {
      const current = await setup();
      await current.service.set({
        layer: 'platform',
        target: 'qq-main',
        key: 'historyLimit',
        value: 40,
        caller: asOwner,
      });
      await current.service.set({
        layer: 'session',
        target: 'room-1',
        key: 'llm',
        value: { provider: 'p', model: 'm' },
        caller: asOwner,
      });
      const restarted = await current.restart();
      for (const field of fields) restarted.register(field);
      expect(await restarted.get(scope, 'historyLimit')).toEqual({ value: 40, layer: 'platform' });
      expect(await restarted.get(scope, 'llm')).toEqual({ value: { provider: 'p', model: 'm' }, layer: 'session' });
    });

    /** A field whose global layer another part of the host owns (like the agent's 「模型」 and its llm preference). */
    function ownedElsewhere(initial?: { provider: string; model: string }) {
      let value = initial;
      const listeners = new Set<(next: typeof value) => void>();
      const owner = {
        get: () => value,
        /** A change made by the owner itself (e.g. the plugin preference set elsewhere). */
        change(next: typeof value) {
          value = next;
          for (const listener of listeners) listener(next);
        },
      };
      const field: AnySessionField = {
        key: 'boundModel',
        type: 'llm-ref',
        label: 'Bound model',
        visibility: 'composer',
        level: 1,
        globalValue: {
          read: () => value,
          write: (next) => owner.change(next),
          subscribe(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        },
      };
      return { owner, field };
    }

    it('a field with a globalValue: its global layer is that value, seen and written from either side', async () => {
      const { service } = await setup();
      const { owner: bound, field } = ownedElsewhere();
      service.register(field);
      expect(await service.get(scope, 'boundModel')).toEqual({ value: undefined, layer: 'unset' });
      // Set by its owner: the settings read it on the global layer.
      bound.change({ provider: 'p', model: 'from-owner' });
      expect(await service.get(scope, 'boundModel')).toEqual({
        value: { provider: 'p', model: 'from-owner' },
        layer: 'global',
      });
      expect((await service.getAll(scope)).boundModel).toEqual({
        value: { provider: 'p', model: 'from-owner' },
        layer: 'global',
      });
      expect(await service.layerValues({ layer: 'global', target: '' })).toMatchObject({
        boundModel: { provider: 'p', model: 'from-owner' },
      });
      // Written through the settings: the owner has it.
      await service.set({
        layer: 'global',
        target: '',
        key: 'boundModel',
        value: { provider: 'p', model: 'from-settings' },
        caller: asOwner,
      });
      expect(bound.get()).toEqual({ provider: 'p', model: 'from-settings' });
      // Lower layers still override it; a reset clears the owner's value.
      await service.set({
        layer: 'session',
        target: 'room-1',
        key: 'boundModel',
        value: { provider: 'p', model: 'session' },
        caller: asOwner,
      });
      expect(await service.get(scope, 'boundModel')).toMatchObject({ layer: 'session' });
      await service.reset({ layer: 'global', target: '', key: 'boundModel', caller: asOwner });
      expect(bound.get()).toBeUndefined();
      // The level still applies to the global layer.
      await expect(
        service.set({
          layer: 'global',
          target: '',
          key: 'boundModel',
          value: { provider: 'p', model: 'x' },
          caller: asStranger,
        }),
      ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_FORBIDDEN' });
      expect(bound.get()).toBeUndefined();
    });

    it('a value stored on the global layer before the field had a globalValue moves to its owner', async () => {
      const current = await setup();
      const plain: AnySessionField = {
        key: 'boundModel',
        type: 'llm-ref',
        label: 'Bound',
        visibility: 'common',
        level: 1,
      };
      const dispose = current.service.register(plain);
      await current.service.set({
        layer: 'global',
        target: '',
        key: 'boundModel',
        value: { provider: 'p', model: 'stored' },
        caller: asOwner,
      });
      dispose();
      const { owner: bound, field } = ownedElsewhere();
      current.service.register(field);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(bound.get()).toEqual({ provider: 'p', model: 'stored' });
      expect(await current.service.get(scope, 'boundModel')).toEqual({
        value: { provider: 'p', model: 'stored' },
        layer: 'global',
      });
    });
  });
}
