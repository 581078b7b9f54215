// Test harness: a real App with the real services (SQLite on a temp data dir) and the OpenAI provider talking
// over HTTP to the scripted test server. Used by plugin-agent's suites.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, type BoundAgent } from '@aalis/api-agent';
import { gateway } from '@aalis/api-gateway';
import { storage } from '@aalis/api-storage';
import { type Tool, type ToolCallContext, tools } from '@aalis/api-tools';
import { type AnyPluginDefinition, definePlugin } from '@aalis/core';
import authorityPlugin from '@aalis/plugin-authority';
import commandsPlugin from '@aalis/plugin-commands';
import contributionsPlugin from '@aalis/plugin-contributions';
import gatewayPlugin from '@aalis/plugin-gateway';
import hooksPlugin from '@aalis/plugin-hooks';
import openaiPlugin from '@aalis/plugin-llm-openai';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import archivePlugin from '@aalis/plugin-message-archive';
import sessionManagerPlugin from '@aalis/plugin-session-manager';
import sessionSettingsPlugin from '@aalis/plugin-session-settings';
import storagePlugin, { Leases } from '@aalis/plugin-storage';
import toolsPlugin from '@aalis/plugin-tools';
import type { IncomingMessage, Message } from '@aalis/schema-message';
import {
  type BootedApp,
  bootApp,
  type OpenAiTestServer,
  type PluginEntry,
  type ScriptedReply,
  startOpenAiTestServer,
} from '@aalis/testing';
import { Orchestrator } from './channel/orchestrator.js';
import agentPlugin from './index.js';

export const OWNER = { platform: 'cli', userId: 'owner' };

