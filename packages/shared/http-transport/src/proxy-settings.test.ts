// Which proxy an instance uses: config over environment, "" disabling, https vs http variables, both spellings,
// NO_PROXY as curl reads it, credentials, and the error for a proxy that is not http://.
import { describe, expect, it } from 'vitest';
import { isNoProxyHost } from './no-proxy.js';
import { type ProxyEnvironment, resolveProxy } from './proxy-settings.js';

const resolve = (baseUrl: string, env: ProxyEnvironment, configured?: string) =>
  resolveProxy({ baseUrl, configured, env, plugin: 'hosted' });

describe('resolveProxy', () => {
  it('uses the configured proxy over the environment, and "" turns proxying off', () => {
    const env = { HTTPS_PROXY: 'http://env-proxy:8080' };
    expect(resolve('https://api.example.com/v1', env, 'http://config-proxy:3128')).toEqual({
      host: 'config-proxy',
      port: 3128,
      source: 'config',
      display: 'config-proxy:3128',
    });
    expect(resolve('https://api.example.com/v1', env, '')).toBeUndefined();
    expect(resolve('https://api.example.com/v1', env, '  ')).toBeUndefined();
    // NO_PROXY is for the environment's proxy; a configured one is always used.
    expect(resolve('https://api.example.com/v1', { NO_PROXY: '*' }, 'http://p:1')?.display).toBe('p:1');
  });

  it('reads https_proxy for an https base URL and http_proxy for http, lower case first, empty as unset', () => {
    const env = { HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2' };
    expect(resolve('https://api.example.com/v1', env)).toMatchObject({ display: 'secure:1', source: 'HTTPS_PROXY' });
    expect(resolve('http://api.example.com/v1', env)).toMatchObject({ display: 'plain:2', source: 'HTTP_PROXY' });
    expect(
      resolve('https://api.example.com/v1', { https_proxy: 'http://lower:3', HTTPS_PROXY: 'http://upper:4' }),
    ).toMatchObject({ display: 'lower:3', source: 'https_proxy' });
    expect(resolve('http://api.example.com/v1', { http_proxy: '', HTTP_PROXY: 'http://upper:4' })).toMatchObject({
      source: 'HTTP_PROXY',
    });
    expect(resolve('https://api.example.com/v1', { HTTP_PROXY: 'http://plain:2' })).toBeUndefined();
    expect(resolve('http://api.example.com/v1', { HTTPS_PROXY: 'http://secure:1' })).toBeUndefined();
    expect(resolve('http://api.example.com/v1', {})).toBeUndefined();
  });

  it('honours NO_PROXY (either spelling) for the environment proxy', () => {
    const proxied = (baseUrl: string, noProxy: string, name = 'NO_PROXY') =>
      resolve(baseUrl, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', [name]: noProxy }) !== undefined;
    expect(proxied('https://api.example.com/v1', 'example.com')).toBe(false);
    expect(proxied('https://api.example.com/v1', 'other.org, .example.com', 'no_proxy')).toBe(false);
    expect(proxied('http://10.0.0.5:8080/v1', 'example.com')).toBe(true);
    expect(proxied('http://10.0.0.5:8080/v1', '10.0.0.5')).toBe(false);
    expect(proxied('http://models.lan:8080/v1', 'models.lan:8080')).toBe(false);
    expect(proxied('http://models.lan:8081/v1', 'models.lan:8080')).toBe(true);
    expect(proxied('https://api.example.com/v1', 'api.example.com:443')).toBe(false);
  });

  it('never sends loopback through an environment proxy; a configured proxy still applies', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    for (const baseUrl of [
      'http://127.0.0.1:11434/v1',
      'http://127.8.9.10/v1',
      'http://localhost:8080/v1',
      'https://api.localhost/v1',
      'http://[::1]:8000/v1',
    ]) {
      expect(resolve(baseUrl, env)).toBeUndefined();
    }
    expect(resolve('http://128.0.0.1/v1', env)).toBeDefined();
    expect(resolve('http://localhost.example.com/v1', env)).toBeDefined();
    expect(resolve('http://127.0.0.1:11434/v1', env, 'http://configured:3')?.host).toBe('configured');
  });

  it('parses credentials into a Basic Proxy-Authorization and shows only host:port', () => {
    const settings = resolve('https://api.example.com/v1', {}, 'http://alice:p%40ss%3Aword@proxy.corp:8080');
    expect(settings).toEqual({
      host: 'proxy.corp',
      port: 8080,
      authorization: `Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`,
      password: 'p@ss:word',
      source: 'config',
      display: 'proxy.corp:8080',
    });
  });

  it('takes a proxy without a scheme as http://, port 80 when none is given, and IPv6 in brackets', () => {
    expect(resolve('https://a.example/v1', { HTTPS_PROXY: 'proxy.corp:3128' })?.display).toBe('proxy.corp:3128');
    expect(resolve('https://a.example/v1', {}, 'http://proxy.corp')?.port).toBe(80);
    expect(resolve('https://a.example/v1', {}, 'http://[::1]:3128')).toMatchObject({
      host: '::1',
      display: '[::1]:3128',
    });
  });

  it('refuses a proxy that is not http://, naming where it came from and never the password', () => {
    for (const [env, configured, source] of [
      [{}, 'https://proxy.corp:443', 'proxy'],
      [{ HTTPS_PROXY: 'socks5://bob:hunter2@proxy.corp:1080' }, undefined, 'HTTPS_PROXY'],
      [{ http_proxy: 'http://' }, undefined, 'http_proxy'],
    ] as const) {
      const baseUrl = source === 'http_proxy' ? 'http://a.example/v1' : 'https://a.example/v1';
      let caught: unknown;
      try {
        resolve(baseUrl, env, configured);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'AALIS_LLM_OPENAI_PROXY_UNSUPPORTED', details: { source } });
      const message = (caught as Error).message;
      expect(message).toContain('only http:// proxies are supported');
      expect(message).not.toContain('hunter2');
    }
    // A host exempted by NO_PROXY never looks at the proxy URL.
    expect(resolve('https://a.example/v1', { HTTPS_PROXY: 'socks5://p:1', NO_PROXY: 'a.example' })).toBeUndefined();
  });
});

