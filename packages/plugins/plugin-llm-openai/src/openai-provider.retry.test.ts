// Retries (before the first byte only), Retry-After, connect and idle timeouts, and abort — over real HTTP.
import type { ChatStreamEvent } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import { errorReply, type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiConfigSchema } from './config-schema.js';
import { API_KEY, baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';

let server: OpenAiTestServer;
let fixture: ProviderFixture;

beforeAll(async () => {
  server = await startOpenAiTestServer({ apiKey: API_KEY });
  fixture = await bootProvider({
    server,
    config: {
      timeouts: { connectMs: 400, headersMs: 400, idleMs: 400 },
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 100 },
    },
  });
});
afterAll(async () => {
  await fixture.stop();
  await server.close();
});
beforeEach(() => {
  server.reset();
  fixture.logs.length = 0;
});

const retries = () =>
  fixture.logs.filter((record) => record.message === 'retrying the call').map((record) => record.fields ?? {});

async function stream(options: { signal?: AbortSignal; onEvent?: (event: ChatStreamEvent) => void } = {}) {
  const events: ChatStreamEvent[] = [];
  try {
    for await (const event of fixture.provider.chatStream(
      { ...baseRequest, model: fixture.model, messages: userMessage('hi') },
      { signal: options.signal },
    )) {
      events.push(event);
      options.onEvent?.(event);
    }
    return { events, error: undefined };
  } catch (error) {
    if (!AalisError.isInstance(error)) throw error;
    return { events, error };
  }
}

describe('retries', () => {
  it('retries a 503 and then succeeds', async () => {
    server.enqueue(errorReply(503, 'busy'), textReply('recovered'));
    const { events, error } = await stream();
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: 'recovered' } });
    expect(server.requests).toHaveLength(2);
    expect(retries()).toEqual([expect.objectContaining({ attempt: 1, reason: 'HTTP 503' })]);
  });

  it('retries 408, 409 and 429 as well, but not 400', async () => {
    server.enqueue(errorReply(408, 'timeout'), errorReply(409, 'conflict'), textReply('third time'));
    expect((await stream()).error).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    server.requests.length = 0;
    server.enqueue(errorReply(429, 'slow down'), textReply('ok'));
    expect((await stream()).error).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    server.enqueue(errorReply(400, 'bad'), textReply('never'));
    expect((await stream()).error?.code).toBe('AALIS_LLM_BAD_REQUEST');
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After (retry-after-ms, and seconds)', async () => {
    server.enqueue(
      errorReply(429, 'slow down', { headers: { 'retry-after-ms': '42' } }),
      errorReply(503, 'later', { headers: { 'retry-after': '0.07' } }),
      textReply('ok'),
    );
    expect((await stream()).error).toBeUndefined();
    expect(retries().map((fields) => fields.delayMs)).toEqual([42, 70]);
  });

  it('does not retry when Retry-After is longer than maxDelayMs, and says how long', async () => {
    server.enqueue(errorReply(429, 'quota window', { headers: { 'retry-after': '30' } }));
    const { error } = await stream();
    expect(error).toMatchObject({
      code: 'AALIS_LLM_RATE_LIMITED',
      isRetryable: true,
      details: { retryAfterMs: 30_000 },
    });
    expect(server.requests).toHaveLength(1);
    expect(retries()).toEqual([]);
  });

  it('backs off exponentially with jitter, and gives up after maxRetries', async () => {
    server.enqueue(errorReply(500, 'a'), errorReply(500, 'b'), errorReply(500, 'c'));
    const { error } = await stream();
    expect(error).toMatchObject({ code: 'AALIS_LLM_SERVER', details: { providerMessage: 'c' } });
    expect(server.requests).toHaveLength(3);
    const delays = retries().map((fields) => fields.delayMs as number);
    expect(delays).toHaveLength(2);
    // base 1 ms: attempt 0 waits within [0.5, 1], attempt 1 within [1, 2]
    expect(delays[0]).toBeGreaterThanOrEqual(0);
    expect(delays[0]).toBeLessThanOrEqual(1);
    expect(delays[1]).toBeGreaterThanOrEqual(1);
    expect(delays[1]).toBeLessThanOrEqual(2);
  });

  it('retries a connection dropped before any response', async () => {
    server.enqueue({ type: 'drop' }, textReply('second try'));
    const { events, error } = await stream();
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ response: { content: 'second try' } });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a body that breaks before its first event (headers and role chunk only)', async () => {
    server.enqueue(
      { type: 'stream', steps: [{ role: 'assistant' }, { flush: true }, { cut: true }] },
      { type: 'stream', steps: [{ role: 'assistant' }] },
      textReply('third time lucky'),
    );
    const { events, error } = await stream();
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ response: { content: 'third time lucky' } });
    expect(server.requests).toHaveLength(3);
    expect(retries().map((fields) => fields.reason)).toEqual(['AALIS_LLM_NETWORK', 'AALIS_LLM_NETWORK']);
  });

  it('never retries once the response has started: a stream cut mid-way fails the call', async () => {
    server.enqueue(
      { type: 'stream', steps: [{ text: 'Once upon' }, { flush: true }, { text: ' a time' }, { cut: true }] },
      textReply('must not be used'),
    );
    const { events, error } = await stream();
    expect(error).toMatchObject({ code: 'AALIS_LLM_NETWORK', isRetryable: true, details: { outputStarted: true } });
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : event.type))).toEqual([
      'Once upon',
      ' a time',
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });
});

