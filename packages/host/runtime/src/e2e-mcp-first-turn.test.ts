// MCP through the real command: `plugins.mcp.servers` names a registry server and the very first message, piped into
// `aalis chat` as the host starts, can already use its tools (the offline demo model calls them).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAalis } from './spawn-aalis.case.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-mcp-first-turn-'));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
plugins:
  memory-summary: false
  mcp:
    servers:
      everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}] }
      missing: { command: ${JSON.stringify(join(dir, 'no-such-program'))} }
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MCP tools from the first message on', () => {
  it('a message piped in as the host starts calls a registry server’s tool; a server that cannot start does not hold it up', async () => {
    const run = await runAalis({
      cwd: dir,
      args: ['chat', '--session', 'first'],
      input: 'call: mcp__everything__echo {"message":"first ping"}\n',
      env: { AALIS_WEBUI_PORT: '0' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcp__everything__echo: Echo: first ping');
    expect(run.stdout).not.toContain('no such tool');
  }, 90_000);
});
