// The default client against a real local HTTP server (node:http lives in this test file only).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlingError } from './errors.js';
import { createFetchLlmClient } from './fetch-llm-client.js';
import type { ModelRequest } from './llm-client.js';
import { createAgentRuntime } from './runtime.js';
import { manualClock } from './test-helpers.case.js';

type Handler = (body: Record<string, unknown>, response: ServerResponse, request: IncomingMessage) => void;

const received: { body: Record<string, unknown>; headers: IncomingMessage['headers']; url: string }[] = [];
let handlers: Handler[] = [];
let baseUrl = '';
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (piece) => {
    text += piece;
  });
  request.on('end', () => {
    const body = JSON.parse(text) as Record<string, unknown>;
    received.push({ body, headers: request.headers, url: request.url ?? '' });
    const handler = handlers.shift();
    if (handler) handler(body, response, request);
    else response.writeHead(500).end('{"error":{"message":"no scripted reply"}}');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function sse(chunks: unknown[]): Handler {
  return (_body, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.end('data: [DONE]\n\n');
  };
}

function json(status: number, value: unknown): Handler {
  return (_body, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    messages: [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'hi' },
    ],
    tools: [{ name: 'click', description: 'clicks', parameters: { type: 'object' } }],
    temperature: 0.3,
    maxTokens: 1024,
    stream: true,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('fetch client (OpenAI Chat Completions over HTTP)', () => {
  it('stream: true 网关支持时消费 SSE 文本增量', async () => {
    received.length = 0;
    handlers = [
      sse([
        chunk({ role: 'assistant', content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk(
          { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'click', arguments: '{"x":1}' } }] },
          'tool_calls',
        ),
        {
          choices: [],
          usage: { prompt_tokens: 12, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 8 } },
        },
      ]),
    ];
    const deltas: string[] = [];
    const client = createFetchLlmClient({ baseUrl: `${baseUrl}/`, apiKey: 'sk-test' });
    const response = await client.complete(request({ onTextDelta: (text) => deltas.push(text) }));
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(response).toEqual({
      content: 'Hello',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: '{"x":1}' } }],
      usage: { promptTokens: 12, completionTokens: 5, cachedPromptTokens: 8 },
    });
    const [sent] = received;
    expect(sent!.url).toBe('/v1/chat/completions');
    expect(sent!.headers.authorization).toBe('Bearer sk-test');
    expect(sent!.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 1024,
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: 'hi' },
      ],
      tools: [{ type: 'function', function: { name: 'click', description: 'clicks', parameters: { type: 'object' } } }],
    });
  });

  it('stream: false reads a JSON response; no Authorization header without apiKey', async () => {
    received.length = 0;
    handlers = [
      json(200, {
        model: 'served',
        choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }],
      }),
    ];
    const response = await createFetchLlmClient({ baseUrl }).complete(request({ stream: false }));
    expect(response).toEqual({ content: 'plain', toolCalls: [] });
    expect(received[0]!.body.stream).toBe(false);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it('网关支持流式却看不到增量文本: a JSON answer to a streaming request is still read', async () => {
    handlers = [json(200, { choices: [{ index: 0, message: { content: 'json anyway' }, finish_reason: 'stop' }] })];
    const response = await createFetchLlmClient({ baseUrl }).complete(request());
    expect(response.content).toBe('json anyway');
  });

  it('HTTP errors become coded PlingErrors; 429/5xx are retryable, 401 is not', async () => {
    handlers = [json(429, { error: { message: 'slow down' } }), json(401, { error: { message: 'bad key' } })];
    const client = createFetchLlmClient({ baseUrl, locale: 'en' });
    const rateLimited = await client.complete(request()).catch((error: unknown) => error);
    expect(PlingError.isInstance(rateLimited) && rateLimited).toMatchObject({
      code: 'MODEL_REQUEST_FAILED',
      status: 429,
      retryable: true,
    });
    const unauthorised = await client.complete(request()).catch((error: unknown) => error);
    expect(unauthorised).toMatchObject({ code: 'MODEL_REQUEST_FAILED', status: 401, retryable: false });
    expect((unauthorised as Error).message).toMatch(/check apiKey/);
    handlers = [json(401, { error: { message: 'bad key' } })];
    const zh = await createFetchLlmClient({ baseUrl })
      .complete(request())
      .catch((error: unknown) => error);
    expect((zh as Error).message).toMatch(/检查 apiKey/);
  });

  it('a key the gateway echoes in its error is masked; its full stop does not double ours', async () => {
    const key = 'sk-live-0123456789abcdef';
    handlers = [json(401, { error: { message: `Incorrect API key provided: ${key}.` } })];
    const error = await createFetchLlmClient({ baseUrl, apiKey: key })
      .complete(request())
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'MODEL_REQUEST_FAILED', status: 401 });
    const { message } = error as Error;
    expect(message).not.toContain(key);
    expect(message).toContain('Incorrect API key provided: [apiKey]。处理：检查 apiKey。');
  });

  it('an unreachable endpoint is a retryable NETWORK_ERROR', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await createFetchLlmClient({ baseUrl: `http://127.0.0.1:${port}` })
      .complete(request())
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
  });

  it('runtime end to end: a 503 is retried, then the SSE answer completes the send', async () => {
    received.length = 0;
    handlers = [json(503, { error: { message: 'busy' } }), sse([chunk({ content: 'ok' }, 'stop')])];
    const runtime = createAgentRuntime({
      env: { VITE_AGENT_BASE_URL: baseUrl, VITE_AGENT_MODEL: 'env-model', VITE_AGENT_API_KEY: 'k' },
      clock: manualClock(),
      config: { trace: { maxCalls: 4 } },
    });
    expect(runtime.readiness.ready).toBe(true);
    const result = await runtime.session().send('hello');
    expect(result).toMatchObject({ outcome: 'completed', text: 'ok', turns: 1 });
    expect(received.map((entry) => entry.body.model)).toEqual(['env-model', 'env-model']);
    expect(runtime.telemetry.snapshot()).toMatchObject({ modelCalls: 2, retries: 1, failedModelCalls: 1 });
    expect(runtime.trace.calls()).toHaveLength(2);
  });
});
