// One configured MCP server: started (stdio) or reached (Streamable HTTP, SSE as fallback) through the official
// SDK, its tools registered with the tools service while it is connected and refreshed on tools/list_changed.
// When it exits or the connection drops its tools are withdrawn, one log line says why, and it is restarted with
// backoff; the rest of the host keeps working.
import type { McpServerState, McpTransportKind } from '@aalis/api-mcp';
import type { Tool, ToolCallContext } from '@aalis/api-tools';
import type { Disposer, Logger, TextRef } from '@aalis/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcp-config.js';
import { mcpErrors } from './mcp-errors.js';
import { type McpCallResult, toToolResultFromMcp } from './mcp-result.js';
import { mcpToolGroup, mcpToolName } from './mcp-tool-name.js';

export interface McpServerConnectionOptions {
  name: string;
  config: McpServerConfig;
  callTimeoutMs: number;
  connectTimeoutMs: number;
  reconnect: { initialMs: number; maxMs: number };
  registerTool(tool: Tool): Disposer;
  logger: Logger;
  t(text: TextRef): string;
  onState(state: McpServerState): void;
  clientVersion: string;
}

interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; [key: string]: unknown };
}

export class McpServerConnection {
  private client: Client | undefined;
  private registrations: Disposer[] = [];
  private stopped = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stderrTail = '';
  private currentState: McpServerState;
  private settleFirstAttempt: () => void = () => {};
  /**
   * Settles when the first start has ended: connected with its tools registered, failed (restart scheduled) or
   * stopped. Turns wait for it, so a message sent right after the host starts sees the server's tools.
   */
  readonly firstAttempt: Promise<void> = new Promise((resolve) => {
    this.settleFirstAttempt = resolve;
  });

  constructor(private readonly options: McpServerConnectionOptions) {
    this.currentState = {
      name: options.name,
      transport: options.config.url ? 'streamable-http' : 'stdio',
      status: 'starting',
      tools: [],
      restarts: 0,
      since: Date.now(),
    };
  }

  get state(): McpServerState {
    return { ...this.currentState, tools: [...this.currentState.tools] };
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.settleFirstAttempt();
    clearTimeout(this.retryTimer);
    this.withdrawTools();
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
    this.update({ status: 'stopped', tools: [] });
  }

