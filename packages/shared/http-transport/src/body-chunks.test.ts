import { afterEach, describe, expect, it } from 'vitest';
import { heldServer } from './held-server.case.js';
import { createAgents, HttpExchange, TransportError } from './http-exchange.js';

// HttpExchange.chunks() is a plain iterator over the response (BodyChunks) instead of an async generator around Node's
// own. It must hand out what Node's iterator hands out — each server write that the client read alone as its own chunk,
// in order — end, fail and give up as before.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function exchangeWith(idleMs = 5_000) {
  const { url, next } = await heldServer((close) => closers.push(close));
  const agents = createAgents();
  closers.push(async () => agents.http.destroy());
  const opening = HttpExchange.open({
    url,
    method: 'GET',
    headers: {},
    connectMs: 5_000,
    headersMs: 5_000,
    idleMs,
    agents,
  });
  const held = await next();
  held.response.writeHead(200, { 'content-type': 'text/event-stream' });
  held.response.flushHeaders();
  return { held, exchange: await opening };
}

describe('HttpExchange.chunks()', () => {
  it('hands out each write the client read on its own, in order, then ends', async () => {
    const { held, exchange } = await exchangeWith();
    const chunks = exchange.chunks();
    for (const piece of ['data: {"a":1}\n\n', 'data: {"b":2}\n', '\ndata: [DONE]\n\n']) {
      held.response.write(piece);
      const read = await chunks.next();
      expect(read.done).toBe(false);
      expect(read.value!.toString()).toBe(piece);
    }
    held.response.end();
    expect((await chunks.next()).done).toBe(true);
    expect((await chunks.next()).done).toBe(true);
  });

  it('what arrived together comes out together, as for await over the response gives it', async () => {
    const { held, exchange } = await exchangeWith();
    held.response.write('one ');
    held.response.write('two ');
    held.response.end('three');
    // Wait until the whole body is buffered on the client, unread.
    exchange.response.pause();
    while (!exchange.response.complete) await new Promise((resolve) => setTimeout(resolve, 5));
    const seen: string[] = [];
    for await (const chunk of exchange.chunks()) seen.push(chunk.toString());
    expect(seen.join('')).toBe('one two three');
    expect(seen).toEqual(['one two three']);
  });

  it('a connection cut mid-body fails as a network error, and the reader is over', async () => {
    const cut = await exchangeWith();
    const chunks = cut.exchange.chunks();
    cut.held.response.write('part');
    expect((await chunks.next()).value!.toString()).toBe('part');
    cut.held.socket.destroy();
    const failure = await chunks.next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('network');
    expect((await chunks.next()).done).toBe(true);
  });

  it('silence past idleMs fails as idle-timeout', async () => {
    const { held, exchange } = await exchangeWith(50);
    const chunks = exchange.chunks();
    held.response.write('first');
    expect((await chunks.next()).value!.toString()).toBe('first');
    const failure = await chunks.next().catch((error: unknown) => error);
    expect((failure as TransportError).kind).toBe('idle-timeout');
  });

  it('giving up mid-body closes the connection; giving up before reading touches nothing', async () => {
    const { held, exchange } = await exchangeWith();
    const untouched = exchange.chunks();
    await untouched.return!();
    expect(exchange.response.destroyed).toBe(false);
    const chunks = exchange.chunks();
    held.response.write('some');
    expect((await chunks.next()).value!.toString()).toBe('some');
    const closed = new Promise<void>((resolve) => held.socket.once('close', () => resolve()));
    expect((await chunks.return!()).done).toBe(true);
    expect(exchange.response.destroyed).toBe(true);
    await closed;
    expect((await chunks.next()).done).toBe(true);
  });
});
