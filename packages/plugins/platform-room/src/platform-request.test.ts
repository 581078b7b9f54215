import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgents } from '@aalis/http-transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformRequest } from './platform-request.js';

let server: Server;
let base = '';
/** A forward proxy that answers itself: it records the absolute URL each request asked it for. */
let proxy: Server;
let proxyPort = 0;
const proxied: string[] = [];
const seen: { method: string; body: string; type: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      seen.push({ method: request.method ?? '', body, type: request.headers['content-type'] });
      if (request.url === '/limited') {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
        response.end('{"message":"slow down"}');
      } else if (request.url === '/large') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('x'.repeat(5_000));
      } else if (request.url === '/chunked') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('y'.repeat(800));
        response.end('y'.repeat(800));
      } else if (request.url === '/silent') {
        // Never answers: the headers timeout ends the call.
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ echoed: body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = createServer((request, response) => {
    proxied.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"via":"proxy"}');
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const each of [server, proxy]) {
    each.closeAllConnections();
    await new Promise<void>((resolve) => each.close(() => resolve()));
  }
});

describe('platformRequest', () => {
  it('posts a JSON body and reads the answer, its status and headers', async () => {
    const answer = await platformRequest(`${base}/send`, {
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
      timeoutMs: 5_000,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ echoed: '{"text":"hi"}' });
    expect(seen.at(-1)).toEqual({ method: 'POST', body: '{"text":"hi"}', type: 'application/json' });
    const limited = await platformRequest(`${base}/limited`, { method: 'GET', timeoutMs: 5_000 });
    expect(limited.status).toBe(429);
    expect(limited.header('retry-after')).toBe('3');
    expect(limited.header('x-missing')).toBeUndefined();
  });

  it('refuses an answer over its size bound and a server that does not answer in time', async () => {
    await expect(
      platformRequest(`${base}/large`, { method: 'GET', timeoutMs: 5_000, maxAnswerBytes: 1_000 }),
    ).rejects.toThrow('larger than 1000 bytes');
    // Without a declared length the body is counted as it comes.
    await expect(
      platformRequest(`${base}/chunked`, { method: 'GET', timeoutMs: 5_000, maxAnswerBytes: 1_000 }),
    ).rejects.toThrow('larger than 1000 bytes');
    await expect(platformRequest(`${base}/silent`, { body: '{}', timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'no answer within 100 ms',
    });
  });

  it('goes through the proxy the environment names, never for a loopback address', async () => {
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxyPort}`;
    try {
      const answer = await platformRequest('http://api.platform.test/send', { body: '{}', timeoutMs: 5_000 });
      expect(JSON.parse(answer.text)).toEqual({ via: 'proxy' });
      expect(proxied).toEqual(['POST http://api.platform.test/send']);
      // A local server (a test server, a bridge on this machine) is reached directly.
      const direct = await platformRequest(`${base}/direct`, { body: '{"n":1}', timeoutMs: 5_000 });
      expect(JSON.parse(direct.text)).toEqual({ echoed: '{"n":1}' });
      expect(proxied).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
  });

  it("uses an adapter's own agents (its configured proxy), and an abort ends the call with the signal's reason", async () => {
    const agents = createAgents({ proxy: { host: '127.0.0.1', port: proxyPort, source: 'config', display: 'proxy' } });
    try {
      const answer = await platformRequest('http://chat.example.test/api', { method: 'GET', timeoutMs: 5_000, agents });
      expect(JSON.parse(answer.text)).toEqual({ via: 'proxy' });
      expect(proxied.at(-1)).toBe('GET http://chat.example.test/api');
    } finally {
      agents.http.destroy();
      agents.https.destroy();
    }
    const controller = new AbortController();
    const call = platformRequest(`${base}/silent`, { body: '{}', timeoutMs: 5_000, signal: controller.signal });
    controller.abort(new Error('stopping'));
    await expect(call).rejects.toThrow('stopping');
  });
});
