// Streaming behaviour against the scripted test server over real HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatStreamEvent } from '@aalis/api-llm';
import type { AalisError } from '@aalis/core';
import { type OpenAiTestServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY, baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';

let server: OpenAiTestServer;
let fixture: ProviderFixture;

beforeAll(async () => {
  server = await startOpenAiTestServer({ apiKey: API_KEY });
  fixture = await bootProvider({
    server,
    config: {
      models: [
        {
          id: 'test-model',
          name: 'Test Model',
          thinking: {
            levels: [
              { id: 'low', name: 'Low' },
              { id: 'high', name: 'High' },
            ],
            default: 'low',
          },
          prices: { promptPerMillion: 2, completionPerMillion: 8, cachedPromptPerMillion: 0.5, currency: 'USD' },
        },
        {
          id: 'qwen-local',
          capabilities: { vision: true },
          thinking: {
            levels: [
              { id: 'off', name: 'Off' },
              { id: 'on', name: 'On' },
            ],
            default: 'on',
          },
          reasoningParam: { field: 'chat_template_kwargs.enable_thinking', values: { off: false, on: true } },
          maxTokensField: 'max_completion_tokens',
          sendReasoning: false,
        },
      ],
    },
  });
});
afterAll(async () => {
  await fixture.stop();
  await server.close();
});
beforeEach(() => {
  server.reset();
});

async function run(request: Partial<Parameters<ProviderFixture['provider']['chatStream']>[0]> = {}) {
  const events: ChatStreamEvent[] = [];
  for await (const event of fixture.provider.chatStream({
    ...baseRequest,
    model: fixture.model,
    messages: userMessage('hi'),
    ...request,
  })) {
    events.push(event);
  }
  const last = events.at(-1);
  if (last?.type !== 'response') throw new Error('no response event');
  return { events, response: last.response };
}

describe('streaming', () => {
  it('streams text deltas in order and sends a Chat Completions request with include_usage', async () => {
    server.enqueue(textReply('The quick brown fox', { chunkSize: 3 }));
    const { events, response } = await run({ temperature: 0.3, maxOutputTokens: 64 });
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(deltas).toEqual(['The', ' qu', 'ick', ' br', 'own', ' fo', 'x']);
    expect(response).toMatchObject({
      content: 'The quick brown fox',
      finishReason: 'stop',
      model: 'hosted/test-model',
    });
    const [recorded] = server.requests;
    expect(recorded!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(recorded!.headers.accept).toBe('text/event-stream');
    expect(recorded!.body).toEqual({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 64,
    });
  });

  it('streams reasoning_content (and `reasoning`) as reasoning deltas', async () => {
    server.enqueue({
      type: 'stream',
      steps: [
        { reasoning: 'Let me ' },
        { reasoning: 'think.', field: 'reasoning' },
        { text: 'Answer.' },
        { finish: 'stop' },
        { done: true },
      ],
    });
    const { events, response } = await run();
    expect(events.slice(0, 3)).toEqual([
      { type: 'reasoning-delta', text: 'Let me ' },
      { type: 'reasoning-delta', text: 'think.' },
      { type: 'text-delta', text: 'Answer.' },
    ]);
    expect(response.reasoningContent).toBe('Let me think.');
    expect(response.content).toBe('Answer.');
  });

  it('assembles a tool call whose arguments arrive across separate network reads', async () => {
    server.enqueue({
      type: 'stream',
      steps: [
        { toolCall: { index: 0, id: 'call_w', name: 'get_weather', arguments: '' } },
        { flush: true },
        { toolCall: { index: 0, arguments: '{"ci' } },
        { flush: true },
        { toolCall: { index: 0, arguments: 'ty":"Par' } },
        { flush: true },
        { toolCall: { index: 0, arguments: 'is"}' } },
        { finish: 'tool_calls' },
        { done: true },
      ],
    });
    const { events, response } = await run({ tools: [{ name: 'get_weather', parameters: { type: 'object' } }] });
    expect(response.toolCalls).toEqual([
      { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    const fragments = events.flatMap((event) => (event.type === 'tool-call-delta' ? [event.argumentsDelta] : []));
    expect(fragments).toEqual(['', '{"ci', 'ty":"Par', 'is"}']);
    expect(events.filter((event) => event.type === 'tool-call-delta').every((event) => event.id === 'call_w')).toBe(
      true,
    );
    expect(server.chatBodies()[0]!.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
    ]);
  });

  it('keeps parallel tool calls apart when their fragments interleave', async () => {
    server.enqueue({
      type: 'stream',
      steps: [
        { toolCall: { index: 0, id: 'call_a', name: 'search', arguments: '{"q":' } },
        { toolCall: { index: 1, id: 'call_b', name: 'clock', arguments: '{"tz"' } },
        { toolCall: { index: 0, arguments: '"cats"}' } },
        { toolCall: { index: 1, arguments: ':"UTC"}' } },
        { finish: 'tool_calls' },
        { done: true },
      ],
    });
    const { response } = await run();
    expect(
      response.toolCalls.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([
      ['call_a', 'search', { q: 'cats' }],
      ['call_b', 'clock', { tz: 'UTC' }],
    ]);
  });

  it('sends the tool loop back in wire form (assistant tool_calls, then tool results)', async () => {
    server.enqueue(toolCallReply([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }]));
    const first = await run();
    server.enqueue(textReply('It is cold in Oslo.'));
    const { response } = await run({
      messages: [
        ...userMessage('Weather in Oslo?'),
        { role: 'assistant', content: '', toolCalls: first.response.toolCalls, reasoningContent: 'need weather' },
        { role: 'tool', content: '-3 °C', toolCallId: 'call_1' },
      ],
    });
    expect(response.content).toBe('It is cold in Oslo.');
    expect(server.chatBodies()[1]!.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'need weather',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', content: '-3 °C', tool_call_id: 'call_1' },
    ]);
  });
});

describe('usage', () => {
  it('reports usage with OpenAI cached tokens and emits llm:usage with an estimated cost', async () => {
    server.enqueue(
      textReply('ok', { usage: { promptTokens: 1_000_000, completionTokens: 500_000, cachedTokens: 400_000 } }),
    );
    const before = fixture.usage.length;
    const { response } = await run({ sessionId: 'session-7', purpose: 'subtask' });
    expect(response.usage).toEqual({ promptTokens: 1_000_000, completionTokens: 500_000, cachedPromptTokens: 400_000 });
    expect(fixture.usage.length).toBe(before + 1);
    expect(fixture.usage.at(-1)).toMatchObject({
      sessionId: 'session-7',
      purpose: 'subtask',
      provider: 'hosted',
      model: 'hosted/test-model',
      promptTokens: 1_000_000,
      completionTokens: 500_000,
      cachedPromptTokens: 400_000,
      // 600k × 2 + 400k × 0.5 + 500k × 8, per million
      estimatedCost: 5.4,
      currency: 'USD',
    });
  });

  it('reads DeepSeek prompt_cache_hit_tokens', async () => {
    server.enqueue({
      type: 'stream',
      steps: [
        { text: 'x' },
        { finish: 'stop' },
        { usage: { promptTokens: 90, completionTokens: 1, cachedTokens: 64, cacheField: 'deepseek' } },
        { done: true },
      ],
    });
    const { response } = await run();
    expect(response.usage).toEqual({ promptTokens: 90, completionTokens: 1, cachedPromptTokens: 64 });
  });

  it('omits cost for a model without prices, and emits no usage for a failed call', async () => {
    server.enqueue(textReply('ok'));
    await run({ model: 'hosted/qwen-local' });
    expect(fixture.usage.at(-1)!.estimatedCost).toBeUndefined();
    const before = fixture.usage.length;
    server.enqueue({ type: 'error', status: 400, message: 'nope' });
    await expect(run()).rejects.toMatchObject({ code: 'AALIS_LLM_BAD_REQUEST' });
    expect(fixture.usage.length).toBe(before);
  });
});

describe('request mapping', () => {
  it('maps the thinking level to reasoning_effort, and leaves out a level the model lacks', async () => {
    server.enqueue(textReply('a'), textReply('b'));
    await run({ thinkingLevel: 'high' });
    await run({ thinkingLevel: 'extreme' });
    const [first, second] = server.chatBodies();
    expect(first!.reasoning_effort).toBe('high');
    expect(second).not.toHaveProperty('reasoning_effort');
  });

  it('maps thinking levels through a per-model field and values, and honours per-model request options', async () => {
    server.enqueue(textReply('a'));
    await run({
      model: 'hosted/qwen-local',
      thinkingLevel: 'off',
      maxOutputTokens: 10,
      messages: [
        ...userMessage('q'),
        { role: 'assistant', content: 'a', reasoningContent: 'private' },
        ...userMessage('again'),
      ],
    });
    const body = server.chatBodies()[0]!;
    expect(body.model).toBe('qwen-local');
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(body.max_completion_tokens).toBe(10);
    expect(JSON.stringify(body.messages)).not.toContain('reasoning_content');
  });

  it('sends images as content parts to a vision model and a catalogue text to others', async () => {
    const messages = [
      {
        role: 'user' as const,
        content: 'What is in the picture?',
        attachments: [{ type: 'image' as const, url: 'https://example.com/a.png', name: 'a.png' }],
      },
    ];
    server.enqueue(textReply('a cat'), textReply('cannot see'));
    await run({ model: 'hosted/qwen-local', messages });
    await run({ messages });
    const [vision, blind] = server.chatBodies();
    expect(vision!.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in the picture?' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
    ]);
    expect(blind!.messages).toEqual([
      { role: 'user', content: 'What is in the picture?\n[附件 a.png 没有发给模型：它不接受这种内容]' },
    ]);
  });
});

describe('non-streaming', () => {
  it('chat() sends stream: false and reads the JSON response', async () => {
    server.enqueue({
      type: 'json',
      content: 'Done.',
      reasoning: 'thought',
      usage: { promptTokens: 7, completionTokens: 2, cachedTokens: 3 },
    });
    const response = await fixture.provider.chat({ ...baseRequest, model: fixture.model, messages: userMessage('hi') });
    expect(response).toEqual({
      content: 'Done.',
      reasoningContent: 'thought',
      toolCalls: [],
      usage: { promptTokens: 7, completionTokens: 2, cachedPromptTokens: 3 },
      finishReason: 'stop',
      model: 'hosted/test-model',
    });
    const body = server.chatBodies()[0]!;
    expect(body.stream).toBe(false);
    expect(body).not.toHaveProperty('stream_options');
    expect(server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('chatStream() accepts a server that answers with JSON anyway', async () => {
    server.enqueue({
      type: 'json',
      toolCalls: [{ id: 'c9', name: 'lookup', arguments: '{"id":9}' }],
    });
    const { events, response } = await run();
    expect(events.map((event) => event.type)).toEqual(['tool-call-delta', 'response']);
    expect(response.toolCalls[0]!.function).toEqual({ name: 'lookup', arguments: '{"id":9}' });
  });
});

describe('a response that runs far past max_tokens', () => {
  /**
   * A broken server: streams up to `limitBytes` of SSE (written as fast as the client reads), and tells how much it
   * could send before the client hung up.
   */
  async function brokenServer(piece: (index: number) => string, limitBytes: number) {
    let sent = 0;
    let hungUp = false;
    let closed!: () => void;
    const done = new Promise<void>((resolveDone) => {
      closed = resolveDone;
    });
    const http = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.on('close', () => {
        hungUp = !res.writableFinished;
        closed();
      });
      void (async () => {
        for (let index = 0; sent < limitBytes && !res.destroyed; index++) {
          const text = piece(index);
          sent += Buffer.byteLength(text);
          if (!res.write(text)) await new Promise((resume) => res.once('drain', resume));
        }
        res.end();
      })();
    });
    await new Promise<void>((resolveListen) => http.listen(0, '127.0.0.1', resolveListen));
    const { port } = http.address() as AddressInfo;
    const broken = await bootProvider({
      server,
      id: `broken-${port}`,
      config: { baseUrl: `http://127.0.0.1:${port}/v1`, retry: { maxRetries: 0 } },
    });
    let error: AalisError | undefined;
    let received = 0;
    try {
      for await (const event of broken.provider.chatStream({
        ...baseRequest,
        model: broken.model,
        messages: userMessage('hi'),
        maxOutputTokens: 16,
      })) {
        if (event.type === 'text-delta') received += event.text.length;
      }
    } catch (caught) {
      error = caught as AalisError;
    } finally {
      await done;
      await broken.stop();
      http.closeAllConnections();
      await new Promise((closed) => http.close(closed));
    }
    return { error, received, sent, hungUp };
  }

  const chunk = (text: string) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'test-model', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;

  it('#11.20 is cut with a clear coded error instead of being read to its end (reply text, an endless line)', async () => {
    // 200 MB of reply text offered for a request of 16 tokens.
    const block = 'x'.repeat(1_000);
    const text = await brokenServer(() => chunk(block), 200 * 1_048_576);
    expect(text.error).toMatchObject({
      code: 'AALIS_LLM_BAD_STREAM',
      isRetryable: false,
      details: { overlong: 'output', maxTokens: 16, limit: 512, outputStarted: true },
    });
    expect(text.error!.message).toContain('max_tokens（16）：已超过 512 个字符');
    expect(text.received).toBeLessThanOrEqual(512);
    expect(text.hungUp).toBe(true); // the client closed the connection instead of reading on

    // One SSE line that never ends: cut by the body limit, without holding the whole line.
    const endless = await brokenServer(
      (index) => (index === 0 ? 'data: {"choices":[{"delta":{"content":"' : 'y'.repeat(65_536)),
      200 * 1_048_576,
    );
    expect(endless.error).toMatchObject({ code: 'AALIS_LLM_BAD_STREAM', details: { overlong: 'body' } });
    expect(endless.hungUp).toBe(true);
  });

  it('#11.20 cuts a JSON answer far past max_tokens too', async () => {
    server.enqueue({ type: 'json', content: 'z'.repeat(100_000) });
    const error = await fixture.provider
      .chat({ ...baseRequest, model: fixture.model, messages: userMessage('hi'), maxOutputTokens: 16 })
      .then(
        () => undefined,
        (caught: AalisError) => caught,
      );
    expect(error).toMatchObject({ code: 'AALIS_LLM_BAD_STREAM', details: { overlong: 'output', limit: 512 } });
  });
});
