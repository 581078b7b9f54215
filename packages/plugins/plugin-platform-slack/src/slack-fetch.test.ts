import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FetchFunction, LogLevel, type WebAPIHTTPError, type WebAPIRequestError, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackFetch } from './slack-fetch.js';

let server: Server;
let api = '';
const seen: { method: string; url: string; type: string | undefined; auth: string | undefined; body: string }[] = [];
/** Calls to /api/limited.method answered 429 before the one that succeeds. */
let limitedLeft = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        type: request.headers['content-type'],
        auth: request.headers.authorization,
        body,
      });
      if (request.url === '/api/limited.method' && limitedLeft > 0) {
        limitedLeft -= 1;
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end('{"ok":false,"error":"ratelimited"}');
      } else if (request.url === '/api/broken.method') {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end('bad gateway');
      } else if (request.url === '/api/moved.method') {
        response.writeHead(302, { location: 'https://elsewhere.example/' });
        response.end();
      } else if (request.url === '/api/silent.method') {
        // never answers: the call's silence bound ends it
      } else {
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'x-oauth-scopes': 'chat:write, users:read',
        });
        response.end('{"ok":true,"channel":"C1","ts":"1700000000.000100"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (options: { timeoutMs?: number; fallback?: FetchFunction; retries?: number } = {}) =>
  new WebClient('xoxb-test-token', {
    slackApiUrl: api,
    fetch: slackFetch({
      timeoutMs: options.timeoutMs ?? 5_000,
      ...(options.fallback ? { fallback: options.fallback } : {}),
    }),
    retryConfig: { retries: options.retries ?? 0, minTimeout: 1, maxTimeout: 5 },
    logger: quiet,
  });
const ignore = () => {};
const quiet = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  setLevel: ignore,
  getLevel: () => LogLevel.ERROR,
  setName: ignore,
};

describe('slackFetch', () => {
  it("sends a Web API call through the shared exchange and the WebClient reads the answer as fetch's", async () => {
    const answer = await client().chat.postMessage({ channel: 'C1', text: 'hello *there*', thread_ts: '1.2' });
    expect(answer.ok).toBe(true);
    expect(answer.ts).toBe('1700000000.000100');
    // Headers reach the WebClient: it turns x-oauth-scopes into response_metadata.scopes.
    expect(answer.response_metadata?.scopes).toEqual(['chat:write', 'users:read']);
    const call = seen.at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/api/chat.postMessage');
    expect(call.type).toBe('application/x-www-form-urlencoded');
    expect(call.auth).toBe('Bearer xoxb-test-token');
    expect(new URLSearchParams(call.body).get('text')).toBe('hello *there*');
    expect(new URLSearchParams(call.body).get('thread_ts')).toBe('1.2');
  });

  it("keeps the WebClient's rate-limit handling: a 429 with retry-after is retried", async () => {
    limitedLeft = 2;
    const before = seen.length;
    const answer = await client({ retries: 3 }).apiCall('limited.method', { a: 1 });
    expect(answer.ok).toBe(true);
    expect(seen.slice(before).map((call) => call.url)).toEqual([
      '/api/limited.method',
      '/api/limited.method',
      '/api/limited.method',
    ]);
  });

  it('a status other than 200 or 429 is the WebClient HTTP error, with the body', async () => {
    const failure = await client()
      .apiCall('broken.method')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as WebAPIHTTPError).code).toBe('slack_webapi_http_error');
    expect((failure as WebAPIHTTPError).statusCode).toBe(502);
    expect((failure as WebAPIHTTPError).body).toBe('bad gateway');
  });

  it('refuses a redirect as fetch does with redirect: error, and ends a silent call', async () => {
    const moved = await client()
      .apiCall('moved.method')
      .catch((error: unknown) => error);
    expect((moved as WebAPIRequestError).code).toBe('slack_webapi_request_error');
    expect((moved as WebAPIRequestError).original.message).toContain('redirect (302)');
    const silent = await client({ timeoutMs: 100 })
      .apiCall('silent.method')
      .catch((error: unknown) => error);
    expect((silent as WebAPIRequestError).code).toBe('slack_webapi_request_error');
    expect((silent as WebAPIRequestError).original.name).toBe('TimeoutError');
  });

  it('leaves a multipart or binary body to the fallback fetch, with a timeout signal', async () => {
    const handed: { url: string; body: unknown; signal: AbortSignal | undefined }[] = [];
    const fallback: FetchFunction = async (url, init) => {
      handed.push({ url: String(url), body: init?.body, signal: init?.signal });
      return globalThis.fetch(url, init);
    };
    const fetch = slackFetch({ timeoutMs: 5_000, fallback });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.bin');
    const response = await fetch(`${api}upload`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(handed).toHaveLength(1);
    expect(handed[0]!.body).toBe(form);
    expect(handed[0]!.signal).toBeInstanceOf(AbortSignal);
    // A url-encoded call does not reach the fallback.
    await fetch(`${api}auth.test`, { method: 'POST', body: 'token=x' });
    expect(handed).toHaveLength(1);
  });
});
