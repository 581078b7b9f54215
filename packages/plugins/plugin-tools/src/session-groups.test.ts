// plugin-tools with a session settings provider: the enabledToolGroups field, definitions and execution per session.
import {
  type AnySessionField,
  type OptionSource,
  type SessionFieldsService,
  sessionFields,
} from '@aalis/api-session-settings';
import { type Tool, type ToolCallContext, type ToolsService, tools } from '@aalis/api-tools';
import { App, definePlugin, memorySink, provide, type ServiceHandle, translate } from '@aalis/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin, { TOOL_GROUPS_OPTION_SOURCE } from './index.js';

/** Session-layer values only; enough to see what plugin-tools registers and reads. */
class FakeSettings {
  readonly registered = new Map<string, AnySessionField>();
  readonly sources = new Map<string, OptionSource>();
  readonly values = new Map<string, unknown>();
  register(field: AnySessionField) {
    this.registered.set(field.key, field);
    return () => this.registered.delete(field.key);
  }
  registerOptionSource(name: string, source: OptionSource) {
    this.sources.set(name, source);
    return () => this.sources.delete(name);
  }
  field(key: string) {
    const field = this.registered.get(key);
    return field ? { field, plugin: '' } : undefined;
  }
  async get(scope: { sessionId: string }, key: string) {
    const stored = this.values.get(`${scope.sessionId}/${key}`);
    if (stored !== undefined) return { value: stored, layer: 'session' as const };
    return { value: this.registered.get(key)?.default, layer: 'default' as const };
  }
}

const tool = (name: string, group?: string): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  group,
  handler: async () => `${name} ran`,
});

const context = (sessionId: string): ToolCallContext => ({
  sessionId,
  platform: 'test',
  participants: [],
  inbound: { source: undefined, fromTurn: undefined, messageId: undefined },
  signal: new AbortController().signal,
  turnId: 't',
  callId: 'c',
  acceptsImages: false,
});

describe('plugin-tools with session settings', () => {
  let app: App;
  let settings: FakeSettings;
  let service: ServiceHandle<ToolsService>;

  beforeEach(async () => {
    settings = new FakeSettings();
    app = new App({ logSinks: [memorySink()], locale: 'en' });
    app.plugin(
      definePlugin({
        name: 'fake-settings',
        provides: [sessionFields],
        uses: { provide },
        apply: ({ provide }) => {
          provide.use.service(sessionFields, settings as unknown as SessionFieldsService);
        },
      }),
    );
    app.plugin(plugin);
    app.plugin(
      definePlugin({
        name: 'owner',
        uses: { tools },
        apply: (handles) => {
          service = handles.tools;
          handles.tools.use.register(tool('plain'));
          handles.tools.use.register(tool('fs_read', 'files'));
          handles.tools.use.register(tool('web_get', 'web'));
        },
      }),
    );
    await app.start();
  });

  afterEach(() => app.stop());

  it('registers enabledToolGroups (string[], default all) with the groups as options', async () => {
    const field = settings.registered.get('enabledToolGroups');
    expect(field).toMatchObject({ type: 'string[]', default: ['*'], visibility: 'common', level: 1 });
    expect(translate(field!.label, 'en')).toBe('Tool groups');
    const options = await settings.sources.get(TOOL_GROUPS_OPTION_SOURCE)!({ sessionId: 's', values: {} });
    expect(options.map((option) => option.value)).toEqual(['*', 'files', 'web']);
  });

  it('validates written values: "*" or group names', () => {
    const field = settings.registered.get('enabledToolGroups')!;
    const validate = field.validate as (value: string[]) => unknown;
    expect(validate(['*'])).toBeUndefined();
    expect(validate(['web', 'files'])).toBeUndefined();
    expect(validate([])).toBeUndefined();
    expect(translate(validate(['bad group!']) as never, 'en')).toContain('"*"');
  });

  it('reads the session selection for definitions and execution', async () => {
    settings.values.set('s1/enabledToolGroups', ['web']);
    settings.values.set('s2/enabledToolGroups', []);
    expect(await service.use.sessionGroups('s1')).toEqual(['web']);
    expect(await service.use.sessionGroups('s2')).toEqual([]);
    expect(await service.use.sessionGroups('s3')).toBe('*');
    const names = async (sessionId: string) => (await service.use.definitions(sessionId)).map((t) => t.name);
    expect(await names('s1')).toEqual(['plain', 'web_get']);
    expect(await names('s2')).toEqual(['plain']);
    expect(await names('s3')).toEqual(['fs_read', 'plain', 'web_get']);
    const refused = await service.use.execute({ name: 'fs_read', arguments: '', context: context('s1') });
    expect(refused).toMatchObject({ isError: true, code: 'AALIS_TOOLS_GROUP_DISABLED' });
    expect(await service.use.execute({ name: 'web_get', arguments: '', context: context('s1') })).toEqual({
      content: 'web_get ran',
    });
  });

  it('falls back to every group when the stored value is unreadable', async () => {
    settings.values.set('s1/enabledToolGroups', 42);
    expect(await service.use.sessionGroups('s1')).toBe('*');
  });

  it('offers every group once the settings service goes away', async () => {
    settings.values.set('s1/enabledToolGroups', []);
    await app.remove('fake-settings');
    expect(await service.use.sessionGroups('s1')).toBe('*');
  });
});
