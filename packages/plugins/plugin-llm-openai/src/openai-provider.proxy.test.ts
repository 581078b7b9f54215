// Through an HTTP proxy, over real sockets: forwarding of http base URLs, the environment's proxy and NO_PROXY,
// refusals and unreachable proxies as coded, retried connection errors, and timeouts and abort during a CONNECT.

import { createServer } from 'node:net';
import type { ChatStreamEvent } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import {
  type OpenAiTestServer,
  startOpenAiTestServer,
  startTestProxy,
  type TestProxy,
  textReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEY, baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';

let server: OpenAiTestServer;
const proxies: TestProxy[] = [];
const fixtures: ProviderFixture[] = [];

beforeAll(async () => {
  server = await startOpenAiTestServer({ apiKey: API_KEY });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const fixture of fixtures.splice(0)) await fixture.stop();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function proxyWith(options: Parameters<typeof startTestProxy>[0] = {}) {
  const proxy = await startTestProxy(options);
  proxies.push(proxy);
  return proxy;
}

async function boot(config: Record<string, unknown>) {
  const fixture = await bootProvider({ server, config, locale: 'en' });
  fixtures.push(fixture);
  return fixture;
}

async function stream(fixture: ProviderFixture, signal?: AbortSignal) {
  const events: ChatStreamEvent[] = [];
  try {
    const request = { ...baseRequest, model: fixture.model, messages: userMessage('hi') };
    for await (const event of fixture.provider.chatStream(request, { signal })) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    if (!AalisError.isInstance(error)) throw error;
    return { events, error };
  }
}

/** Everything a user or a log could see. */
const visible = (fixture: ProviderFixture, error?: AalisError) =>
  JSON.stringify([fixture.logs, error?.message, error?.localized('zh-CN'), error?.details]);

const retries = (fixture: ProviderFixture) => fixture.logs.filter((record) => record.message === 'retrying the call');

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('http base URL through a proxy', () => {
  it('streams a chat: the proxy gets the absolute URL and the credentials, the log names host:port only', async () => {
    const proxy = await proxyWith({ credentials: 'alice:s3cret/!' });
    const fixture = await boot({ proxy: `http://alice:s3cret%2F!@127.0.0.1:${proxy.port}` });
    server.enqueue(textReply('through the proxy'));
    const { events, error } = await stream(fixture);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: 'through the proxy' } });
    expect(proxy.forwarded).toEqual([`${server.url}/chat/completions`]);
    expect(proxy.connects).toEqual([]);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('alice:s3cret/!').toString('base64')}`]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const info = fixture.logs.filter((record) => record.level === 'info' && record.fields?.proxy !== undefined);
    expect(info).toHaveLength(1);
    expect(info[0]!.fields).toMatchObject({ proxy: `127.0.0.1:${proxy.port}`, source: 'config' });
    expect(info[0]!.message).toBe(
      `connecting to ${server.url} through the proxy 127.0.0.1:${proxy.port} (from the config key proxy)`,
    );
    expect(visible(fixture)).not.toContain('s3cret');
  });

  it('uses HTTP_PROXY from the environment for a remote host, never for loopback', async () => {
    // models.test is known only to the proxy (its own DNS), as a remote API is to a corporate proxy.
    const proxy = await proxyWith({ hosts: { 'models.test': '127.0.0.1' } });
    const remote = server.url.replace('127.0.0.1', 'models.test');
    vi.stubEnv('http_proxy', '');
    vi.stubEnv('HTTP_PROXY', proxy.url);
    vi.stubEnv('no_proxy', '');
    vi.stubEnv('NO_PROXY', 'example.com');
    const fromEnvironment = await boot({ proxy: undefined, baseUrl: remote });
    expect((await stream(fromEnvironment)).error).toBeUndefined();
    expect(proxy.forwarded).toEqual([`${remote}/chat/completions`]);
    const logged = fromEnvironment.logs.find((record) => record.fields?.proxy);
    expect(logged?.fields?.source).toBe('HTTP_PROXY');
    expect(logged?.message).toContain('(from the environment variable HTTP_PROXY)');

    // A server on this machine is reached directly, proxy in the environment or not.
    const loopback = await boot({ proxy: undefined });
    expect((await stream(loopback)).error).toBeUndefined();
    expect(loopback.logs.some((record) => record.fields?.proxy)).toBe(false);
    expect(proxy.forwarded).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('a proxy that wants other credentials (407) is a retried connection error naming the proxy', async () => {
    const proxy = await proxyWith({ credentials: 'alice:right' });
    const fixture = await boot({ proxy: `http://alice:wrong-pass@127.0.0.1:${proxy.port}` });
    const { error } = await stream(fixture);
    expect(error?.code).toBe('AALIS_LLM_NETWORK');
    expect(error?.isRetryable).toBe(true);
    expect(error?.message).toContain(`the proxy 127.0.0.1:${proxy.port} refused the request (HTTP 407)`);
    expect(error?.details).toMatchObject({ proxy: `127.0.0.1:${proxy.port}`, proxyStatus: 407 });
    expect(proxy.requestCount()).toBe(3); // the first try and two retries
    expect(retries(fixture)).toHaveLength(2);
    expect(server.requests).toHaveLength(0);
    expect(visible(fixture, error)).not.toContain('wrong-pass');
    expect(visible(fixture, error)).not.toContain(API_KEY);
  });

  it('an unreachable proxy is a retried connection error naming the proxy', async () => {
    const port = await closedPort();
    const fixture = await boot({ proxy: `http://bob:hunter2@127.0.0.1:${port}` });
    const { error } = await stream(fixture);
    expect(error?.code).toBe('AALIS_LLM_NETWORK');
    expect(error?.message).toContain(`could not reach the proxy 127.0.0.1:${port}: connect ECONNREFUSED`);
    expect(retries(fixture)).toHaveLength(2);
    expect(visible(fixture, error)).not.toContain('hunter2');
  });
});

