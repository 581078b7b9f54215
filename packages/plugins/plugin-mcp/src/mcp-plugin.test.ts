// plugin-mcp against real MCP servers: the registry's server-everything (stdio and Streamable HTTP) and
// server-filesystem (stdio), and a server of our own (stdio: list_changed, isError, cancellation, crash and
// restart; HTTP in-process: SSE fallback and timeouts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type McpService, mcp } from '@aalis/api-mcp';
import { type ToolCallContext, type ToolsService, tools } from '@aalis/api-tools';
import toolsPlugin from '@aalis/plugin-tools';
import { type BootedApp, bootApp } from '@aalis/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import mcpPlugin from './index.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const filesystem = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist/index.js',
);
const ownServer = fileURLToPath(new URL('./fixtures/own-server.mjs', import.meta.url));

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function boot(config: Record<string, unknown>) {
  const booted: BootedApp = await bootApp({ plugins: [toolsPlugin, [mcpPlugin, config]], locale: 'en' });
  cleanups.push(() => booted.stop());
  const service = () => booted.app.services.selected(tools)!.impl as ToolsService;
  const status = () => booted.app.services.selected(mcp)!.impl as McpService;
  return { booted, service, status };
}

function context(overrides: Partial<ToolCallContext> = {}): ToolCallContext {
  return {
    sessionId: 's',
    platform: 'cli',
    participants: [],
    inbound: { source: undefined },
    signal: new AbortController().signal,
    turnId: 't',
    callId: 'c',
    acceptsImages: false,
    ...overrides,
  } as ToolCallContext;
}

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (service: ToolsService) => service.list().map((tool) => tool.name);

