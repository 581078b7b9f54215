// The HTTP server an adapter receives a platform's callbacks on (QQ's webhook, WeCom's callback, OneBot's event
// POSTs): bounded (a callback is one small request sent at once: a slow or stalled client is not kept), a handler's
// failure logged and answered 500, and — for an adapter that listens while it holds its connection lease — listening
// until the lease is given up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@aalis/core';

export interface CallbackServerOptions {
  /** Handles one callback; a rejection is logged (`failed`) and answered 500 when nothing was answered yet. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  logger: Logger;
  /** The log line of a failed callback ('QQ: a callback failed'). */
  failed: string;
}

export function callbackServer({ handle, logger, failed }: CallbackServerOptions): Server {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error(failed, { error: error instanceof Error ? error.message : String(error) });
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  return server;
}

/**
 * A callback's body, kept up to `limit` bytes: undefined (at once) when it grows past it — the caller answers 413; the
 * rest is not kept (Node discards what is left once the answer is sent, or the caller closes the connection).
 */
export function readCallbackBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) resolve(undefined);
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Closes the server and every connection it has, idle or not. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export interface ListenWhileHeldOptions extends CallbackServerOptions {
  host: string;
  port: number;
  /** Aborted when the connection is given up (the lease lost, the plugin stopping): the server closes. */
  held: AbortSignal;
  /** Listening, on the port bound (0 in the configuration picks one). */
  listening(port: number): void;
  /** The server could not listen (the port taken, the address invalid); the promise resolves after this. */
  listenFailed(error: Error): void;
}

/** Listens for callbacks until `held` is aborted or listening fails; resolves then. */
export function listenWhileHeld({ host, port, held, listening, listenFailed, ...options }: ListenWhileHeldOptions) {
  return new Promise<void>((resolve) => {
    const server = callbackServer(options);
    const close = () => {
      closeServer(server).then(resolve, resolve);
    };
    server.once('error', (error) => {
      listenFailed(error);
      held.removeEventListener('abort', close);
      resolve();
    });
    server.listen(port, host, () => listening((server.address() as AddressInfo).port));
    if (held.aborted) close();
    else held.addEventListener('abort', close, { once: true });
  });
}