describe('https base URL through a proxy (CONNECT)', () => {
  const baseUrl = 'https://api.example.invalid/v1';

  it('a proxy that refuses CONNECT (403) is a retried connection error naming the proxy', async () => {
    const proxy = await proxyWith({ refuseConnect: true });
    const fixture = await boot({ baseUrl, proxy: proxy.url });
    const { error } = await stream(fixture);
    expect(error?.code).toBe('AALIS_LLM_NETWORK');
    expect(error?.isRetryable).toBe(true);
    expect(error?.message).toContain(`the proxy 127.0.0.1:${proxy.port} refused the request (HTTP 403)`);
    expect(proxy.connects).toEqual(Array(3).fill('api.example.invalid:443'));
    expect(visible(fixture, error)).not.toContain(API_KEY);
  });

  it('sends the credentials with CONNECT; a 407 is refused like any other status', async () => {
    const proxy = await proxyWith({ credentials: 'carol:pw', refuseConnect: true });
    const fixture = await boot({ baseUrl, proxy: `http://carol:pw@127.0.0.1:${proxy.port}`, retry: { maxRetries: 0 } });
    await stream(fixture);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('carol:pw').toString('base64')}`]);
    const wrong = await boot({ baseUrl, proxy: `http://carol:nope@127.0.0.1:${proxy.port}`, retry: { maxRetries: 0 } });
    expect((await stream(wrong)).error?.details).toMatchObject({ proxyStatus: 407 });
  });

  it('the connect timeout covers a CONNECT the proxy never answers', async () => {
    const proxy = await proxyWith({ hangConnect: true });
    const fixture = await boot({
      baseUrl,
      proxy: proxy.url,
      timeouts: { connectMs: 200, idleMs: 2_000 },
      retry: { maxRetries: 0 },
    });
    const { error } = await stream(fixture);
    expect(error?.code).toBe('AALIS_LLM_TIMEOUT');
    expect(error?.details).toMatchObject({ timeout: 'connect' });
    await vi.waitFor(() => expect(proxy.openConnections()).toBe(0));
  });

  it('an abort during the CONNECT ends the call at once and closes the connection to the proxy', async () => {
    const proxy = await proxyWith({ hangConnect: true });
    const fixture = await boot({ baseUrl, proxy: proxy.url, timeouts: { connectMs: 10_000, idleMs: 10_000 } });
    const controller = new AbortController();
    const call = stream(fixture, controller.signal);
    await vi.waitFor(() => expect(proxy.connects).toHaveLength(1));
    controller.abort();
    const { error } = await call;
    expect(error?.code).toBe('AALIS_LLM_ABORTED');
    expect(retries(fixture)).toHaveLength(0);
    await vi.waitFor(() => expect(proxy.openConnections()).toBe(0));
  });
});