describe('timeouts', () => {
  it('times out waiting for the response headers (headersMs), without a retry', async () => {
    const slow = { type: 'stream' as const, headersDelayMs: 10_000, steps: [{ text: 'late' }] };
    server.enqueue(slow, slow, slow);
    const { error } = await stream();
    expect(error).toMatchObject({ code: 'AALIS_LLM_TIMEOUT', isRetryable: false, details: { timeout: 'headers' } });
    expect(error!.message).toContain('timeouts.headersMs');
    expect(server.requests).toHaveLength(1);
    expect(retries()).toEqual([]);
  });

  it('defaults fail a stalled server within about a minute, each stall once; every timeout is set per model', async () => {
    // The defaults: a connection and the request sent within 15 s (retried), then at most 60 s of silence before the headers or between
    // parts of the body (not retried). A stream that keeps sending may take as long as it needs.
    const { value } = openAiConfigSchema.validate({ baseUrl: 'http://127.0.0.1:1/v1' });
    expect(value.timeouts).toEqual({ connectMs: 15_000, headersMs: 60_000, idleMs: 60_000 });
    expect(value.retry.maxRetries).toBe(2);

    const perModel = await bootProvider({
      server,
      id: 'per-model',
      config: {
        timeouts: { connectMs: 30_000, headersMs: 30_000, idleMs: 30_000 },
        models: [
          { id: 'test-model', timeouts: { headersMs: 300, idleMs: 300 } },
          { id: 'patient-model', timeouts: { headersMs: 5_000 } },
        ],
      },
    });
    try {
      const call = (model: string) =>
        perModel.provider.chat({ ...baseRequest, model: `per-model/${model}`, messages: userMessage('hi') }).then(
          () => undefined,
          (caught: AalisError) => caught,
        );
      // Never answers: one request, one timeout.
      server.enqueue({ type: 'hang' }, { type: 'hang' }, { type: 'hang' });
      expect(await call('test-model')).toMatchObject({ code: 'AALIS_LLM_TIMEOUT', details: { timeout: 'headers' } });
      expect(server.requests).toHaveLength(1);
      // Headers, then nothing: one request, one idle timeout.
      server.reset();
      const silent = {
        type: 'stream' as const,
        steps: [{ delayMs: 10_000 }, { text: 'late' }, { done: true as const }],
      };
      server.enqueue(silent, silent, silent);
      const stalled = await perModel.provider
        .chatStream({ ...baseRequest, model: 'per-model/test-model', messages: userMessage('hi') })
        [Symbol.asyncIterator]()
        .next()
        .then(
          () => undefined,
          (caught: AalisError) => caught,
        );
      expect(stalled).toMatchObject({
        code: 'AALIS_LLM_TIMEOUT',
        isRetryable: false,
        details: { timeout: 'idle', outputStarted: false },
      });
      expect(stalled!.message).toContain('300 ms');
      expect(server.requests).toHaveLength(1);
      // Another model of the same instance keeps its own, longer wait: a slow first answer still arrives.
      server.reset();
      const late = textReply('slow but fine');
      if (late.type === 'stream') late.headersDelayMs = 600;
      server.enqueue(late);
      const slow = await perModel.provider.chat({
        ...baseRequest,
        model: 'per-model/patient-model',
        messages: userMessage('hi'),
      });
      expect(slow.content).toBe('slow but fine');
    } finally {
      await perModel.stop();
    }
  });

  it('times out when the stream goes silent (idleMs), without a retry', async () => {
    server.enqueue(
      {
        type: 'stream',
        steps: [{ text: 'a' }, { delayMs: 10_000 }, { text: 'b' }, { finish: 'stop' }, { done: true }],
      },
      textReply('must not be used'),
    );
    const { events, error } = await stream();
    expect(error).toMatchObject({
      code: 'AALIS_LLM_TIMEOUT',
      details: { timeout: 'idle', outputStarted: true },
    });
    expect(error!.message).toContain('timeouts.idleMs');
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(server.requests).toHaveLength(1);
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient).toBe(true);
  });
});

