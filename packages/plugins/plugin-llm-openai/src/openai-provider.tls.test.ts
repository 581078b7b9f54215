// An https base URL with a private CA, over real sockets: a self-signed certificate made with the openssl CLI, a TLS
// front for the scripted server, and the test proxy. Trusted through caFile (tunnelled or direct); refused
// without it, as a coded error that is not retried. Skipped when openssl is not installed.
import type { ChatStreamEvent } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import {
  type OpenAiTestServer,
  startOpenAiTestServer,
  startTestProxy,
  type TestProxy,
  textReply,
} from '@aalis/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY, baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';
import { createSelfSigned, hasOpenssl, type SelfSigned, startTlsFront, type TlsFront } from './tls-front.case.js';

if (!hasOpenssl)
  console.warn('Skipping the https tests of @aalis/plugin-llm-openai: the openssl CLI is not installed.');
const withOpenssl = it.skipIf(!hasOpenssl);

let server: OpenAiTestServer;
let front: TlsFront;
let proxy: TestProxy;
let certificate: SelfSigned;

beforeAll(async () => {
  if (!hasOpenssl) return;
  certificate = createSelfSigned();
  server = await startOpenAiTestServer({ apiKey: API_KEY });
  front = await startTlsFront({ target: server.url, key: certificate.key, cert: certificate.cert });
  proxy = await startTestProxy();
});
afterAll(async () => {
  await proxy?.close();
  await front?.close();
  await server?.close();
});
beforeEach(() => {
  server?.reset();
  proxy?.reset();
});

async function using<T>(config: Record<string, unknown>, run: (fixture: ProviderFixture) => Promise<T>) {
  const fixture = await bootProvider({ server, config: { baseUrl: front.url, ...config }, locale: 'en' });
  try {
    return await run(fixture);
  } finally {
    await fixture.stop();
  }
}

async function chat(fixture: ProviderFixture) {
  const events: ChatStreamEvent[] = [];
  try {
    const request = { ...baseRequest, model: fixture.model, messages: userMessage('hi') };
    for await (const event of fixture.provider.chatStream(request)) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    if (!AalisError.isInstance(error)) throw error;
    return { events, error };
  }
}

describe('https base URL with a private CA (needs the openssl CLI)', () => {
  withOpenssl('works through a CONNECT tunnel when caFile trusts the certificate, and reuses the tunnel', async () => {
    await using({ proxy: proxy.url, caFile: certificate.certFile }, async (fixture) => {
      server.enqueue(textReply('secure one'), textReply('secure two'));
      const first = await chat(fixture);
      const second = await chat(fixture);
      expect(first.error).toBeUndefined();
      expect(first.events.at(-1)).toMatchObject({ type: 'response', response: { content: 'secure one' } });
      expect(second.events.at(-1)).toMatchObject({ type: 'response', response: { content: 'secure two' } });
      const port = new URL(front.url).port;
      expect(proxy.connects).toEqual([`127.0.0.1:${port}`]); // one tunnel, kept alive for the second call
      expect(proxy.forwarded).toEqual([]);
      expect(server.requests.map((request) => request.headers.authorization)).toEqual([
        `Bearer ${API_KEY}`,
        `Bearer ${API_KEY}`,
      ]);
    });
  });

  withOpenssl('refuses the certificate without caFile: a coded error naming caFile, not retried', async () => {
    await using({ proxy: proxy.url }, async (fixture) => {
      const { error } = await chat(fixture);
      expect(error?.code).toBe('AALIS_LLM_NETWORK');
      expect(error?.isRetryable).toBe(false);
      expect(error?.message).toContain('the server certificate was not accepted');
      expect(error?.message).toContain('set caFile');
      expect(error?.details.socketCode).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
      expect(proxy.connects).toHaveLength(1);
      expect(server.requests).toHaveLength(0);
      expect(fixture.logs.filter((record) => record.message === 'retrying the call')).toHaveLength(0);
    });
  });

  withOpenssl('trusts caFile without a proxy too, next to the default roots', async () => {
    await using({ caFile: certificate.certFile }, async (fixture) => {
      server.enqueue(textReply('direct'));
      expect((await chat(fixture)).events.at(-1)).toMatchObject({ response: { content: 'direct' } });
      expect(proxy.requestCount()).toBe(0);
    });
  });
});