export interface Harness {
  booted: BootedApp;
  server: OpenAiTestServer;
  agent: BoundAgent;
  /** The same service as its implementation, for tests that reach its placement or running turns. */
  orchestrator: Orchestrator;
  dataDir: string;
  /** The chat requests the server received, as sent (messages in wire form). */
  requests(): Array<{ messages: Array<Record<string, unknown>>; tools?: unknown[] }>;
  say(content: string, extra?: Partial<IncomingMessage>): Promise<void>;
  /** Sends a text from the owner through the gateway (slash commands run there); resolves with the replies. */
  command(content: string): Promise<string[]>;
  history(sessionId?: string): Promise<Message[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  agentConfig?: Record<string, unknown>;
  tools?: Tool[];
  extra?: PluginEntry[];
  contextWindow?: number;
  maxOutputTokens?: number;
  /** test-model's thinking levels (default: none, it cannot be adjusted). */
  thinking?: { levels: Array<{ id: string; name: string }>; default: string };
  /** Leave out these plugins (by name). */
  without?: string[];
  /** More @aalis/plugin-storage config (a PostgreSQL `database`, `leaseTtlMs`). */
  storage?: Record<string, unknown>;
  /** A model server shared with other harnesses (not closed by this one). */
  server?: OpenAiTestServer;
}

/** A harness's leases as plugin-storage's implementation: a test makes a host stall by pausing its heartbeat. */
export function leasesOf(harness: Harness): Leases {
  const leases = harness.booted.app.services.selected(storage)!.impl.leases();
  if (!(leases instanceof Leases)) throw new Error('the storage service’s leases are not plugin-storage’s');
  return leases;
}

export function toolPlugin(list: Tool[]): AnyPluginDefinition {
  return definePlugin({
    name: '@test/tools',
    uses: { tools },
    apply({ tools }) {
      for (const tool of list) tools.use.register(tool);
    },
  });
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const server = options.server ?? (await startOpenAiTestServer({ models: ['test-model'] }));
  const dataDir = mkdtempSync(join(tmpdir(), 'aalis-agent-'));
  const entries: PluginEntry[] = [
    [storagePlugin, { dataDir, ...options.storage }],
    hooksPlugin,
    contributionsPlugin,
    memoryPlugin,
    archivePlugin,
    sessionManagerPlugin,
    sessionSettingsPlugin,
    [authorityPlugin, { owners: [OWNER] }],
    commandsPlugin,
    toolsPlugin,
    gatewayPlugin,
    [
      openaiPlugin,
      {
        baseUrl: server.url,
        fetchModels: false,
        models: [
          {
            id: 'test-model',
            contextWindow: options.contextWindow ?? 32_000,
            maxOutputTokens: options.maxOutputTokens ?? 1_024,
            ...(options.thinking ? { thinking: options.thinking } : {}),
          },
        ],
        retry: { maxRetries: 0 },
      },
      { id: 'test' },
    ],
    [agentPlugin, options.agentConfig ?? {}],
    ...(options.tools ? [toolPlugin(options.tools)] : []),
    ...(options.extra ?? []),
  ];
  const plugins = entries.filter((entry) => {
    const definition = Array.isArray(entry) ? entry[0] : entry;
    return !options.without?.includes(definition.name);
  });
  const booted = await bootApp({ plugins });
  const states = booted.app.states().filter((state) => state.state !== 'active');
  if (states.length > 0) throw new Error(`plugins not active: ${JSON.stringify(states)}`);
  const service = booted.app.services.selected(agent)!.impl as BoundAgent;
  if (!(service instanceof Orchestrator)) throw new Error('the agent service is not the orchestrator');
  return {
    booted,
    server,
    agent: service,
    orchestrator: service,
    dataDir,
    requests: () => server.chatBodies() as Array<{ messages: Array<Record<string, unknown>>; tools?: unknown[] }>,
    say: (content, extra = {}) =>
      service.handleMessage({
        sessionId: 'cli:owner',
        platform: 'cli',
        sender: { userId: 'owner' },
        content,
        ...extra,
      }),
    async command(content) {
      const replies = booted.capture('outbound:message');
      await booted.app.services.selected(gateway)!.impl.receive({
        sessionId: 'cli:owner',
        platform: 'cli',
        sender: { userId: 'owner' },
        content,
      });
      return replies.map((reply) => reply.content);
    },
    history: async (sessionId = 'cli:owner') => {
      const { memory } = await import('@aalis/api-memory');
      return booted.app.services.selected(memory)!.impl.readAll(sessionId);
    },
    async close() {
      const rejected = server.requests.filter((request) => request.rejected !== undefined);
      await booted.stop();
      if (!options.server) await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      // The test server rejects what real providers reject: no invalid sequence may ever have been sent.
      if (rejected.length > 0)
        throw new Error(`the model server rejected: ${rejected.map((r) => r.rejected).join('; ')}`);
    },
  };
}

/**
 * A tool that waits until the test releases it, ignoring the turn's stop as some tools do; `started` resolves when a
 * call entered it, `contexts` holds the context of each call.
 */
export function gatedTool(name = 'slow', result = `${name} result`) {
  let release!: () => void;
  let entered!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const contexts: ToolCallContext[] = [];
  const tool: Tool = {
    name,
    description: 'Takes a while',
    parameters: { type: 'object', properties: {} },
    async handler(_args, context) {
      contexts.push(context);
      entered();
      await released;
      return result;
    },
  };
  return { tool, release, started, contexts };
}

/** A final reply whose stream pauses `delayMs` after its first two characters. */
export const slowText = (text: string, delayMs: number): ScriptedReply => ({
  type: 'stream',
  steps: [
    { text: text.slice(0, 2) },
    { flush: true },
    { delayMs },
    { text: text.slice(2) },
    { finish: 'stop' },
    { usage: { promptTokens: 10, completionTokens: 2 } },
    { done: true },
  ],
});

/** A streamed reply whose text is all sent at once and whose stream then stays open `delayMs` (a stop cuts it). */
export const heldText = (text: string, delayMs: number): ScriptedReply => ({
  type: 'stream',
  steps: [{ text }, { flush: true }, { delayMs }, { finish: 'stop' }, { done: true }],
});
