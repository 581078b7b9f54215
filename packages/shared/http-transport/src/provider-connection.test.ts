import type { LogRecord } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { ProviderConnection } from './provider-connection.js';

describe('ProviderConnection', () => {
  it('redacts the caller’s secrets and the proxy’s credentials, and names itself in the error context', () => {
    const connection = new ProviderConnection({
      plugin: 'openai',
      baseUrl: 'https://api.example.com/v1',
      config: { proxy: 'http://alice:proxy-pass-123@127.0.0.2:3128' },
      secrets: ['sk-key-123456', undefined, ''],
    });
    try {
      const text = 'key sk-key-123456, proxy proxy-pass-123 and YWxpY2U6cHJveHktcGFzcy0xMjM=';
      expect(connection.redact(text)).toBe('key ***, proxy *** and ***');
      const context = connection.errorContext({
        model: 'openai/gpt',
        timeouts: { connectMs: 1, headersMs: 2, idleMs: 3 },
        t: (ref) => String(ref),
      });
      expect(context).toMatchObject({ provider: 'openai', baseUrl: 'https://api.example.com/v1', model: 'openai/gpt' });
      expect(context.redact('sk-key-123456')).toBe('***');
      expect(connection.agents.proxy?.display).toContain('127.0.0.2:3128');
    } finally {
      connection.destroy();
    }
  });

  it('logs the proxy in use once when asked to announce it, and connects directly with proxy ""', () => {
    const lines: LogRecord['message'][] = [];
    const announce = {
      logger: { info: (message: string) => lines.push(message) },
      i18n: { t: (ref: unknown) => JSON.stringify(ref) },
    };
    const proxied = new ProviderConnection({
      plugin: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      config: { proxy: 'http://127.0.0.2:3128' },
      secrets: [],
      announce,
    });
    const direct = new ProviderConnection({
      plugin: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      config: { proxy: '' },
      secrets: [],
      env: { HTTPS_PROXY: 'http://127.0.0.3:3128' },
      announce,
    });
    proxied.destroy();
    direct.destroy();
    expect(lines).toHaveLength(1);
    expect(direct.agents.proxy).toBeUndefined();
  });
});
