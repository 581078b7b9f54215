// An https.Agent whose sockets are TLS over an HTTP CONNECT tunnel through a proxy. The agent pools them per target
// like any https socket, so keep-alive reuses a tunnel. A request hands the agent its abort signal (TUNNEL_SIGNAL)
// so that an abort or connect timeout also ends a CONNECT still in flight.
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { type AgentOptions, Agent as HttpsAgent, type RequestOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type SecureContext, connect as tlsConnect } from 'node:tls';
import { ProxyError } from './proxy-error.js';
import type { ProxySettings } from './proxy-settings.js';

/** The request option that carries the exchange's signal to `createConnection`. */
export const TUNNEL_SIGNAL = 'tunnelSignal';

export type TunnelRequestOptions = RequestOptions & { [TUNNEL_SIGNAL]?: AbortSignal };

export class TunnelAgent extends HttpsAgent {
  private readonly proxy: ProxySettings;
  private readonly secureContext: SecureContext | undefined;

  constructor({ proxy, secureContext, ...options }: AgentOptions & { proxy: ProxySettings }) {
    super(options);
    this.proxy = proxy;
    this.secureContext = secureContext;
  }

  override createConnection(
    options: TunnelRequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): undefined {
    const host = String(options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    const port = Number(options.port ?? 443);
    openTunnel({ proxy: this.proxy, host, port, signal: options[TUNNEL_SIGNAL] }).then(
      (socket) => {
        const secure = tlsConnect({
          socket,
          host,
          // SNI takes host names only.
          servername: isIP(host) === 0 ? host : '',
          secureContext: this.secureContext,
        });
        secure.once('close', () => socket.destroy());
        callback?.(null, secure);
      },
      (error: Error) => callback?.(error, undefined as never),
    );
    return undefined;
  }
}

/** Asks the proxy for a tunnel to host:port; resolves with the raw socket once it answered 2xx. */
function openTunnel({
  proxy,
  host,
  port,
  signal,
}: {
  proxy: ProxySettings;
  host: string;
  port: number;
  signal: AbortSignal | undefined;
}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const target = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
    const headers: OutgoingHttpHeaders = { host: target };
    if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
    const connect = httpRequest({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: target,
      headers,
      agent: false,
    });
    const onAbort = () => connect.destroy(new ProxyError({ proxy: proxy.display, cause: signal?.reason }));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    connect.once('connect', (response, socket, head) => {
      settle();
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        socket.destroy();
        reject(new ProxyError({ proxy: proxy.display, status }));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    connect.once('error', (error) => {
      settle();
      reject(error instanceof ProxyError ? error : new ProxyError({ proxy: proxy.display, cause: error }));
    });
    if (signal?.aborted) onAbort();
    else connect.end();
  });
}
