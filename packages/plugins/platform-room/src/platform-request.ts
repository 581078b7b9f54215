// The adapters' API calls to their platforms (DingTalk, QQ, Satori, Telegram; Lark's SDK through larkHttpInstance): a
// thin JSON call over the exchange the model providers use (@aalis/http-transport's HttpExchange over keep-alive
// agents), so a platform API is reached the same way as a model endpoint — through the proxy the environment names
// (https_proxy/HTTPS_PROXY, http_proxy/HTTP_PROXY, NO_PROXY, loopback never proxied), trusting what the agents trust
// (NODE_EXTRA_CA_CERTS, or an adapter's own `agents` made with createAgents({ ca })), and aborted at once. Not the
// global fetch: its WHATWG objects, web streams and per-call AbortSignal.timeout were most of what an adapter added to
// a reply's way out (docs/decisions/platform-send-path.md). Bounded: sockets per origin, the silence allowed (until
// the request is sent, until the answer's headers, between the parts of its body), the answer's size.
import { createAgents, type HttpAgents, HttpExchange, resolveProxy, TransportError } from '@aalis/http-transport';

/** Sockets per platform origin: sends to one chat go one after another, chats in parallel. */
const SOCKETS_PER_ORIGIN = 32;
/** A platform API's answer to a call is a small JSON document; anything larger is cut and refused. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Origins whose agents are kept: an adapter calls one or two; more than this is a misuse, and the oldest go. */
const MAX_ORIGINS = 64;

export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A JSON (or other text) body; bytes are sent as they are. */
  body?: string | Uint8Array;
  /** The longest silence: until the request is sent, until the answer's headers, between the parts of its body. */
  timeoutMs: number;
  signal?: AbortSignal;
  maxAnswerBytes?: number;
  /** The adapter's own agents (a configured proxy or CA file); else shared ones, with the environment's proxy. */
  agents?: HttpAgents;
}

export interface PlatformAnswer {
  status: number;
  /** A response header (lower-case name), its first value. */
  header(name: string): string | undefined;
  /** All response headers, by lower-case name (as node:http gives them). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text (UTF-8). */
  text: string;
}

/** Thrown when the platform stayed silent for `timeoutMs` (name TimeoutError, as fetch's timeout). */
export class PlatformTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** Thrown when the answer is larger than `maxAnswerBytes` (its rest is not read). */
export class PlatformAnswerTooLargeError extends Error {
  override readonly name = 'PlatformAnswerTooLargeError';
  constructor(limit: number, size: number) {
    super(`the answer is larger than ${limit} bytes (${size})`);
  }
}

const shared = new Map<string, HttpAgents>();

/**
 * The shared agents for an origin, made on first use (a host without an HTTP platform keeps none) with the proxy the
 * environment names for it, read then: a proxy variable that is not an http URL fails every call to that origin with
 * the transport's coded error, rather than being ignored.
 */
export function platformAgents(target: URL): HttpAgents {
  const known = shared.get(target.origin);
  if (known) return known;
  const proxy = resolveProxy({ baseUrl: target.href, configured: undefined, env: process.env, plugin: 'platform' });
  const agents = createAgents(proxy ? { proxy } : {});
  for (const agent of [agents.http, agents.https]) {
    agent.maxSockets = SOCKETS_PER_ORIGIN;
    agent.maxFreeSockets = SOCKETS_PER_ORIGIN;
  }
  if (shared.size >= MAX_ORIGINS) {
    const [oldest, old] = shared.entries().next().value!;
    shared.delete(oldest);
    old.http.destroy();
    old.https.destroy();
  }
  shared.set(target.origin, agents);
  return agents;
}

/** One HTTP call to a platform API. Rejects on a network failure, a timeout, an abort or an oversized answer. */
export async function platformRequest(url: string | URL, options: PlatformRequest): Promise<PlatformAnswer> {
  const target = typeof url === 'string' ? new URL(url) : url;
  const limit = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  let exchange: HttpExchange | undefined;
  try {
    exchange = await HttpExchange.open({
      url: target,
      method: options.method ?? 'POST',
      headers: options.headers ?? {},
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.signal ? { signal: options.signal } : {}),
      connectMs: options.timeoutMs,
      headersMs: options.timeoutMs,
      idleMs: options.timeoutMs,
      agents: options.agents ?? platformAgents(target),
    });
    const declared = Number(exchange.header('content-length'));
    if (declared > limit) throw new PlatformAnswerTooLargeError(limit, declared);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of exchange.chunks()) {
      size += chunk.length;
      if (size > limit) throw new PlatformAnswerTooLargeError(limit, size);
      chunks.push(chunk);
    }
    const answer = exchange;
    return {
      status: answer.status,
      header: (name) => answer.header(name),
      headers: answer.response.headers,
      text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
    };
  } catch (error) {
    throw platformFailure(error, options);
  } finally {
    exchange?.close();
  }
}

/** The transport's failures as the adapters map them: a silence is a TimeoutError, an abort the signal's reason. */
function platformFailure(error: unknown, options: PlatformRequest): unknown {
  if (!(error instanceof TransportError)) return error;
  if (error.kind === 'connect-timeout' || error.kind === 'headers-timeout' || error.kind === 'idle-timeout') {
    return new PlatformTimeoutError(options.timeoutMs);
  }
  if (error.kind === 'aborted' && options.signal?.aborted) return options.signal.reason;
  return error;
}
