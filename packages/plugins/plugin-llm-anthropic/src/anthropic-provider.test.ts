// The provider against the emulating Messages API: the request it sends (system, tools, images, thinking, cache
// breakpoints), what it streams back, usage with the cache figures, and its retries and errors.
import type { ChatStreamEvent } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import {
  type AnthropicTestServer,
  errorReply,
  startAnthropicTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicFixture, API_KEY, bootAnthropic } from './fixture.case.js';

let server: AnthropicTestServer | undefined;
let fixture: AnthropicFixture | undefined;

afterEach(async () => {
  await fixture?.stop();
  await server?.close();
  fixture = undefined;
  server = undefined;
});

async function start(config: Record<string, unknown> = {}) {
  server = await startAnthropicTestServer({ apiKey: API_KEY });
  fixture = await bootAnthropic({ server, config });
  return { server, fixture };
}

const request = (messages: Message[], extra = {}) => ({
  model: 'anthropic/claude-test',
  messages,
  sessionId: 's1',
  purpose: 'conversation' as const,
  ...extra,
});

async function collect(stream: AsyncIterable<ChatStreamEvent>) {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const longSystem = `You are a careful assistant. ${'Follow the house rules. '.repeat(400)}`;

describe('@aalis/plugin-llm-anthropic', () => {
  it('sends system, tools, images and tool results as the Messages API wants them, with the key and version', async () => {
    const { server, fixture } = await start();
    server.enqueue(textReply('Done.'));
    await fixture.provider.chat(
      request(
        [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: 'What is in the picture?',
            attachments: [{ type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }],
          },
          {
            role: 'assistant',
            content: 'Let me look.',
            toolCalls: [{ id: 'toolu_a', type: 'function', function: { name: 'zoom', arguments: '{"x":1}' } }],
          },
          { role: 'tool', content: 'a cat', toolCallId: 'toolu_a' },
        ],
        {
          tools: [{ name: 'zoom', description: 'Zoom in', parameters: { type: 'object', properties: {} } }],
          toolChoice: 'required',
        },
      ),
    );
    const [sent] = server.requests;
    expect(sent!.headers['x-api-key']).toBe(API_KEY);
    expect(sent!.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent!.headers.authorization).toBeUndefined();
    const body = server.messageBodies()[0]!;
    expect(body).toMatchObject({
      model: 'claude-test',
      stream: true,
      max_tokens: 8_192,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'zoom', description: 'Zoom in', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'any' },
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in the picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_a', name: 'zoom', input: { x: 1 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'a cat', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
    expect(server.requests.every((recorded) => recorded.rejected === undefined)).toBe(true);
  });

  it('maps thinking levels to budgets and streams thinking as reasoning', async () => {
    const { server, fixture } = await start({ thinkingBudgets: { low: 1_024, medium: 4_096, high: 6_000 } });
    const model = fixture.provider.models()[0]!;
    expect(model.thinking).toMatchObject({ default: 'off' });
    server.enqueue(textReply('42', { reasoning: 'Six times seven.' }));
    const events = await collect(
      fixture.provider.chatStream(
        request([{ role: 'user', content: '6*7?' }], { thinkingLevel: 'medium', temperature: 0.3 }),
      ),
    );
    const body = server.messageBodies()[0]!;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_096 });
    expect(body.temperature).toBeUndefined();
    const reasoning = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : [])).join('');
    expect(reasoning).toBe('Six times seven.');
    const last = events.at(-1);
    expect(last?.type === 'response' && last.response.reasoningContent).toBe('Six times seven.');
    // Off sends none; a budget that does not fit under max_tokens is shrunk to fit.
    server.enqueue(textReply('ok'), textReply('ok'));
    await fixture.provider.chat(request([{ role: 'user', content: 'hi' }], { thinkingLevel: 'off' }));
    await fixture.provider.chat(
      request([{ role: 'user', content: 'hi' }], { thinkingLevel: 'high', maxOutputTokens: 4_000 }),
    );
    expect(server.messageBodies()[1]!.thinking).toBeUndefined();
    expect(server.messageBodies()[2]!.thinking).toEqual({ type: 'enabled', budget_tokens: 2_976 });
    expect(server.requests.every((recorded) => recorded.rejected === undefined)).toBe(true);
  });

  it('reads the cache on every request of a growing chat and reports it in llm:usage', async () => {
    const { server, fixture } = await start();
    const messages: Message[] = [{ role: 'system', content: longSystem }];
    for (let turn = 0; turn < 4; turn++) {
      messages.push({ role: 'user', content: `Question ${turn}: ${'details '.repeat(200)}` });
      server.enqueue(textReply(`Answer ${turn}.`));
      const response = await fixture.provider.chat(request([...messages]));
      messages.push({ role: 'assistant', content: response.content });
    }
    const [first, ...rest] = server.usages;
    expect(first!.cache_read_input_tokens).toBe(0);
    expect(first!.cache_creation_input_tokens).toBeGreaterThan(0);
    for (const usage of rest) {
      expect(usage.cache_read_input_tokens).toBeGreaterThan(0);
      expect(
        usage.cache_read_input_tokens! /
          (usage.cache_read_input_tokens! + usage.input_tokens! + usage.cache_creation_input_tokens!),
      ).toBeGreaterThan(0.7);
    }
    const last = fixture.usage.at(-1)!;
    const lastServer = server.usages.at(-1)!;
    expect(last.cachedPromptTokens).toBe(lastServer.cache_read_input_tokens);
    expect(last.cacheCreationPromptTokens).toBe(lastServer.cache_creation_input_tokens);
    expect(last.promptTokens).toBe(
      lastServer.input_tokens! + lastServer.cache_read_input_tokens! + lastServer.cache_creation_input_tokens!,
    );
    // Never more than the API's four breakpoints.
    for (const body of server.messageBodies())
      expect(JSON.stringify(body).split('cache_control').length - 1).toBeLessThanOrEqual(4);
  });

  it('without promptCaching sends no breakpoint and reads nothing', async () => {
    const { server, fixture } = await start({ promptCaching: false });
    server.enqueue(textReply('a'), textReply('b'));
    const messages: Message[] = [
      { role: 'system', content: longSystem },
      { role: 'user', content: 'one' },
    ];
    await fixture.provider.chat(request(messages));
    await fixture.provider.chat(
      request([...messages, { role: 'assistant', content: 'a' }, { role: 'user', content: 'two' }]),
    );
    expect(JSON.stringify(server.messageBodies())).not.toContain('cache_control');
    expect(server.usages.map((usage) => usage.cache_read_input_tokens)).toEqual([0, 0]);
  });

  it('continues a tool loop without thinking (the API needs the earlier thinking block, which is not kept)', async () => {
    const { server, fixture } = await start();
    server.enqueue(textReply('It is sunny.'));
    await fixture.provider.chat(
      request(
        [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'toolu_w', type: 'function', function: { name: 'weather', arguments: '' } }],
          },
          { role: 'tool', content: 'sunny', toolCallId: 'toolu_w' },
        ],
        { thinkingLevel: 'high', tools: [{ name: 'weather', parameters: { type: 'object' } }] },
      ),
    );
    expect(server.messageBodies()[0]!.thinking).toBeUndefined();
    expect(server.requests[0]!.rejected).toBeUndefined();
  });

  it('retries 529 overloaded and 429 with Retry-After like the OpenAI provider, then answers', async () => {
    const { server, fixture } = await start();
    server.enqueue(
      errorReply(529, 'Overloaded'),
      errorReply(429, 'slow down', { headers: { 'retry-after': '0' } }),
      toolCallReply([{ id: 'toolu_1', name: 'get_weather', arguments: {} }]),
    );
    const response = await fixture.provider.chat(request([{ role: 'user', content: 'hi' }]));
    expect(response.toolCalls).toEqual([
      { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(server.requests).toHaveLength(3);
  });

  it('fails with coded errors that quote the API and never the key', async () => {
    const { server, fixture } = await start({ retry: { maxRetries: 0 } });
    server.enqueue(errorReply(401, `invalid x-api-key ${API_KEY}`));
    const auth = await fixture.provider.chat(request([{ role: 'user', content: 'hi' }])).catch((error) => error);
    expect(AalisError.isInstance(auth) && auth.code).toBe('AALIS_LLM_AUTH');
    expect(auth.message).not.toContain(API_KEY);
    server.enqueue(errorReply(400, 'prompt is too long: 210000 tokens > 200000 maximum'));
    const long = await fixture.provider.chat(request([{ role: 'user', content: 'hi' }])).catch((error) => error);
    expect(long.code).toBe('AALIS_LLM_CONTEXT_TOO_LONG');
    server.enqueue({
      type: 'stream',
      steps: [{ text: 'Hal' }, { streamError: { message: 'Overloaded', code: 'overloaded_error' } }],
    });
    const midStream = await collect(fixture.provider.chatStream(request([{ role: 'user', content: 'hi' }]))).catch(
      (e) => e,
    );
    expect(midStream.code).toBe('AALIS_LLM_SERVER');
    expect(midStream.details.outputStarted).toBe(true);
    server.enqueue({ type: 'stream', steps: [{ text: 'Hal' }, { cut: true }] });
    const cut = await collect(fixture.provider.chatStream(request([{ role: 'user', content: 'hi' }]))).catch((e) => e);
    expect(AalisError.isInstance(cut)).toBe(true);
    expect(fixture.usage).toHaveLength(0);
  });
});

describe('@aalis/plugin-llm-anthropic tool results with images', () => {
  it('puts a tool’s image inside its tool_result, and describes it for a model without vision', async () => {
    const { server, fixture } = await start({
      models: [{ id: 'claude-test' }, { id: 'claude-blind', vision: false }],
    });
    const messages: Message[] = [
      { role: 'user', content: 'screenshot please' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'toolu_s', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
      },
      {
        role: 'tool',
        content: 'here it is',
        toolCallId: 'toolu_s',
        attachments: [{ type: 'image', mimeType: 'image/jpeg', data: '/9j/4AAQ', name: 'shot.jpg' }],
      },
    ];
    server.enqueue(textReply('I see it.'), textReply('I cannot see it.'));
    await fixture.provider.chat(request(messages));
    await fixture.provider.chat(request(messages, { model: 'anthropic/claude-blind' }));
    const [seen, blind] = server
      .messageBodies()
      .map((body) => (body.messages as Array<{ content: unknown[] }>)[2]!.content[0]);
    expect(seen).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_s',
      content: [
        { type: 'text', text: 'here it is' },
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      ],
    });
    expect(JSON.stringify(blind)).toContain('shot.jpg');
    expect(JSON.stringify(blind)).not.toContain('/9j/4AAQ');
  });
});
