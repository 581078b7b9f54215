// @aalis/plugin-mcp: the MCP client. Each server under plugins.mcp.servers is started (stdio) or reached (HTTP)
// through the official SDK; its tools are offered as mcp__<server>__<tool> in tool group mcp:<server>. A server that
// cannot start or dies loses its tools until it is back; the others and the host keep working.
import '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import { type McpServerState, mcp } from '@aalis/api-mcp';
import { tools } from '@aalis/api-tools';
import { config, definePlugin, events, i18n, lifecycle, logger, optional, provide } from '@aalis/core';
import { MCP_SERVER_NAME, type McpServerConfig, mcpConfigSchema } from './mcp-config.js';
import { mcpErrors } from './mcp-errors.js';
import { McpServerConnection } from './mcp-server-connection.js';

const CLIENT_VERSION = '0.1.0';

/** Why a server's entry cannot start, or undefined when it can. */
export function serverConfigProblem(name: string, server: McpServerConfig): string | undefined {
  if (!MCP_SERVER_NAME.test(name)) return 'the name must be 1–32 letters, digits, "_" or "-"';
  if (server.command && server.url) return 'give either command (stdio) or url (HTTP), not both';
  if (!server.command && !server.url) return 'give command (stdio) or url (HTTP)';
  if (server.url) {
    try {
      const url = new URL(server.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be http:// or https://';
    } catch {
      return 'url is not a valid URL';
    }
  }
  return undefined;
}

export default definePlugin({
  name: '@aalis/plugin-mcp',
  provides: [mcp],
  uses: { config, logger, events, i18n, lifecycle, provide, tools, hooks: optional(hooks) },
  config: mcpConfigSchema,
  apply({ config, logger, events, i18n, lifecycle, provide, tools, hooks }) {
    const settings = config.use;
    const connections: McpServerConnection[] = [];
    const fixed: McpServerState[] = [];
    for (const [name, server] of Object.entries(settings.servers)) {
      const transport = server.url ? 'streamable-http' : 'stdio';
      const problem = serverConfigProblem(name, server);
      if (problem) {
        const error = mcpErrors.AALIS_MCP_SERVER_CONFIG_INVALID({ server: name, problem });
        logger.use.error(error.message, { code: error.code });
        fixed.push({
          name,
          transport,
          status: 'invalid',
          tools: [],
          error: error.message,
          restarts: 0,
          since: Date.now(),
        });
        continue;
      }
      if (!server.enabled) {
        fixed.push({ name, transport, status: 'disabled', tools: [], restarts: 0, since: Date.now() });
        continue;
      }
      const connection = new McpServerConnection({
        name,
        config: server,
        callTimeoutMs: settings.callTimeoutMs,
        connectTimeoutMs: settings.connectTimeoutMs,
        reconnect: settings.reconnect,
        registerTool: (tool) => tools.use.register(tool),
        logger: logger.use,
        t: (text) => i18n.use.t(text),
        onState: (state) => events.use.emit('mcp:server', state),
        clientVersion: CLIENT_VERSION,
      });
      connections.push(connection);
      connection.start();
    }
    // A turn waits until every server's first start has ended (connected, or failed and retrying later, at most
    // connectTimeoutMs), so the tools are there for a message sent right after the host starts
    // (`echo … | aalis chat`). Later restarts are not waited for.
    const started = Promise.all(connections.map((connection) => connection.firstAttempt));
    if (hooks.available && connections.length > 0) {
      hooks.use.middleware('agent:turn:before', async (_turn, next) => {
        await started;
        await next();
      });
    }
    provide.use.service(mcp, {
      servers: () => [...fixed, ...connections.map((connection) => connection.state)],
    });
    lifecycle.use.onDispose(async () => {
      await Promise.all(connections.map((connection) => connection.stop()));
    });
  },
});
