import { describe, expect, it } from 'vitest';
import { maskUrlCredentials, parseBaseUrl } from './base-url.js';

describe('parseBaseUrl', () => {
  it('takes the credentials out of the URL: a Basic header and secrets to redact', () => {
    const parsed = parseBaseUrl('https://alice:p%40ss@models.example.com/v1/');
    expect(parsed).toEqual({
      ok: true,
      endpoint: {
        root: 'https://models.example.com/v1',
        basicAuthorization: `Basic ${Buffer.from('alice:p@ss').toString('base64')}`,
        secrets: [Buffer.from('alice:p@ss').toString('base64'), 'alice:p%40ss', 'p%40ss', 'p@ss'],
      },
    });
    expect(parseBaseUrl('http://127.0.0.1:8080/v1')).toEqual({
      ok: true,
      endpoint: { root: 'http://127.0.0.1:8080/v1', secrets: [] },
    });
    expect(maskUrlCredentials('see https://alice:p@ss@host:99999/v1 and http://h/x')).toBe(
      'see https://***@host:99999/v1 and http://h/x',
    );
  });

  it('refuses what is not an http(s) URL with a host and a usable port', () => {
    expect(parseBaseUrl('not a url')).toEqual({ ok: false, problem: 'not-a-url' });
    expect(parseBaseUrl('/v1')).toEqual({ ok: false, problem: 'not-a-url' });
    expect(parseBaseUrl('ftp://models.example.com/v1')).toEqual({ ok: false, problem: 'scheme' });
    expect(parseBaseUrl('http://127.0.0.1:99999/v1')).toEqual({ ok: false, problem: 'port' });
    expect(parseBaseUrl('http://127.0.0.1:abc/v1')).toEqual({ ok: false, problem: 'port' });
    expect(parseBaseUrl('http://127.0.0.1:0/v1')).toEqual({ ok: false, problem: 'port' });
  });
});
