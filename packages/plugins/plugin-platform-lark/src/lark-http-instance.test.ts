import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as lark from '@larksuiteoapi/node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LarkHttpError, larkHttpInstance } from './lark-http-instance.js';

let server: Server;
let base = '';
const seen: { method: string; url: string; type: string | undefined; auth: string | undefined; body: string }[] = [];

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
      if (request.url?.startsWith('/limited')) {
        response.writeHead(429, { 'content-type': 'application/json', 'x-ogw-ratelimit-reset': '2' });
        response.end('{"code":99991400,"msg":"too many requests"}');
      } else {
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
        response.end('{"code":0,"data":{"message_id":"om_1"}}');
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

describe('larkHttpInstance', () => {
  it('sends a JSON call through the shared exchange and answers as the SDK instance does', async () => {
    const http = larkHttpInstance(lark.defaultHttpInstance);
    const answer = await http.request<{ code: number; data: { message_id: string } }>({
      url: `${base}/open-apis/im/v1/messages`,
      method: 'post',
      params: { receive_id_type: 'chat_id', skipped: undefined },
      headers: { Authorization: 'Bearer t-1', 'Content-Type': 'application/json; charset=utf-8' },
      data: { receive_id: 'oc_1', content: '{"text":"hi"}' },
    });
    expect(answer).toEqual({ code: 0, data: { message_id: 'om_1' } });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/open-apis/im/v1/messages?receive_id_type=chat_id',
      type: 'application/json; charset=utf-8',
      auth: 'Bearer t-1',
      body: '{"receive_id":"oc_1","content":"{\\"text\\":\\"hi\\"}"}',
    });
    const withHeaders = await http.get<{ data: unknown; headers: Record<string, string> }>(`${base}/info`, {
      $return_headers: true,
    } as Parameters<typeof http.get>[1]);
    expect(withHeaders.headers['x-request-id']).toBe('r-1');
    expect(seen.at(-1)?.method).toBe('GET');
  });

  it('rejects a status outside 2xx with the response as axios carries it', async () => {
    const http = larkHttpInstance(lark.defaultHttpInstance);
    const failure = await http.post(`${base}/limited`, { a: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LarkHttpError);
    const { response } = failure as LarkHttpError;
    expect(response.status).toBe(429);
    expect(response.data).toEqual({ code: 99991400, msg: 'too many requests' });
    expect(response.headers['x-ogw-ratelimit-reset']).toBe('2');
  });

  it('leaves an upload and a download to the SDK instance', async () => {
    const handed: string[] = [];
    const fallback = {
      request: (options: { url?: string }) => {
        handed.push(options.url ?? '');
        return Promise.resolve({ handed: true });
      },
    };
    const http = larkHttpInstance(fallback);
    const before = seen.length;
    await http.request({
      url: `${base}/open-apis/im/v1/files`,
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data' },
      data: { file_type: 'stream', file: Buffer.from('x') },
    });
    await http.request({ url: `${base}/open-apis/im/v1/messages/om_1/resources/k`, responseType: 'stream' });
    expect(handed).toEqual([`${base}/open-apis/im/v1/files`, `${base}/open-apis/im/v1/messages/om_1/resources/k`]);
    expect(seen.length).toBe(before);
  });
});
