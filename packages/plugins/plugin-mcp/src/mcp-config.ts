// The config section `plugins.mcp`: the MCP servers whose tools she may use.
import { type Infer, s } from '@aalis/core';

export const mcpServerSchema = s.object({
  command: s.string().nonEmpty().optional().describe('stdio: the program that runs the server (e.g. npx, node, uvx).'),
  args: s.array(s.string()).default([]).describe('stdio: its arguments.'),
  env: s
    .record(s.string())
    .optional()
    .describe('stdio: extra environment variables (added to a minimal safe environment: PATH, HOME …).'),
  cwd: s.string().nonEmpty().optional().describe('stdio: its working directory.'),
  url: s
    .string()
    .nonEmpty()
    .optional()
    .describe(
      'HTTP: the Streamable HTTP endpoint (e.g. http://127.0.0.1:3001/mcp); the older SSE transport is tried when it fails.',
    ),
  headers: s.record(s.string()).optional().describe('HTTP: request headers (e.g. Authorization). Never logged.'),
  enabled: s.boolean().default(true).describe('false keeps the entry but does not start the server.'),
  callTimeoutMs: s
    .number()
    .integer()
    .min(100)
    .optional()
    .describe('This server’s tool-call time limit (default: callTimeoutMs).'),
});

export const mcpConfigSchema = s.object({
  servers: s
    .record(mcpServerSchema)
    .default({})
    .describe(
      'MCP servers by name (letters, digits, "_", "-"): each is either { command, args?, env?, cwd? } (stdio) or { url, headers? } (HTTP). Their tools are offered as mcp__<name>__<tool> in tool group mcp:<name>.',
    ),
  callTimeoutMs: s.number().integer().min(100).default(120_000).describe('How long one tool call may take.'),
  connectTimeoutMs: s
    .number()
    .integer()
    .min(100)
    .default(30_000)
    .describe('How long starting and initialising a server may take.'),
  reconnect: s.object({
    initialMs: s
      .number()
      .integer()
      .min(10)
      .default(1_000)
      .describe('First delay before restarting a server that failed or exited; doubles per failure.'),
    maxMs: s.number().integer().min(10).default(60_000).describe('Longest delay between restarts.'),
  }),
});

export type McpConfig = Infer<typeof mcpConfigSchema>;
export type McpServerConfig = Infer<typeof mcpServerSchema>;

/** Server names as they appear in tool names and groups. */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;
