// One HTTP request/response over node:http(s) with the semantics a model call needs: a connect timeout (until the
// request is on its way: connection, TLS, proxy tunnel, body sent), a headers timeout (the server's silence until
// the response headers), an idle timeout (silence between body chunks), and abort that closes the socket at once.
// Through a proxy, an http URL is forwarded (absolute URL as the request path) and an https URL is tunnelled.
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import { BodyChunks } from './body-chunks.js';
import { ProxyError } from './proxy-error.js';
import type { ProxySettings } from './proxy-settings.js';
import { TUNNEL_SIGNAL, TunnelAgent, type TunnelRequestOptions } from './tunnel-agent.js';

/** Verification failures of the server's certificate: retrying cannot help, `caFile` can. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export type TransportFailure =
  | 'network'
  | 'connect-timeout'
  | 'headers-timeout'
  | 'idle-timeout'
  | 'aborted'
  | 'incomplete';

export class TransportError extends Error {
  readonly kind: TransportFailure;
  constructor(kind: TransportFailure, cause?: unknown) {
    super(cause instanceof Error ? cause.message : kind, cause === undefined ? undefined : { cause });
    this.name = 'TransportError';
    this.kind = kind;
  }
  /** The socket error code (ECONNREFUSED …) when there is one. */
  get code(): string | undefined {
    return (this.cause as { code?: string } | undefined)?.code;
  }
  /** Whether the server's certificate was not accepted. */
  get untrustedCertificate(): boolean {
    return this.kind === 'network' && CERTIFICATE_CODES.has(this.code ?? '');
  }
}

export interface HttpAgents {
  http: HttpAgent;
  https: HttpsAgent;
  /** Set when requests go through a proxy. */
  proxy?: ProxySettings;
}

/**
 * Idle keep-alive connections an agent keeps per host. Node's default (256) closes the rest after a burst, so with
 * more sessions calling at once every wave paid new connections (744 of 1000 in the concurrency bench); the server's
 * keep-alive timeout still closes the ones that stay idle.
 */
export const MAX_FREE_SOCKETS = 4096;

/**
 * Keep-alive agents: one pair per provider instance, destroyed with it. `ca` (the default roots plus caFile) is
 * turned into one TLS context here rather than once per connection.
 */
export function createAgents({ proxy, ca }: { proxy?: ProxySettings; ca?: string[] } = {}): HttpAgents {
  const secureContext = ca === undefined ? undefined : createSecureContext({ ca });
  const pool = { keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS };
  return {
    http: new HttpAgent(pool),
    https: proxy ? new TunnelAgent({ ...pool, proxy, secureContext }) : new HttpsAgent({ ...pool, secureContext }),
    proxy,
  };
}

export interface OpenExchangeOptions {
  url: URL;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  /** A string is sent as UTF-8; bytes as they are (openWithRetries encodes a body once for all its attempts). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Until the request has been sent (connected, TLS and any proxy tunnel up, body written). */
  connectMs: number;
  /** From then until the response headers. */
  headersMs: number;
  /** Longest silence between parts of the body. */
  idleMs: number;
  agents: HttpAgents;
}

export class HttpExchange {
  private failure: TransportError | undefined;

