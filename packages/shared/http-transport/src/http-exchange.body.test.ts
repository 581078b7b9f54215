import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgents, HttpExchange } from './http-exchange.js';

// openWithRetries hands the exchange the body already encoded (once per call, not once per attempt and again on the
// socket): bytes and text must reach the server alike, with content-length in bytes.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function echoServer(): Promise<{ url: URL; received: { headers: IncomingHttpHeaders; body: Buffer }[] }> {
  const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(parts) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`), received };
}

describe('request body', () => {
  it('a body given as bytes goes out exactly as the same body given as text (UTF-8, length in bytes)', async () => {
    const { url, received } = await echoServer();
    const agents = createAgents();
    closers.push(async () => agents.http.destroy());
    const text = JSON.stringify({ messages: [{ role: 'user', content: '你好, café — 🙂' }] });
    for (const body of [text, Buffer.from(text, 'utf8')]) {
      const exchange = await HttpExchange.open({
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connectMs: 5_000,
        headersMs: 5_000,
        idleMs: 5_000,
        agents,
      });
      expect(await exchange.text()).toBe('ok');
      exchange.close();
    }
    expect(received).toHaveLength(2);
    for (const { headers, body } of received) {
      expect(headers['content-length']).toBe(String(Buffer.byteLength(text)));
      expect(body.toString('utf8')).toBe(text);
    }
  });
});
