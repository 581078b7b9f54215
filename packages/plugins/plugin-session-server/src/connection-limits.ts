// The host's bounds on what clients hold open (docs/decisions/session-server-bounds.md): connections per client
// address (HTTP and sockets), sockets per login, requests in progress per login, and the schedule on which slow or
// idle connections are closed. Each refusal is a coded error saying which bound and what to do.
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Locale } from '@aalis/core';
import { limitErrors } from './limit-errors.js';
import type { ServerConfig } from './server-config.js';
import { toProtocolError } from './server-errors.js';

type Bounds = Pick<
  ServerConfig,
  | 'maxConnectionsPerAddress'
  | 'maxSocketsPerLogin'
  | 'maxRequestsPerLogin'
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'idleTimeoutMs'
>;

export class ConnectionLimits {
  private readonly connections = new Map<string, number>();
  private readonly sockets = new Map<string, number>();
  private readonly requests = new Map<string, number>();

  constructor(
    private readonly bounds: Bounds,
    private readonly locale: Locale,
  ) {}

  /**
   * The schedule for Node's HTTP server (given when it is created: Node reads these once): a request head within
   * headersTimeoutMs, a whole request within requestTimeoutMs, idle keep-alive connections closed after
   * idleTimeoutMs, checked every second at most.
   */
  serverOptions(): ServerOptions {
    return {
      headersTimeout: this.bounds.headersTimeoutMs,
      requestTimeout: this.bounds.requestTimeoutMs,
      keepAliveTimeout: this.bounds.idleTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.floor(this.bounds.headersTimeoutMs / 2)),
    };
  }

  /** Counts the server's connections per client address, closing those past the bound at once. */
  guard(server: Server): void {
    server.on('connection', (socket: Socket) => this.connected(socket));
  }

  private connected(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (this.connections.get(address) ?? 0) + 1;
    if (count > this.bounds.maxConnectionsPerAddress) {
      const error = limitErrors.AALIS_WEBUI_TOO_MANY_CONNECTIONS({
        count: count - 1,
        limit: this.bounds.maxConnectionsPerAddress,
      });
      const { error: body } = toProtocolError(error, this.locale);
      const text = JSON.stringify({ ok: false, error: body });
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
      socket.destroySoon();
      return;
    }
    this.connections.set(address, count);
    socket.once('close', () => {
      const left = (this.connections.get(address) ?? 1) - 1;
      if (left > 0) this.connections.set(address, left);
      else this.connections.delete(address);
    });
  }

  /** Open connections per address now (for tests and the admin view). */
  connectionsOf(address: string): number {
    return this.connections.get(address) ?? 0;
  }

  /** A socket of this login opens: the returned function closes it; TOO_MANY_SOCKETS past the bound. */
  openSocket(loginKey: string): () => void {
    const count = this.sockets.get(loginKey) ?? 0;
    if (count >= this.bounds.maxSocketsPerLogin) {
      throw limitErrors.AALIS_WEBUI_TOO_MANY_SOCKETS({ count, limit: this.bounds.maxSocketsPerLogin });
    }
    this.sockets.set(loginKey, count + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const left = (this.sockets.get(loginKey) ?? 1) - 1;
      if (left > 0) this.sockets.set(loginKey, left);
      else this.sockets.delete(loginKey);
    };
  }

  /** Runs one request of this login; TOO_MANY_REQUESTS while maxRequestsPerLogin of its requests are in progress. */
  async request<T>(loginKey: string, run: () => Promise<T>): Promise<T> {
    const count = this.requests.get(loginKey) ?? 0;
    if (count >= this.bounds.maxRequestsPerLogin) {
      throw limitErrors.AALIS_WEBUI_TOO_MANY_REQUESTS({ count, limit: this.bounds.maxRequestsPerLogin });
    }
    this.requests.set(loginKey, count + 1);
    try {
      return await run();
    } finally {
      const left = (this.requests.get(loginKey) ?? 1) - 1;
      if (left > 0) this.requests.set(loginKey, left);
      else this.requests.delete(loginKey);
    }
  }
}
