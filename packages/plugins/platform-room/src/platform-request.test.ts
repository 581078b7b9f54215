import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformRequest } from './platform-request.js';

let server: Server;
let base = '';
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
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
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
});
