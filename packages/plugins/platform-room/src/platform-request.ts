// The HTTP exchange the room adapters' API clients share for their calls (DingTalk, QQ, Satori, Telegram): node:http
// and node:https over keep-alive agents, instead of the global fetch. A send is on the wire after a fraction of fetch's
// work — no WHATWG Request, Response and stream objects, no AbortSignal.timeout timer per call (about a sixth of the
// CPU per call, docs/decisions/platform-send-path.md) — and that work was most of what an adapter added to a reply's
// way out (npm run bench platforms). Not the npm undici: loading it installs its own agent as the process's global
// dispatcher, which every other fetch and undici copy (discord.js's) would then go through. Bounded: sockets per
// origin, the silence allowed on the socket (connecting, waiting for the answer, within its body), the answer's size.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Sockets per platform origin: sends to one chat go one after another, chats in parallel. */
const SOCKETS_PER_ORIGIN = 32;
/** A platform API's answer to a call is a small JSON document; anything larger is cut and refused. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;
/** Created on first use: a host without an HTTP platform keeps none. */
const agentFor = (secure: boolean) => {
  const options = { keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN, maxFreeSockets: SOCKETS_PER_ORIGIN };
  agents ??= { http: new HttpAgent(options), https: new HttpsAgent(options) };
  return secure ? agents.https : agents.http;
};

export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A JSON (or other text) body. */
  body?: string;
  /** The longest silence on the socket: connecting, waiting for the answer, between the parts of its body. */
  timeoutMs: number;
  signal?: AbortSignal;
  maxAnswerBytes?: number;
}

export interface PlatformAnswer {
  status: number;
  /** A response header (lower-case name), its first value. */
  header(name: string): string | undefined;
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

/** One HTTP call to a platform API. Rejects on a network failure, a timeout, an abort or an oversized answer. */
export function platformRequest(url: string | URL, options: PlatformRequest): Promise<PlatformAnswer> {
  const target = typeof url === 'string' ? new URL(url) : url;
  const secure = target.protocol === 'https:';
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  const limit = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  return new Promise<PlatformAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const request = (secure ? httpsRequest : httpRequest)(target, {
      method: options.method ?? 'POST',
      headers: { ...options.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) },
      agent: agentFor(secure),
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    request.on('timeout', () => request.destroy(new PlatformTimeoutError(options.timeoutMs)));
    request.on('error', fail);
    request.on('response', (response: IncomingMessage) => {
      const tooLarge = (size: number) => {
        fail(new Error(`the answer is larger than ${limit} bytes (${size})`));
        request.destroy();
      };
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        tooLarge(declared);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) tooLarge(size);
        else chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('end', () => {
        if (settled) return;
        settled = true;
        const headers = response.headers;
        resolve({
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = headers[name];
            return Array.isArray(value) ? value[0] : value;
          },
          text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    request.end(body);
  });
}
