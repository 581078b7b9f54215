import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgents, MAX_FREE_SOCKETS } from './http-exchange.js';

// Many sessions call the model at once: after a burst, the next burst must find its connections still open instead
// of opening most of them again (Node's default agent keeps 256 idle ones and closes the rest).

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('provider connection pool', () => {
  it('keeps every connection of a 400-call burst open for the next burst', async () => {
    let connections = 0;
    const server = createServer((_req, res) => {
      // Answer only once the whole burst is in flight, so the burst really needs one connection per call.
      setTimeout(() => res.end('ok'), 50);
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agents = createAgents();
    closers.push(async () => {
      agents.http.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const call = () =>
      new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent: agents.http }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    const burst = 400;
    expect(MAX_FREE_SOCKETS).toBeGreaterThanOrEqual(burst);
    await Promise.all(Array.from({ length: burst }, call));
    expect(connections).toBe(burst);
    // Let the agent put the sockets back in its free list.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all(Array.from({ length: burst }, call));
    expect(connections).toBe(burst);
  });
});
