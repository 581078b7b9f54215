// The gateway with the real hooks, commands, authority and persona plugins: slash commands are answered through
// outbound:message and never reach the agent; the rest is dispatched.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentService, agent } from '@aalis/api-agent';
import { type GatewayService, gateway } from '@aalis/api-gateway';
import { App, definePlugin, events, memorySink, provide } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import hooksPlugin from '@aalis/plugin-hooks';
import personaPlugin from '@aalis/plugin-persona';
import storagePlugin from '@aalis/plugin-storage';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

let dataDir: string;
let app: App;
let gw: GatewayService;
let outbound: OutgoingMessage[];
let handled: IncomingMessage[];

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aalis-gateway-int-'));
  outbound = [];
  handled = [];
  app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(commandsPlugin);
  app.plugin(authorityPlugin, { owners: [{ platform: 'test', userId: 'root' }] });
  app.plugin(personaPlugin);
  app.plugin(plugin);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { gateway, events, provide },
      apply(handles) {
        gw = handles.gateway.use;
        handles.events.use.on('outbound:message', (message) => {
          outbound.push(message);
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

const from = (userId: string, content: string): IncomingMessage => ({
  sessionId: 's1',
  platform: 'test',
  sender: { userId },
  content,
  messageId: `m-${content}`,
});

describe('plugin-gateway with plugin-commands', () => {
  it('answers /help outbound and keeps it from the agent', async () => {
    expect(await gw.receive(from('alice', '/help'))).toMatchObject({ outcome: 'command' });
    expect(outbound).toHaveLength(1);
    expect(outbound[0]).toMatchObject({ sessionId: 's1', kind: 'system', replyTo: 'm-/help' });
    expect(outbound[0]?.content).toContain('/help');
    expect(handled).toEqual([]);
  });

  it('answers malformed command arguments with the parse error', async () => {
    expect(await gw.receive(from('alice', '/help "unclosed'))).toMatchObject({ outcome: 'command' });
    expect(outbound[0]?.content.length).toBeGreaterThan(0);
    expect(handled).toEqual([]);
  });

  it('runs /persona.reload for the owner only and reports broken persona files', async () => {
    writeFileSync(join(dataDir, 'personas', 'broken.yaml'), 'id: x\nname: [\n');
    await gw.receive(from('alice', '/persona.reload'));
    expect(outbound.at(-1)?.content).not.toContain('broken.yaml');
    await gw.receive(from('root', '/persona.reload'));
    const reply = outbound.at(-1)?.content ?? '';
    expect(reply).toContain('Loaded 1 persona: default');
    expect(reply).toContain('broken.yaml');
    expect(handled).toEqual([]);
  });

  it('dispatches ordinary text to the agent', async () => {
    expect(await gw.receive(from('alice', 'hello'))).toMatchObject({ outcome: 'dispatched' });
    expect(handled.map((message) => message.content)).toEqual(['hello']);
  });
});
