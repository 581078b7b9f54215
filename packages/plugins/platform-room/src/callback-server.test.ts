import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { listenWhileHeld, readCallbackBody } from './callback-server.js';

function recordingLogger(lines: string[]): Logger {
  const record = (message: string) => {
    lines.push(message);
  };
  const logger: Logger = {
    name: 'test',
    trace: record,
    debug: record,
    info: record,
    warn: record,
    error: record,
    enabled: () => true,
    child: () => logger,
  };
  return logger;
}

describe('listenWhileHeld', () => {
  it('answers callbacks while held (a failed one 500 and logged), closes when given up', async () => {
    const lines: string[] = [];
    const held = new AbortController();
    let bound = 0;
    const listening = listenWhileHeld({
      host: '127.0.0.1',
      port: 0,
      held: held.signal,
      logger: recordingLogger(lines),
      failed: 'Test: a callback failed',
      handle: async (request, response) => {
        if (request.url === '/fail') throw new Error('broken');
        response.end('ok');
      },
      listening: (port) => {
        bound = port;
      },
      listenFailed: () => {},
    });
    await expect.poll(() => bound).toBeGreaterThan(0);
    expect(await (await fetch(`http://127.0.0.1:${bound}/`)).text()).toBe('ok');
    expect((await fetch(`http://127.0.0.1:${bound}/fail`)).status).toBe(500);
    expect(lines).toContain('Test: a callback failed');
    held.abort();
    await listening;
    await expect(fetch(`http://127.0.0.1:${bound}/`)).rejects.toThrow();
  });

  it('reports a port it cannot listen on and resolves', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const failures: string[] = [];
    await listenWhileHeld({
      host: '127.0.0.1',
      port,
      held: new AbortController().signal,
      logger: recordingLogger([]),
      failed: 'Test: a callback failed',
      handle: async () => {},
      listening: () => {},
      listenFailed: (error) => failures.push((error as NodeJS.ErrnoException).code ?? ''),
    });
    expect(failures).toEqual(['EADDRINUSE']);
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  });
});

describe('readCallbackBody', () => {
  it('gives the body within its limit; past it undefined, and the client still reads the 413', async () => {
    const read: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      void readCallbackBody(request, 1024).then((body) => {
        read.push(body?.toString('utf8'));
        response.writeHead(body === undefined ? 413 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect((await fetch(url, { method: 'POST', body: 'x'.repeat(1024) })).status).toBe(200);
      expect((await fetch(url, { method: 'POST', body: 'y'.repeat(2 * 1024 * 1024) })).status).toBe(413);
      expect((await fetch(url, { method: 'POST', body: 'small' })).status).toBe(200);
      expect(read).toEqual(['x'.repeat(1024), undefined, 'small']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
