// Through the real turn engine: turns whose neutral message list the Messages API would refuse as it stands — a
// turn of system blocks only (a delegation in a new session) and a history cut just before her reply — are sent
// in a shape the API takes (at least one message, the first from the user).
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { type AnthropicTestServer, startAnthropicTestServer, textReply } from '@aalis/testing';
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

async function start(
  agentConfig: Record<string, unknown> = {},
): Promise<{ harness: Harness; server: AnthropicTestServer }> {
  server = await startAnthropicTestServer({ apiKey: 'k' });
  harness = await startHarness({
    without: ['@aalis/plugin-llm-openai'],
    agentConfig,
    extra: [
      [
        anthropicPlugin,
        { baseUrl: server.url, apiKey: 'k', proxy: '', retry: { maxRetries: 0 }, models: [{ id: 'claude-agent' }] },
        { id: 'anthropic' },
      ],
    ],
  });
  return { harness, server };
}

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };

describe('requests the Messages API takes', () => {
  it('a delegation turn in a new session (system blocks only) sends its instruction as the user message', async () => {
    const { harness, server } = await start();
    const replies = harness.booted.capture('outbound:message');
    server.enqueue(textReply('delegated work done'));
    await harness.say('summarise the report', { source: 'workflow', triggerType: 'proactive' });
    expect(server.requests.map((request) => request.rejected)).toEqual([undefined]);
    expect(replies.map((reply) => reply.content)).toEqual(['delegated work done']);
    const body = server.messageBodies()[0] as unknown as Body;
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]!.role).toBe('user');
    expect(body.messages[0]!.content[0]!.text).toBe('[跨会话委派]\nsummarise the report');
  });

  it('a history the history limit cuts just before her reply starts with a fixed user note', async () => {
    const { harness, server } = await start({ historyLimit: 2 });
    for (let turn = 0; turn < 4; turn++) {
      server.enqueue(textReply(`answer ${turn}`));
      await harness.say(`question ${turn}`);
    }
    expect(server.requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined, undefined]);
    const starts = (server.messageBodies() as unknown as Body[]).map((body) => body.messages[0]!);
    expect(starts.every((message) => message.role === 'user')).toBe(true);
    expect(starts.some((message) => message.content[0]!.text === '[更早的对话已省略]')).toBe(true);
  });
});