  private update(patch: Partial<McpServerState>): void {
    this.currentState = { ...this.currentState, ...patch, since: Date.now() };
    this.options.onState(this.state);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { name } = this.options;
    try {
      const { client, transport } = await this.open();
      if (this.stopped) {
        await client.close().catch(() => {});
        return;
      }
      this.client = client;
      client.onclose = () => this.lost(client, 'the connection closed');
      client.onerror = (error) => this.options.logger.debug(`MCP ${name}: ${error.message}`);
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        await this.refreshTools(client).catch((error: unknown) =>
          this.options.logger.warn(`MCP ${name}: refreshing the tool list failed`, { error: describe(error) }),
        );
      });
      const count = await this.refreshTools(client);
      this.attempt = 0;
      this.update({ status: 'connected', transport, error: undefined });
      this.options.logger.info(`MCP ${name}: connected over ${transport}, ${count} tools`);
    } catch (error) {
      const reason = describe(error) + (this.stderrTail ? ` — stderr: ${this.stderrTail.trim().slice(-300)}` : '');
      this.scheduleRestart(`cannot start: ${reason}`);
    } finally {
      this.settleFirstAttempt();
    }
  }

  /** Connects with the configured transport; a URL tries Streamable HTTP first, then the older SSE transport. */
  private async open(): Promise<{ client: Client; transport: McpTransportKind }> {
    const { config, connectTimeoutMs } = this.options;
    const make = () => new Client({ name: 'aalis', version: this.options.clientVersion }, { capabilities: {} });
    if (config.command) {
      this.stderrTail = '';
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
        ...(config.cwd ? { cwd: config.cwd } : {}),
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2_000);
      });
      const client = make();
      await withTimeout(client.connect(transport, { timeout: connectTimeoutMs }), connectTimeoutMs, () =>
        transport.close(),
      );
      return { client, transport: 'stdio' };
    }
    const url = new URL(config.url!);
    const headers = config.headers ?? {};
    try {
      const client = make();
      const transport: Transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
      await withTimeout(client.connect(transport, { timeout: connectTimeoutMs }), connectTimeoutMs, () =>
        transport.close(),
      );
      return { client, transport: 'streamable-http' };
    } catch (streamableError) {
      this.options.logger.debug(`MCP ${this.options.name}: Streamable HTTP failed, trying SSE`, {
        error: describe(streamableError),
      });
      const client = make();
      const transport: Transport = new SSEClientTransport(url, {
        requestInit: { headers },
        eventSourceInit: {
          fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as object), ...headers } }),
        },
      });
      try {
        await withTimeout(client.connect(transport, { timeout: connectTimeoutMs }), connectTimeoutMs, () =>
          transport.close(),
        );
      } catch (sseError) {
        throw new Error(`Streamable HTTP: ${describe(streamableError)}; SSE: ${describe(sseError)}`);
      }
      return { client, transport: 'sse' };
    }
  }

  /** Lists every page of tools and registers them in place of the previous list. Returns how many. */
  private async refreshTools(client: Client): Promise<number> {
    const listed: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.options.connectTimeoutMs });
      listed.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor);
    this.withdrawTools();
    const names: string[] = [];
    for (const info of listed) {
      const tool = this.toolOf(client, info);
      try {
        this.registrations.push(this.options.registerTool(tool));
        names.push(tool.name);
      } catch (error) {
        this.options.logger.warn(`MCP ${this.options.name}: tool ${info.name} was not offered`, {
          error: describe(error),
        });
      }
    }
    this.currentState = { ...this.currentState, tools: names };
    if (this.currentState.status === 'connected') this.update({});
    return names.length;
  }

  private toolOf(client: Client, info: McpToolInfo): Tool {
    const { name: server } = this.options;
    const schema = info.inputSchema ?? {};
    const timeoutMs = this.options.config.callTimeoutMs ?? this.options.callTimeoutMs;
    return {
      name: mcpToolName(server, info.name),
      description: info.description || info.title || info.name,
      parameters: { ...schema, type: 'object', properties: schema.properties ?? {} } as Tool['parameters'],
      group: mcpToolGroup(server),
      handler: async (args: Record<string, unknown>, context: ToolCallContext) => {
        if (this.client !== client) {
          throw mcpErrors.AALIS_MCP_SERVER_UNAVAILABLE({ server, reason: this.currentState.error ?? 'reconnecting' });
        }
        try {
          const result = (await client.callTool({ name: info.name, arguments: args }, undefined, {
            signal: context.signal,
            timeout: timeoutMs,
          })) as McpCallResult;
          return toToolResultFromMcp(result, {
            acceptsImages: context.acceptsImages,
            t: this.options.t,
            errorCode: mcpErrors.AALIS_MCP_TOOL_FAILED.code,
          });
        } catch (error) {
          // By code, not class: the SDK may be loaded more than once.
          if ((error as { code?: unknown }).code === ErrorCode.RequestTimeout && !context.signal.aborted) {
            throw mcpErrors.AALIS_MCP_TOOL_TIMEOUT({ server, tool: info.name, timeoutMs });
          }
          // Not an answer of the server (an MCP error) but the way to it failing: over HTTP nothing else tells
          // that the server went away or restarted (its session is gone), so the connection starts again.
          if (!context.signal.aborted && !isMcpError(error)) {
            this.lost(client, `a call failed: ${describe(error)}`);
            void client.close().catch(() => {});
          }
          throw mcpErrors.AALIS_MCP_TOOL_FAILED({ server, tool: info.name, reason: describe(error) });
        }
      },
    };
  }

  private withdrawTools(): void {
    for (const dispose of this.registrations.splice(0)) dispose();
  }

  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    const detail = this.stderrTail ? `${reason} — stderr: ${this.stderrTail.trim().slice(-300)}` : reason;
    this.scheduleRestart(detail);
  }

  private scheduleRestart(reason: string): void {
    this.withdrawTools();
    if (this.stopped) return;
    const delay = Math.min(this.options.reconnect.maxMs, this.options.reconnect.initialMs * 2 ** this.attempt);
    this.attempt += 1;
    this.update({ status: 'reconnecting', tools: [], error: reason, restarts: this.currentState.restarts + 1 });
    this.options.logger.warn(`MCP ${this.options.name}: ${reason}; its tools are withdrawn; retrying in ${delay} ms`);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref?.();
  }
}

/** An error the server answered with (JSON-RPC), as opposed to one of the transport. */
function isMcpError(error: unknown): boolean {
  return error instanceof McpError || (error instanceof Error && error.name === 'McpError');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Promise<void> | void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void onTimeout();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