describe('abort', () => {
  it('closes the connection at once when aborted mid-stream', async () => {
    server.enqueue({
      type: 'stream',
      steps: [{ text: 'first' }, { flush: true }, { delayMs: 60_000 }, { text: 'never' }, { done: true }],
    });
    const controller = new AbortController();
    const { events, error } = await stream({ signal: controller.signal, onEvent: () => controller.abort() });
    expect(error).toMatchObject({ code: 'AALIS_LLM_ABORTED', isRetryable: false, details: { outputStarted: true } });
    expect(events).toEqual([{ type: 'text-delta', text: 'first' }]);
    // Resolves only when the server sees the connection close (the script would otherwise wait a minute).
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient).toBe(true);
  });

  it('closes the connection when the consumer stops reading early', async () => {
    server.enqueue({
      type: 'stream',
      steps: [{ role: 'assistant' }, { text: 'enough' }, { flush: true }, { delayMs: 60_000 }, { done: true }],
    });
    for await (const event of fixture.provider.chatStream({
      ...baseRequest,
      model: fixture.model,
      messages: userMessage('hi'),
    })) {
      if (event.type === 'text-delta') break;
    }
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient).toBe(true);
  });

  it('aborts while waiting for the response, and while waiting to retry', async () => {
    server.enqueue({ type: 'hang' });
    const hanging = new AbortController();
    const first = stream({ signal: hanging.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    hanging.abort();
    expect((await first).error?.code).toBe('AALIS_LLM_ABORTED');
    await server.requests[0]!.closed;

    server.requests.length = 0;
    const patient = await bootProvider({
      server,
      id: 'patient',
      config: { retry: { maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } },
    });
    try {
      server.enqueue(errorReply(503, 'busy'));
      const controller = new AbortController();
      const call = patient.provider
        .chat(
          { ...baseRequest, model: 'patient/test-model', messages: userMessage('hi') },
          { signal: controller.signal },
        )
        .catch((caught: AalisError) => caught);
      while (!patient.logs.some((record) => record.message === 'retrying the call')) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      controller.abort();
      expect(await call).toMatchObject({ code: 'AALIS_LLM_ABORTED' });
      expect(server.requests).toHaveLength(1);
    } finally {
      await patient.stop();
    }
  });

  it('aborts in-flight calls when the plugin deactivates', async () => {
    const doomed = await bootProvider({ server, id: 'doomed' });
    server.enqueue({ type: 'hang' });
    server.requests.length = 0;
    const call = doomed.provider
      .chat({ ...baseRequest, model: 'doomed/test-model', messages: userMessage('hi') })
      .catch((caught: AalisError) => caught);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await doomed.stop();
    expect(await call).toMatchObject({ code: 'AALIS_LLM_ABORTED' });
  });
});
