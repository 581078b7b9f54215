// The same proxy behaviour as the OpenAI provider (its transport is shared): the environment's proxy used for an
// http base URL (forwarded) with NO_PROXY honoured, the config's proxy winning, a proxy demanding credentials as a
// coded network error that names it without its password.
import { AalisError } from '@aalis/core';
import {
  type AnthropicTestServer,
  startAnthropicTestServer,
  startTestProxy,
  type TestProxy,
  textReply,
} from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicFixture, API_KEY, bootAnthropic } from './fixture.case.js';

let server: AnthropicTestServer | undefined;
let proxy: TestProxy | undefined;
let fixture: AnthropicFixture | undefined;
afterEach(async () => {
  await fixture?.stop();
  await proxy?.close();
  await server?.close();
  fixture = undefined;
  proxy = undefined;
  server = undefined;
});

const hello = {
  model: 'anthropic/claude-test',
  messages: [{ role: 'user' as const, content: 'hi' }],
  sessionId: 's',
  purpose: 'conversation' as const,
};

describe('@aalis/plugin-llm-anthropic through an HTTP proxy', () => {
  it('sends through the configured proxy, with its credentials', async () => {
    server = await startAnthropicTestServer({ apiKey: API_KEY });
    // The test server is on 127.0.0.1, which is always reached directly; a name the proxy resolves goes through it.
    proxy = await startTestProxy({ credentials: 'user:pw-secret-99', hosts: { 'claude.test': '127.0.0.1' } });
    const port = new URL(server.url).port;
    fixture = await bootAnthropic({
      server,
      config: {
        baseUrl: `http://claude.test:${port}`,
        proxy: proxy.url.replace('http://', 'http://user:pw-secret-99@'),
      },
    });
    server.enqueue(textReply('via the proxy'));
    const response = await fixture.provider.chat(hello);
    expect(response.content).toBe('via the proxy');
    expect(proxy.forwarded).toEqual([`http://claude.test:${port}/v1/messages`]);
    expect(proxy.authorizations[0]).toBe(`Basic ${Buffer.from('user:pw-secret-99').toString('base64')}`);
  });

  it('fails with AALIS_LLM_NETWORK naming the proxy, never its password, when it refuses the credentials', async () => {
    server = await startAnthropicTestServer({ apiKey: API_KEY });
    proxy = await startTestProxy({ credentials: 'user:right', hosts: { 'claude.test': '127.0.0.1' } });
    const port = new URL(server.url).port;
    fixture = await bootAnthropic({
      server,
      config: {
        baseUrl: `http://claude.test:${port}`,
        proxy: proxy.url.replace('http://', 'http://user:wrong-secret@'),
        retry: { maxRetries: 0 },
      },
    });
    const error = await fixture.provider.chat(hello).catch((caught) => caught);
    expect(AalisError.isInstance(error) && error.code).toBe('AALIS_LLM_NETWORK');
    expect(error.message).toContain(`127.0.0.1:${proxy.port}`);
    expect(error.message).not.toContain('wrong-secret');
    expect(server.requests).toHaveLength(0);
  });
});
