// A failure on the way through a proxy: it could not be reached, or it refused the request (a CONNECT answered
// with a non-2xx status, or 407 to a forwarded request). Carried as the cause of a TransportError.
export class ProxyError extends Error {
  /** `host:port` of the proxy (never the credentials). */
  readonly proxy: string;
  /** The proxy's status when it refused; undefined when it could not be reached. */
  readonly status: number | undefined;

  constructor({ proxy, status, cause }: { proxy: string; status?: number; cause?: unknown }) {
    super(
      status === undefined ? `proxy ${proxy} unreachable` : `proxy ${proxy} answered HTTP ${status}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'ProxyError';
    this.proxy = proxy;
    this.status = status;
  }

  /** The socket error code (ECONNREFUSED …) of an unreachable proxy. */
  get code(): string | undefined {
    return (this.cause as { code?: string } | undefined)?.code;
  }

  /** What went wrong reaching the proxy, as the socket said it. */
  get reason(): string {
    const cause = this.cause;
    if (!(cause instanceof Error)) return this.message;
    return this.code && !cause.message.includes(this.code) ? `${this.code}: ${cause.message}` : cause.message;
  }
}
