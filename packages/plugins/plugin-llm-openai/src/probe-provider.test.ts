// The console's connection test builds its provider here: it lists the server's models and makes a call with the
// section as it would be saved, and a base URL without /v1 (GET /models answered "Cannot GET /models", 404) is
// reported as the wrong URL at once, not asked again and again as a missing model.
import { LogHub, memorySink, translate } from '@aalis/core';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProbeProvider } from './probe-provider.js';

let server: OpenAiTestServer;
const logger = new LogHub([memorySink()]).logger('probe');
const i18n = { locale: 'en' as const, t: (text: Parameters<typeof translate>[0]) => translate(text, 'en') };

beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['alpha', 'beta'], apiKey: 'sk-probe' });
});
afterAll(() => server.close());

describe('openProbeProvider', () => {
  it('lists the models and answers a call with the key and headers of the section', async () => {
    const probe = openProbeProvider({
      section: { baseUrl: server.url, apiKey: 'sk-probe', headers: { 'X-Test': 'yes' } },
      logger,
      i18n,
    });
    try {
      expect(await probe.listModels()).toEqual(['alpha', 'beta']);
      server.enqueue(textReply('OK'));
      const events = [];
      for await (const event of probe.service.chatStream({
        model: 'openai/alpha',
        messages: [{ role: 'user', content: 'Say OK' }],
        sessionId: '',
        purpose: 'conversation',
      }))
        events.push(event);
      expect(events.at(-1)).toMatchObject({ type: 'response', response: { content: 'OK' } });
      expect(server.requests.at(-1)?.headers['x-test']).toBe('yes');
    } finally {
      probe.close();
    }
  });

  it('reports a base URL without /v1 as the wrong endpoint (404 on /models), once', async () => {
    const probe = openProbeProvider({
      section: { baseUrl: server.url.replace(/\/v1$/, ''), apiKey: 'sk-probe' },
      logger,
      i18n,
    });
    const before = server.requests.length;
    try {
      await expect(probe.listModels()).rejects.toMatchObject({ code: 'AALIS_LLM_ENDPOINT_NOT_FOUND' });
      expect(server.requests.length - before).toBe(1);
    } finally {
      probe.close();
    }
  });

  it('refuses a section that cannot work before any request', () => {
    expect(() => openProbeProvider({ section: { baseUrl: 'ftp://x' }, logger, i18n })).toThrow(
      expect.objectContaining({ code: 'AALIS_CONFIG_INVALID' }),
    );
  });
});
