// @aalis/api-mcp: what the MCP client tells about its servers. The WebUI's admin area lists them; `mcp:server`
// says when one changed.
import { defineService, type ServiceDescriptor } from '@aalis/core';

export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

export interface McpServerState {
  /** The key under plugins.mcp.servers. */
  name: string;
  transport: McpTransportKind;
  /** `disabled`: enabled: false; `invalid`: its configuration cannot start (see error). */
  status: 'starting' | 'connected' | 'reconnecting' | 'disabled' | 'invalid' | 'stopped';
  /** The tool names offered to the model (mcp__<server>__<tool>) while connected. */
  tools: string[];
  /** The last failure, one sentence, never a secret. */
  error?: string;
  /** How many times it was restarted after a failure. */
  restarts: number;
  /** When the status last changed (ms since the epoch). */
  since: number;
}

export interface McpService {
  servers(): McpServerState[];
}

export const mcp: ServiceDescriptor<McpService> = defineService<McpService>('mcp');

declare module '@aalis/core' {
  interface EventMap {
    /** An MCP server's state changed. */
    'mcp:server': McpServerState;
  }
}