describe('plugin-mcp with registry servers', () => {
  it('offers server-everything’s tools over stdio as mcp__<server>__<tool> in group mcp:<server>, and calls them', async () => {
    const { service } = await boot({
      servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    });
    await until(() => names(service()).includes('mcp__everything__echo'), 'the tools');
    const echo = service()
      .list()
      .find((tool) => tool.name === 'mcp__everything__echo')!;
    expect(echo.group).toBe('mcp:everything');
    expect(echo.parameters.properties).toHaveProperty('message');
    expect(
      await service().execute({ name: 'mcp__everything__echo', arguments: '{"message":"hi"}', context: context() }),
    ).toMatchObject({
      content: 'Echo: hi',
    });
    // The project's validator checks the server's schema before the server is asked.
    expect(
      await service().execute({ name: 'mcp__everything__echo', arguments: '{"message":5}', context: context() }),
    ).toMatchObject({
      isError: true,
      code: 'AALIS_TOOLS_ARGUMENTS_INVALID',
    });
    const image = await service().execute({
      name: 'mcp__everything__get-tiny-image',
      arguments: {},
      context: context({ acceptsImages: true }),
    });
    expect(image.attachments?.[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const hidden = await service().execute({
      name: 'mcp__everything__get-tiny-image',
      arguments: {},
      context: context(),
    });
    expect(hidden.attachments).toBeUndefined();
    expect(hidden.content).toContain('the current model cannot see images');
  });

  it('reads files through server-filesystem, and returns its refusal as an error to the model', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aalis-mcp-fs-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes', 'todo.txt'), 'buy milk');
    const { service } = await boot({ servers: { fs: { command: process.execPath, args: [filesystem, root] } } });
    await until(() => names(service()).includes('mcp__fs__read_text_file'), 'the tools');
    const read = await service().execute({
      name: 'mcp__fs__read_text_file',
      arguments: { path: join(root, 'notes', 'todo.txt') },
      context: context(),
    });
    expect(read).toMatchObject({ content: 'buy milk' });
    const outside = await service().execute({
      name: 'mcp__fs__read_text_file',
      arguments: { path: '/etc/hostname' },
      context: context(),
    });
    expect(outside.isError).toBe(true);
  });

  it('reaches server-everything over Streamable HTTP', async () => {
    const port = await freePort();
    await everythingOverHttp(port);
    const { service, status } = await boot({ servers: { web: { url: `http://127.0.0.1:${port}/mcp` } } });
    await until(() => names(service()).includes('mcp__web__echo'), 'the tools');
    expect(status().servers()[0]).toMatchObject({ name: 'web', transport: 'streamable-http', status: 'connected' });
    expect(
      await service().execute({ name: 'mcp__web__echo', arguments: { message: 'over http' }, context: context() }),
    ).toMatchObject({
      content: 'Echo: over http',
    });
  });

  it('an HTTP server that restarted (its session gone) is reconnected after the call that found out, with one log line', async () => {
    const port = await freePort();
    const first = await everythingOverHttp(port);
    const { booted, service, status } = await boot({
      servers: { web: { url: `http://127.0.0.1:${port}/mcp` } },
      reconnect: { initialMs: 50, maxMs: 200 },
    });
    await until(() => names(service()).includes('mcp__web__echo'), 'the tools');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    await everythingOverHttp(port);
    const failed = await service().execute({ name: 'mcp__web__echo', arguments: { message: 'a' }, context: context() });
    expect(failed.isError).toBe(true);
    await until(
      () => status().servers()[0]?.restarts === 1 && status().servers()[0]?.status === 'connected',
      'a reconnection',
    );
    expect(
      await service().execute({ name: 'mcp__web__echo', arguments: { message: 'again' }, context: context() }),
    ).toMatchObject({ content: 'Echo: again' });
    expect(booted.logs.filter((line) => line.message.includes('MCP web: a call failed'))).toHaveLength(1);
  });
});

/** server-everything over Streamable HTTP on `port`, once it listens. */
async function everythingOverHttp(port: number) {
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'pipe',
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let ready = false;
  child.stderr.on('data', (chunk: Buffer) => {
    if (chunk.toString('utf8').includes('listening')) ready = true;
  });
  await until(() => ready, 'server-everything to listen');
  return child;
}

describe('plugin-mcp with a server of our own', () => {
  const own = { command: process.execPath, args: [ownServer] };

  it('follows tools/list_changed and returns isError results as errors', async () => {
    const { service } = await boot({ servers: { own } });
    await until(() => names(service()).includes('mcp__own__shout'), 'the tools');
    expect(
      await service().execute({ name: 'mcp__own__shout', arguments: { text: 'hey' }, context: context() }),
    ).toMatchObject({
      content: 'HEY',
    });
    expect(await service().execute({ name: 'mcp__own__fail', arguments: {}, context: context() })).toMatchObject({
      content: 'disk is full',
      isError: true,
      code: 'AALIS_MCP_TOOL_FAILED',
    });
    expect(names(service())).not.toContain('mcp__own__extra');
    await service().execute({ name: 'mcp__own__add_tool', arguments: {}, context: context() });
    await until(() => names(service()).includes('mcp__own__extra'), 'the changed list');
  });

  it('sends cancellation to the server when the turn is aborted, and times a call out', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'aalis-mcp-cancel-'));
    cleanups.push(() => rmSync(marks, { recursive: true, force: true }));
    const mark = join(marks, 'cancelled');
    const { service } = await boot({ servers: { own: { ...own, env: { CANCEL_MARK: mark }, callTimeoutMs: 300 } } });
    await until(() => names(service()).includes('mcp__own__wait'), 'the tools');
    const timedOut = await service().execute({ name: 'mcp__own__wait', arguments: {}, context: context() });
    expect(timedOut).toMatchObject({ isError: true, code: 'AALIS_MCP_TOOL_TIMEOUT' });
    await until(() => existsSync(mark), 'the timed-out call to be cancelled on the server');
    rmSync(mark);
    const controller = new AbortController();
    const call = service().execute({
      name: 'mcp__own__wait',
      arguments: {},
      context: context({ signal: controller.signal }),
    });
    setTimeout(() => controller.abort(), 50);
    expect((await call).isError).toBe(true);
    await until(() => existsSync(mark), 'the aborted call to be cancelled on the server');
  });

  it('withdraws the tools of a server that dies, says so once, and restarts it', async () => {
    const { service, status, booted } = await boot({ servers: { own }, reconnect: { initialMs: 100, maxMs: 200 } });
    await until(() => names(service()).includes('mcp__own__crash'), 'the tools');
    await service().execute({ name: 'mcp__own__crash', arguments: {}, context: context() });
    await until(() => !names(service()).includes('mcp__own__shout'), 'the tools to be withdrawn');
    expect(
      booted.logs.some((record) => record.message.includes('MCP own:') && record.message.includes('retrying in')),
    ).toBe(true);
    await until(
      () => status().servers()[0]?.status === 'connected' && names(service()).includes('mcp__own__shout'),
      'the restart',
    );
    expect(status().servers()[0]?.restarts).toBe(1);
  });

  it('keeps the host working when a server cannot start or is misconfigured', async () => {
    const { service, status } = await boot({
      servers: {
        missing: { command: '/nonexistent/mcp-server' },
        both: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
        own,
      },
      reconnect: { initialMs: 5_000, maxMs: 5_000 },
    });
    await until(() => names(service()).includes('mcp__own__shout'), 'the working server');
    const states = Object.fromEntries(
      status()
        .servers()
        .map((state) => [state.name, state]),
    );
    expect(states.both).toMatchObject({ status: 'invalid' });
    expect(states.both?.error).toContain('either command (stdio) or url (HTTP)');
    await until(
      () =>
        status()
          .servers()
          .find((state) => state.name === 'missing')?.status === 'reconnecting',
      'the failure',
    );
  });

  it('falls back to the older SSE transport for a server that does not speak Streamable HTTP', async () => {
    const server = await sseServer();
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as AddressInfo).port;
    const { service, status } = await boot({ servers: { legacy: { url: `http://127.0.0.1:${port}/sse` } } });
    await until(() => names(service()).includes('mcp__legacy__ping'), 'the tools');
    expect(status().servers()[0]?.transport).toBe('sse');
    expect(await service().execute({ name: 'mcp__legacy__ping', arguments: {}, context: context() })).toMatchObject({
      content: 'pong',
    });
  });
});

/** An MCP server that only speaks the older HTTP+SSE transport (GET /sse, POST /messages). */
async function sseServer(): Promise<Server> {
  const transports = new Map<string, SSEServerTransport>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const mcpServer = new McpServer({ name: 'legacy', version: '1.0.0' });
      mcpServer.registerTool(
        'ping',
        { description: 'Answers pong', inputSchema: { note: z.string().optional() } },
        async () => ({
          content: [{ type: 'text', text: 'pong' }],
        }),
      );
      await mcpServer.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (transport) return transport.handlePostMessage(req, res);
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
