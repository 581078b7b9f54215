// Each error class, against the scripted test server over real HTTP: coded, retryable or not, with the
// server's own message, and never the API key.
import { AalisError, translate } from '@aalis/core';
import { errorReply, type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY, baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';

let server: OpenAiTestServer;
let fixture: ProviderFixture;

beforeAll(async () => {
  server = await startOpenAiTestServer({ apiKey: API_KEY, models: ['test-model', 'other-model'] });
  fixture = await bootProvider({ server, config: { retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 10 } } });
});
afterAll(async () => {
  await fixture.stop();
  await server.close();
});
beforeEach(() => {
  server.reset();
});

async function failure(request: Partial<Parameters<ProviderFixture['provider']['chat']>[0]> = {}) {
  try {
    for await (const _event of fixture.provider.chatStream({
      ...baseRequest,
      model: fixture.model,
      messages: userMessage('hi'),
      ...request,
    })) {
      // drain
    }
  } catch (error) {
    if (AalisError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('errors', () => {
  it('401 names the instance and the base URL, quotes the server, and never shows the API key', async () => {
    const wrongKey = await bootProvider({ server, id: 'wrong-key', config: { apiKey: 'sk-wrong-key-0000' } });
    try {
      const error = await (async () => {
        try {
          await wrongKey.provider.chat({ ...baseRequest, model: 'wrong-key/test-model', messages: userMessage('hi') });
        } catch (caught) {
          return caught as AalisError;
        }
        throw new Error('expected a failure');
      })();
      expect(error.code).toBe('AALIS_LLM_AUTH');
      expect(error.isRetryable).toBe(false);
      expect(error.statusCode).toBe(401);
      expect(error.message).toContain('wrong-key');
      expect(error.message).toContain(server.url);
      expect(error.message).toContain('Incorrect API key provided');
      const everything = JSON.stringify([
        error.message,
        error.localized('zh-CN'),
        error.details,
        wrongKey.logs.map((record) => [record.message, record.fields]),
      ]);
      expect(everything).not.toContain('sk-wrong-key-0000');
      expect(everything).toContain('***');
    } finally {
      await wrongKey.stop();
    }
  });

  it('a server message ending in a full stop is quoted without it: one full stop, in both locales', async () => {
    server.enqueue(errorReply(500, 'The engine is overloaded.  '));
    const error = await failure({ ...baseRequest, messages: userMessage('hi') });
    expect(error.message).toContain('(HTTP 500): The engine is overloaded. This is a problem on the server side');
    expect(error.message).not.toContain('..');
    expect(error.localized('zh-CN')).toContain('The engine is overloaded。');
  });

  it('404 for a model lists the models the server offers', async () => {
    const stale = await bootProvider({ server, id: 'stale', config: { models: [{ id: 'retired-model' }] } });
    try {
      const error = await stale.provider
        .chat({ ...baseRequest, model: 'stale/retired-model', messages: userMessage('hi') })
        .catch((caught: AalisError) => caught);
      expect(error).toMatchObject({ code: 'AALIS_LLM_MODEL_NOT_FOUND', isRetryable: false, statusCode: 404 });
      expect((error as AalisError).details.available).toEqual(['test-model', 'other-model']);
      expect((error as AalisError).message).toContain('test-model, other-model');
      expect((error as AalisError).message).toContain('does not exist');
    } finally {
      await stale.stop();
    }
  });

  it('refuses a model it does not list before calling the server', async () => {
    const error = await failure({ model: 'hosted/unknown' });
    expect(error).toMatchObject({ code: 'AALIS_LLM_MODEL_NOT_FOUND', details: { available: 'hosted/test-model' } });
    expect(server.requests).toHaveLength(0);
  });

  it('404 from a wrong base URL says to check baseUrl', async () => {
    const misplaced = await bootProvider({
      server,
      id: 'misplaced',
      config: { baseUrl: server.url.replace('/v1', '') },
    });
    try {
      const error = await misplaced.provider
        .chat({ ...baseRequest, model: 'misplaced/test-model', messages: userMessage('hi') })
        .catch((caught: AalisError) => caught);
      expect(error).toMatchObject({ code: 'AALIS_LLM_ENDPOINT_NOT_FOUND', isRetryable: false });
      expect((error as AalisError).message).toContain('/chat/completions');
      expect((error as AalisError).message).toContain('/v1');
    } finally {
      await misplaced.stop();
    }
  });

  it('a context-length 400 is AALIS_LLM_CONTEXT_TOO_LONG', async () => {
    server.enqueue(
      errorReply(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        {
          code: 'context_length_exceeded',
          errorType: 'invalid_request_error',
        },
      ),
    );
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_CONTEXT_TOO_LONG', isRetryable: false, statusCode: 400 });
    expect(error.details.providerMessage).toContain('maximum context length is 8192');
  });

  it('429 is AALIS_LLM_RATE_LIMITED (retryable) with the server message', async () => {
    server.enqueue(errorReply(429, 'Rate limit reached for requests', { headers: { 'retry-after': '1' } }));
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_RATE_LIMITED', isRetryable: true, statusCode: 429 });
    expect(error.details).toMatchObject({ providerMessage: 'Rate limit reached for requests', retryAfterMs: 1000 });
  });

  it('5xx is AALIS_LLM_SERVER (retryable), also with a non-JSON body', async () => {
    server.enqueue(errorReply(502, '', { rawBody: '<html><body>502 Bad Gateway</body></html>' }));
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_SERVER', isRetryable: true, statusCode: 502 });
    expect(error.details.providerMessage).toContain('502 Bad Gateway');
  });

  it('a request the server rejects is AALIS_LLM_BAD_REQUEST with its message', async () => {
    const error = await failure({
      messages: [{ role: 'tool', content: 'orphan', toolCallId: 'call_x' }, ...userMessage('hi')],
    });
    expect(error).toMatchObject({ code: 'AALIS_LLM_BAD_REQUEST', isRetryable: false, statusCode: 400 });
    expect(error.details.providerMessage).toContain("messages with role 'tool' must be a response");
  });

  it('a refused connection is AALIS_LLM_NETWORK (retryable) naming the base URL', async () => {
    const closed = await startOpenAiTestServer();
    const url = closed.url;
    await closed.close();
    const offline = await bootProvider({ server: closed, id: 'offline-server', config: { baseUrl: url } });
    try {
      const error = await offline.provider
        .chat({ ...baseRequest, model: 'offline-server/test-model', messages: userMessage('hi') })
        .catch((caught: AalisError) => caught);
      expect(error).toMatchObject({ code: 'AALIS_LLM_NETWORK', isRetryable: true });
      expect((error as AalisError).message).toContain(url);
      expect((error as AalisError).message).toContain('ECONNREFUSED');
    } finally {
      await offline.stop();
    }
  });

  it('an error object inside the stream is AALIS_LLM_SERVER with the server message', async () => {
    server.enqueue({
      type: 'stream',
      steps: [{ text: 'partial' }, { streamError: { message: 'The model is overloaded', code: 'overloaded' } }],
    });
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_SERVER', details: { providerMessage: 'The model is overloaded' } });
    expect(error.details.outputStarted).toBe(true);
  });

  it('texts exist in zh-CN and en', async () => {
    server.enqueue(errorReply(500, 'boom'));
    const error = await failure();
    expect(error.localized('zh-CN')).toContain('服务端的问题');
    expect(error.localized('en')).toContain('problem on the server side');
    expect(translate(error.text, 'en')).toBe(error.message);
  });
});

describe('malformed streams', () => {
  it('a web page answered with 200 (a login portal, a wrong baseUrl) is AALIS_LLM_BAD_STREAM quoting the page', async () => {
    server.enqueue({
      type: 'stream',
      headers: { 'content-type': 'text/html; charset=utf-8' },
      steps: [{ raw: '<html>\n<body>Please log in to the Wi-Fi</body>\n</html>\n' }],
    });
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_BAD_STREAM', isRetryable: false });
    expect(error.details.line).toBe('<html> <body>Please log in to the Wi-Fi</body> </html>');
    expect(error.message).toContain('Please log in to the Wi-Fi');
  });

  it('reports malformed SSE data as AALIS_LLM_BAD_STREAM naming the line', async () => {
    server.enqueue({
      type: 'stream',
      steps: [{ text: 'ok so far' }, { raw: 'data: {"choices":[{"delta":{"content":"bro\n\n' }, { done: true }],
    });
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_BAD_STREAM', isRetryable: false });
    expect(error.details.line).toBe('{"choices":[{"delta":{"content":"bro');
    expect(error.message).toContain('{"choices":[{"delta":{"content":"bro');
  });

  it('reports a line that is not SSE in the log and reads on', async () => {
    server.enqueue({
      type: 'stream',
      steps: [{ text: 'a' }, { raw: 'this is not an SSE line\n' }, { text: 'b' }, { finish: 'stop' }, { done: true }],
    });
    const before = fixture.logs.length;
    const response = await fixture.provider.chat({ ...baseRequest, model: fixture.model, messages: userMessage('hi') });
    expect(response.content).toBe('ab');
    const warning = fixture.logs.slice(before).find((record) => record.level === 'warn');
    expect(warning?.fields).toMatchObject({ line: 'this is not an SSE line', model: 'hosted/test-model' });
  });

  it('a stream that ends before finishing is AALIS_LLM_NETWORK, not a silent short answer', async () => {
    server.enqueue({ type: 'stream', steps: [{ text: 'half an ans' }] });
    const error = await failure();
    expect(error).toMatchObject({ code: 'AALIS_LLM_NETWORK', details: { outputStarted: true } });
  });
});
