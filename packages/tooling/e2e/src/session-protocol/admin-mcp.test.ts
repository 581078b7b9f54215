// Conformance: the owner's admin data shows each configured MCP server's state ("the WebUI admin area shows each
// server's state"): a working stdio server with its tools, and one that cannot start with its error.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { McpServerView, SessionClient } from '@aalis/session-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, waitFor } from './harness.case.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

const file = hostPerFile({
  extraConfig: `  mcp:
    reconnect: { initialMs: 60000, maxMs: 60000 }
    servers:
      everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }
      missing: { command: /nonexistent/mcp-server }
`,
  startTimeoutMs: 60_000,
});
let client: SessionClient;
beforeAll(async () => {
  client = clientFor(file.host, file.cookie);
  await client.connect();
});
afterAll(() => client?.close());

describe('admin.mcp', () => {
  it('lists every MCP server with its transport, status, tools and last error', async () => {
    let servers: McpServerView[] = [];
    await waitFor(async () => {
      servers = (await client.request('admin.mcp', {})).servers;
      const ready = servers.find((server) => server.name === 'everything')?.status === 'connected';
      const failed = servers.find((server) => server.name === 'missing')?.status === 'reconnecting';
      return ready && failed;
    }, 20_000);
    expect(servers.find((server) => server.name === 'everything')).toMatchObject({ transport: 'stdio' });
    expect(servers.find((server) => server.name === 'everything')?.tools).toContain('mcp__everything__echo');
    expect(servers.find((server) => server.name === 'missing')?.error).toBeTruthy();
  });
});
