// The registry keeps its entries sorted by name between changes: every registration, replacement and withdrawal is seen
// by the next list and definitions, and callers still get objects of their own.
import type { Tool } from '@aalis/api-tools';
import { LogHub, memorySink } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from './tool-registry.js';

const tool = (name: string, description = name, group?: string): Tool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
  group,
  handler: async () => `${name} ran`,
});

function registry() {
  return new ToolRegistry({
    events: { emit: () => {} },
    locale: 'en',
    logger: new LogHub([memorySink()]).logger('tools'),
    authority: () => undefined,
    readGroups: async () => undefined,
  });
}

describe('ToolRegistry (sorted entries kept between changes)', () => {
  it('lists and defines by name after each registration, replacement and withdrawal', async () => {
    const tools = registry();
    const names = async () => (await tools.definitions({ groups: '*' })).map((definition) => definition.name);
    tools.register(tool('beta'), { instanceId: 'p', pluginName: 'p' });
    const offAlpha = tools.register(tool('alpha'), { instanceId: 'p', pluginName: 'p' });
    expect(await names()).toEqual(['alpha', 'beta']);
    tools.register(tool('gamma', 'gamma', 'extra'), { instanceId: 'p', pluginName: 'p' });
    expect(await names()).toEqual(['alpha', 'beta', 'gamma']);
    expect(tools.list().map((info) => info.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(
      (await tools.definitions({ groups: [] })).map((definition) => definition.name),
      'a group not enabled leaves its tools out',
    ).toEqual(['alpha', 'beta']);
    offAlpha();
    expect(await names()).toEqual(['beta', 'gamma']);
    tools.register(tool('beta', 'beta, replaced'), { instanceId: 'p', pluginName: 'p' });
    expect((await tools.definitions({ groups: '*' }))[0]).toEqual({
      name: 'beta',
      description: 'beta, replaced',
      parameters: { type: 'object', properties: {} },
    });
    tools.register(tool('aardvark'), { instanceId: 'p', pluginName: 'p' });
    expect(await names()).toEqual(['aardvark', 'beta', 'gamma']);
  });

  it('hands out new objects each call: changing one changes nothing the registry gives next', async () => {
    const tools = registry();
    tools.register(tool('alpha', 'alpha', 'g'), { instanceId: 'p', pluginName: 'p' });
    const listed = tools.list();
    listed[0]!.name = 'changed';
    listed.pop();
    const defined = await tools.definitions({ groups: '*' });
    defined[0]!.description = 'changed';
    expect(tools.list()).toEqual([
      {
        name: 'alpha',
        description: 'alpha',
        parameters: { type: 'object', properties: {} },
        level: 0,
        plugin: 'p',
        group: 'g',
      },
    ]);
    expect((await tools.definitions({ groups: '*' }))[0]!.description).toBe('alpha');
  });
});