describe('isNoProxyHost', () => {
  const exempt = (host: string, noProxy: string, port = 443) => isNoProxyHost({ host, port, noProxy });

  it('matches *, domains with their subdomains (leading dot or not), and nothing else', () => {
    expect(exempt('anything.example', '*')).toBe(true);
    expect(exempt('example.com', 'example.com')).toBe(true);
    expect(exempt('api.example.com', 'example.com')).toBe(true);
    expect(exempt('example.com', '.example.com')).toBe(true);
    expect(exempt('deep.api.example.com', '*.example.com')).toBe(true);
    expect(exempt('badexample.com', 'example.com')).toBe(false);
    expect(exempt('example.com.evil', 'example.com')).toBe(false);
    expect(exempt('API.Example.COM', 'example.com')).toBe(true);
    expect(exempt('example.com.', 'example.com')).toBe(true);
    expect(exempt('example.com', '')).toBe(false);
    expect(exempt('localhost', 'example.com')).toBe(false);
  });

  it('separates entries by commas or spaces and skips empty ones', () => {
    expect(exempt('b.example', ' a.example ,, b.example ')).toBe(true);
    expect(exempt('c.example', 'a.example c.example')).toBe(true);
  });

  it('matches IP addresses exactly, never by suffix', () => {
    expect(exempt('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(exempt('127.0.0.1', '0.0.1')).toBe(false);
    expect(exempt('10.1.2.3', '.2.3')).toBe(false);
    expect(exempt('::1', '::1')).toBe(true);
    expect(exempt('[::1]', '[::1]')).toBe(true);
  });

  it('restricts an entry with a port to that port', () => {
    expect(exempt('example.com', 'example.com:443', 443)).toBe(true);
    expect(exempt('example.com', 'example.com:8443', 443)).toBe(false);
    expect(exempt('::1', '[::1]:8080', 8080)).toBe(true);
    expect(exempt('::1', '[::1]:8080', 8081)).toBe(false);
  });
});
