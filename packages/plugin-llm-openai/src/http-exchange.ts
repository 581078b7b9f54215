// One HTTP request/response over node:http(s) with the semantics a model call needs: a connect timeout (until
// the response headers), an idle timeout (silence between body chunks), and abort that closes the socket at once.
import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export type TransportFailure = 'network' | 'connect-timeout' | 'idle-timeout' | 'aborted' | 'incomplete';

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
}

export interface HttpAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/** Keep-alive agents: one pair per provider instance, destroyed with it. */
export function createAgents(): HttpAgents {
  return { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
}

export interface OpenExchangeOptions {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  connectMs: number;
  idleMs: number;
  agents: HttpAgents;
}

export class HttpExchange {
  private failure: TransportError | undefined;
  private readonly onAbort = () => this.fail('aborted');

  private constructor(
    private readonly request: ClientRequest,
    readonly response: IncomingMessage,
    private readonly signal: AbortSignal | undefined,
    private readonly idleMs: number,
  ) {
    response.on('error', () => {}); // surfaced by the readers below
    signal?.addEventListener('abort', this.onAbort, { once: true });
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
    idleMs,
    agents,
  }: OpenExchangeOptions): Promise<HttpExchange> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new TransportError('aborted'));
        return;
      }
      const https = url.protocol === 'https:';
      const request = (https ? httpsRequest : httpRequest)(url, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: https ? agents.https : agents.http,
      });
      let failure: TransportError | undefined;
      const fail = (kind: TransportFailure) => {
        failure ??= new TransportError(kind);
        request.destroy(failure);
      };
      const onAbort = () => fail('aborted');
      const timer = setTimeout(() => fail('connect-timeout'), connectMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      request.on('error', (error) => {
        settle();
        reject(failure ?? new TransportError('network', error));
      });
      request.on('response', (response) => {
        settle();
        resolve(new HttpExchange(request, response, signal, idleMs));
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

  /** The body in pieces as they arrive. Throws TransportError on idle timeout, abort, or a body cut short. */
  async *chunks(): AsyncGenerator<Buffer> {
    const timer = setTimeout(() => this.fail('idle-timeout'), this.idleMs);
    try {
      for await (const chunk of this.response) {
        timer.refresh();
        yield chunk as Buffer;
      }
    } catch (error) {
      throw this.failure ?? new TransportError('network', error);
    } finally {
      clearTimeout(timer);
    }
    if (this.failure) throw this.failure;
    if (!this.response.complete) throw new TransportError('incomplete');
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
