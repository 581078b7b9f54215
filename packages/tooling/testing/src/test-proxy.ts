// Test-only: a small HTTP proxy on 127.0.0.1 — CONNECT tunnels and absolute-URL forwarding — that
// records what it saw, and can demand credentials (407), refuse tunnels (403) or never answer a CONNECT.
import { createServer, request as httpRequest } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface TestProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** CONNECT targets (host:port), in order. */
  readonly connects: string[];
  /** Absolute URLs of forwarded requests, in order. */
  readonly forwarded: string[];
  /** The Proxy-Authorization header of every request (CONNECT or forwarded), in order. */
  readonly authorizations: Array<string | undefined>;
  /** Every request the proxy saw, CONNECT or forwarded, refused or not. */
  requestCount(): number;
  /** Connections open now (client side and upstream). */
  openConnections(): number;
  reset(): void;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** `user:password` the proxy demands (407 otherwise). */
  credentials?: string;
  /** Answer every CONNECT with 403. */
  refuseConnect?: boolean;
  /** Never answer a CONNECT (to test timeouts and abort). */
  hangConnect?: boolean;
  /** Host names the proxy resolves itself (name → address), like a proxy with its own DNS. */
  hosts?: Record<string, string>;
}

export async function startTestProxy({
  credentials,
  refuseConnect = false,
  hangConnect = false,
  hosts = {},
}: TestProxyOptions = {}): Promise<TestProxy> {
  const address = (host: string) => hosts[host] ?? host;
  const connects: string[] = [];
  const forwarded: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const expected = credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`;
  const authorized = (header: string | undefined) => {
    authorizations.push(header);
    return expected === undefined || header === expected;
  };
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = createServer((req, res) => {
    if (!authorized(req.headers['proxy-authorization'])) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': '0' });
      res.end();
      return;
    }
    forwarded.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: address(target.hostname),
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
        agent: false,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    track(socket);
    socket.once('end', () => socket.end()); // the server's sockets allow half-open connections; a client that left is gone
    connects.push(req.url ?? '');
    if (!authorized(req.headers['proxy-authorization'])) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    if (refuseConnect) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (hangConnect) return;
    const colon = (req.url ?? '').lastIndexOf(':');
    const host = (req.url ?? '').slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const upstream = connect(Number((req.url ?? '').slice(colon + 1)), address(host), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    track(upstream);
    upstream.once('close', () => socket.destroy());
    socket.once('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    forwarded,
    authorizations,
    requestCount: () => authorizations.length,
    openConnections: () => sockets.size,
    reset() {
      connects.length = 0;
      forwarded.length = 0;
      authorizations.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
