// Through the real turn engine (plugin-agent's harness, the OpenAI provider left out): the requests the agent
// assembles turn after turn, tool loops included, each read the prompt cache after the first.
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { type AnthropicTestServer, startAnthropicTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import anthropicPlugin from './index.js';

let harness: Harness | undefined;
let server: AnthropicTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  await server?.close();
  harness = undefined;
  server = undefined;
});

describe('prompt caching under the agent', () => {
  it('every request after the first reads the cache, within and across turns', async () => {
    // A small minimum so the harness's short prompts are cacheable; the rules are otherwise the API's.
    server = await startAnthropicTestServer({ apiKey: 'k', minimumCacheTokens: 64 });
    harness = await startHarness({
      without: ['@aalis/plugin-llm-openai'],
      agentConfig: { systemPrompt: `You are a test assistant. ${'Be exact. '.repeat(60)}` },
      tools: [
        {
          name: 'lookup',
          description: 'Looks a word up',
          parameters: { type: 'object', properties: { word: { type: 'string' } } },
          handler: (args) => `definition of ${String((args as { word?: string }).word)}`,
        },
      ],
      extra: [
        [
          anthropicPlugin,
          { baseUrl: server.url, apiKey: 'k', proxy: '', retry: { maxRetries: 0 }, models: [{ id: 'claude-agent' }] },
          { id: 'anthropic' },
        ],
      ],
    });
    for (let turn = 0; turn < 4; turn++) {
      if (turn % 2 === 0)
        server.enqueue(toolCallReply([{ id: `toolu_${turn}`, name: 'lookup', arguments: { word: `w${turn}` } }]));
      server.enqueue(textReply(`Answer number ${turn}, with a few words to make it longer.`));
      await harness.say(`Question ${turn}: what does w${turn} mean?`);
    }
    expect(server.requests.every((request) => request.rejected === undefined)).toBe(true);
    expect(server.usages).toHaveLength(6);
    expect(server.usages[0]!.cache_read_input_tokens).toBe(0);
    for (const usage of server.usages.slice(1)) expect(usage.cache_read_input_tokens).toBeGreaterThan(0);
    const breakpoints = server.messageBodies().map((body) => JSON.stringify(body).split('"cache_control"').length - 1);
    expect(Math.max(...breakpoints)).toBeLessThanOrEqual(4);
  });
});
