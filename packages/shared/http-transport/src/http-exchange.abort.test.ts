import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { heldServer } from './held-server.case.js';
import { createAgents, HttpExchange, TransportError } from './http-exchange.js';

// One abort listener serves the whole exchange: it aborts the request while the headers are awaited and the exchange
// once they are here; close() removes it. An abort at either stage must end the call as before.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function open(url: URL, signal: AbortSignal) {
  const agents = createAgents();
  closers.push(async () => agents.http.destroy());
  return HttpExchange.open({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal,
    connectMs: 5_000,
    headersMs: 5_000,
    idleMs: 5_000,
    agents,
  });
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** Counts the abort listeners ever added to a signal. */
function countAdds(signal: AbortSignal): { added: number } {
  const count = { added: 0 };
  const original = signal.addEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    if (args[0] === 'abort') count.added++;
    original(...args);
  }) as AbortSignal['addEventListener'];
  return count;
}

describe('HttpExchange abort', () => {
  it('an abort while the headers are awaited rejects as aborted and leaves no listener', async () => {
    const { url, next } = await heldServer((close) => closers.push(close));
    const controller = new AbortController();
    const opening = open(url, controller.signal);
    await next();
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    await expect(opening).rejects.toMatchObject({ kind: 'aborted' });
    expect(listeners(controller.signal)).toBe(0);
  });

  it('one listener from the request to close(); an abort mid-body ends the read as aborted', async () => {
    const { url, next } = await heldServer((close) => closers.push(close));
    const controller = new AbortController();
    const adds = countAdds(controller.signal);
    const opening = open(url, controller.signal);
    const { response } = await next();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: one\n\n');
    const exchange = await opening;
    expect(listeners(controller.signal)).toBe(1);
    const chunks = exchange.chunks();
    expect((await chunks.next()).value?.toString()).toBe('data: one\n\n');
    controller.abort();
    const failure = await chunks.next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('aborted');
    exchange.close();
    expect(listeners(controller.signal)).toBe(0);
    expect(adds.added).toBe(1);
  });

  it('a completed exchange removes its listener on close and an abort afterwards changes nothing', async () => {
    const { url, next } = await heldServer((close) => closers.push(close));
    const controller = new AbortController();
    const opening = open(url, controller.signal);
    (await next()).response.end('done');
    const exchange = await opening;
    expect(await exchange.text()).toBe('done');
    exchange.close();
    expect(listeners(controller.signal)).toBe(0);
    controller.abort();
    expect(exchange.response.complete).toBe(true);
  });
});
