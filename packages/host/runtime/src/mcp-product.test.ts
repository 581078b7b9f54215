// plugin-mcp through the product: `plugins.mcp.servers` in aalis.config.yaml starts the registry's
// server-everything over stdio; the model calls its echo tool and reads the result; a header value never reaches
// the log.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { tools } from '@aalis/api-tools';
import { type OpenAiTestServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAalis } from './start-aalis.js';

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());

describe('MCP servers from aalis.config.yaml', () => {
  it('offers a registry server’s tools to the model and returns their results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-mcp-product-'));
    try {
      writeFileSync(
        join(dir, 'aalis.config.yaml'),
        `locale: en
logLevel: debug
llm: { baseUrl: ${model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  mcp:
    servers:
      everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio], env: { EVERYTHING_TOKEN: "mcp-env-secret-value" } }
      broken: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer mcp-header-secret" } }
`,
      );
      const aalis = await startAalis({
        cwd: dir,
        env: {},
        mode: 'none',
        output: new PassThrough(),
        errorOutput: new PassThrough(),
      });
      try {
        const service = aalis.app.services.selected(tools)!.impl;
        for (
          let tries = 0;
          tries < 300 && !service.list().some((tool) => tool.name === 'mcp__everything__echo');
          tries++
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        model.enqueue(
          toolCallReply([{ id: 'c1', name: 'mcp__everything__echo', arguments: { message: 'ping' } }]),
          textReply('The server said: Echo: ping'),
        );
        await aalis.app.services.selected((await import('@aalis/api-gateway')).gateway)!.impl.receive({
          sessionId: 'api:mcp',
          platform: 'api',
          sender: { userId: 'u' },
          content: 'echo ping please',
        });
        const [first, second] = model.chatBodies() as {
          tools?: { function: { name: string } }[];
          messages: unknown[];
        }[];
        expect(first?.tools?.map((tool) => tool.function.name)).toContain('mcp__everything__echo');
        expect(JSON.stringify(second?.messages)).toContain('Echo: ping');
      } finally {
        await aalis.stop();
      }
      const log = readFileSync(join(dir, 'data', 'logs', 'aalis.log'), 'utf8');
      expect(log).toContain('MCP everything: connected');
      expect(log).toContain('MCP broken:');
      expect(log).not.toContain('mcp-header-secret');
      expect(log).not.toContain('mcp-env-secret-value');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
