// Test fixture (not shipped): an HTTP server whose responses the test drives — each request, its response object and
// socket handed to the test in arrival order, nothing answered until the test does.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Held {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
}

/** Starts the server on 127.0.0.1; `onClose` receives what closes it (the caller runs it after the test). */
export async function heldServer(
  onClose: (close: () => Promise<void>) => void,
): Promise<{ url: URL; next: () => Promise<Held> }> {
  const waiting: ((held: Held) => void)[] = [];
  const arrived: Held[] = [];
  const server = createServer((request, response) => {
    request.resume();
    const held = { request, response, socket: request.socket };
    const taker = waiting.shift();
    if (taker) taker(held);
    else arrived.push(held);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onClose(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`),
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