  /** `onAbort`: the abort listener `open` registered on `signal`, now aborting this exchange; removed by close(). */
  private constructor(
    private readonly request: ClientRequest,
    readonly response: IncomingMessage,
    private readonly signal: AbortSignal | undefined,
    private readonly idleMs: number,
    private readonly onAbort: () => void,
  ) {
    response.on('error', () => {}); // surfaced by the readers below
    if (signal?.aborted) this.fail('aborted');
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.response.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  /** Sends the request; resolves once the response headers arrived. Rejects with TransportError. */
  static open({
    url,
    method,
    headers,
    body,
    signal,
    connectMs,
    headersMs,
    idleMs,
    agents,
  }: OpenExchangeOptions): Promise<HttpExchange> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new TransportError('aborted'));
        return;
      }
      const https = url.protocol === 'https:';
      const sized = body === undefined ? headers : { ...headers, 'content-length': String(byteLengthOf(body)) };
      // Ends a CONNECT still in flight (the request has no socket to destroy until the tunnel is up); only an https
      // request through a proxy has one.
      const tunnel = https && agents.proxy ? new AbortController() : undefined;
      const forward = https ? undefined : agents.proxy;
      const direct: TunnelRequestOptions = { method, headers: sized, agent: https ? agents.https : agents.http };
      if (tunnel) direct[TUNNEL_SIGNAL] = tunnel.signal;
      const request = forward
        ? httpRequest({ ...forwardOptions({ url, proxy: forward, headers: sized }), method, agent: agents.http })
        : (https ? httpsRequest : httpRequest)(url, direct);
      let failure: TransportError | undefined;
      const fail = (kind: TransportFailure) => {
        failure ??= new TransportError(kind);
        tunnel?.abort(failure);
        request.destroy(failure);
      };
      // A forwarded request that fails before its socket reached the proxy failed at the proxy.
      let reachedProxy = false;
      if (forward) {
        request.once('socket', (socket) => {
          if (!socket.connecting) reachedProxy = true;
          else socket.once('connect', () => (reachedProxy = true));
        });
      }
      // One abort listener for the whole exchange: it aborts the request until the response is here, then the
      // exchange (one listener added and removed per call instead of two).
      let abortNow = () => fail('aborted');
      const onAbort = () => abortNow();
      let timer = setTimeout(() => fail('connect-timeout'), connectMs);
      // 'finish': the whole request has been handed to the connected socket; now the server has to answer.
      request.once('finish', () => {
        clearTimeout(timer);
        if (!failure) timer = setTimeout(() => fail('headers-timeout'), headersMs);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      let exchanged = false;
      const settle = () => {
        clearTimeout(timer);
        if (!exchanged) signal?.removeEventListener('abort', onAbort);
      };
      request.on('error', (error) => {
        settle();
        const cause = forward && !reachedProxy ? new ProxyError({ proxy: forward.display, cause: error }) : error;
        reject(failure ?? new TransportError('network', cause));
      });
      request.on('response', (response) => {
        if (forward && response.statusCode === 407) {
          settle();
          response.resume();
          reject(new TransportError('network', new ProxyError({ proxy: forward.display, status: 407 })));
          return;
        }
        clearTimeout(timer);
        exchanged = true;
        const exchange = new HttpExchange(request, response, signal, idleMs, onAbort);
        abortNow = () => exchange.fail('aborted');
        resolve(exchange);
      });
      request.setNoDelay(true);
      request.end(body);
    });
  }

  private fail(kind: TransportFailure): void {
    this.failure ??= new TransportError(kind);
    this.request.destroy(this.failure);
    this.response.destroy();
  }

  /**
   * The body in pieces as they arrive. Throws TransportError on idle timeout, abort, or a body cut short. A plain
   * iterator over the response (BodyChunks), not an async generator around Node's own.
   */
  chunks(): AsyncIterableIterator<Buffer> {
    let timer: NodeJS.Timeout | undefined;
    return new BodyChunks(this.response, {
      onStart: () => {
        timer = setTimeout(() => this.fail('idle-timeout'), this.idleMs);
      },
      onChunk: () => timer!.refresh(),
      failure: (error) => this.failure ?? new TransportError('network', error),
      onEnd: () => {
        if (this.failure) throw this.failure;
        if (!this.response.complete) throw new TransportError('incomplete');
      },
      onDone: () => clearTimeout(timer),
      // As Node's iterator does when given up (it aborts the request): the rest of the body is not wanted.
      abandon: () => {
        if (this.response.destroyed) return;
        this.request.destroy();
        this.response.destroy();
      },
    });
  }

  /** The whole body as text (at most `limit` bytes are kept). */
  async text(limit = 1_048_576): Promise<string> {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.chunks()) {
      if (size < limit) parts.push(chunk);
      size += chunk.length;
    }
    return Buffer.concat(parts).toString('utf8').slice(0, limit);
  }

  /** Releases the exchange; a response not read to its end is destroyed rather than left on the socket. */
  close(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    if (!this.response.complete) {
      this.request.destroy();
      this.response.destroy();
    }
  }
}

function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Standard forward proxying: the request goes to the proxy with the absolute URL as its path. */
function forwardOptions({
  url,
  proxy,
  headers,
}: {
  url: URL;
  proxy: ProxySettings;
  headers: Record<string, string>;
}): RequestOptions {
  const forwarded: Record<string, string> = { ...headers, host: url.host };
  if (proxy.authorization) forwarded['proxy-authorization'] = proxy.authorization;
  return { host: proxy.host, port: proxy.port, path: url.href, headers: forwarded };
}
