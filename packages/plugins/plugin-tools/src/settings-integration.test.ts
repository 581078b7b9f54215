// The whole settings path with real plugins: /session.set through the gateway and commands writes
// enabledToolGroups and persona on the session layer; the tools and persona services read them back; invalid values
// are refused with a coded error and nothing is written.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { type PersonaService, persona } from '@aalis/api-persona';
import { type Tool, type ToolsService, tools } from '@aalis/api-tools';
import { App, definePlugin, events, memorySink } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import gatewayPlugin from '@aalis/plugin-gateway';
import hooksPlugin from '@aalis/plugin-hooks';
import personaPlugin from '@aalis/plugin-persona';
import sessionSettingsPlugin from '@aalis/plugin-session-settings';
import storagePlugin from '@aalis/plugin-storage';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import toolsPlugin from './index.js';

let dataDir: string;
let app: App;
let services: { gateway: GatewayService; tools: ToolsService; persona: PersonaService };
let replies: OutgoingMessage[];

const tool = (name: string, group?: string): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  group,
  handler: () => 'ok',
});

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aalis-settings-int-'));
  replies = [];
  app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(commandsPlugin);
  app.plugin(authorityPlugin, { owners: [{ platform: 'test', userId: 'root' }] });
  app.plugin(sessionSettingsPlugin);
  app.plugin(toolsPlugin);
  app.plugin(personaPlugin);
  app.plugin(gatewayPlugin);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { gateway, tools, persona, events },
      apply(handles) {
        services = { gateway: handles.gateway.use, tools: handles.tools.use, persona: handles.persona.use };
        handles.tools.use.register(tool('plain'));
        handles.tools.use.register(tool('fs_read', 'files'));
        handles.tools.use.register(tool('web_get', 'web'));
        handles.events.use.on('outbound:message', (message) => {
          replies.push(message);
        });
      },
    }),
  );
  await app.start();
  writeFileSync(join(dataDir, 'personas', 'bard.yaml'), 'id: bard\nname: Bard\nprompt: Verse.\n');
  await services.persona.reload();
});

afterEach(async () => {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const say = async (content: string, userId = 'root') => {
  const message: IncomingMessage = { sessionId: 's1', platform: 'test', sender: { userId }, content };
  await services.gateway.receive(message);
  return replies.at(-1)?.content ?? '';
};

describe('session settings for tools and persona, end to end', () => {
  it('enables tool groups per session with /session.set', async () => {
    expect(await services.tools.sessionGroups('s1')).toBe('*');
    await say('/session.set enabledToolGroups web');
    expect(await services.tools.sessionGroups('s1')).toEqual(['web']);
    expect((await services.tools.definitions('s1')).map((definition) => definition.name)).toEqual(['plain', 'web_get']);
    expect((await services.tools.definitions('s2')).map((definition) => definition.name)).toHaveLength(3);
    await say('/session.reset enabledToolGroups');
    expect(await services.tools.sessionGroups('s1')).toBe('*');
  });

  it('refuses an invalid group list and writes nothing', async () => {
    const reply = await say('/session.set enabledToolGroups bad group!, web');
    expect(reply).toContain('"*"');
    // The field's text is what it expects, inside the settings error's 「expects …, received …」.
    expect(reply).toContain(
      'expects "*" (every group) or a list of group names made of a-z, A-Z, 0-9, "_", "-", "." and ":", received',
    );
    expect(await services.tools.sessionGroups('s1')).toBe('*');
  });

  it('refuses a caller below level 1', async () => {
    await say('/session.set enabledToolGroups web', 'nobody');
    expect(await services.tools.sessionGroups('s1')).toBe('*');
  });

  it('selects the persona per session and refuses an unknown one', async () => {
    expect((await services.persona.forSession({ sessionId: 's1' }))?.id).toBe('default');
    const refused = await say('/session.set persona ghost');
    expect(refused).toContain('ghost');
    expect((await services.persona.forSession({ sessionId: 's1' }))?.id).toBe('default');
    await say('/session.set persona bard');
    expect((await services.persona.forSession({ sessionId: 's1' }))?.id).toBe('bard');
    expect((await services.persona.forSession({ sessionId: 's2' }))?.id).toBe('default');
  });
});
