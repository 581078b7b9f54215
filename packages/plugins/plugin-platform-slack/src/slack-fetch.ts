// The `fetch` Slack's WebClient calls through (its `fetch` option): a Web API call — a url-encoded POST such as
// chat.postMessage, users.info, auth.test, apps.connections.open — goes through the adapters' shared exchange
// (platformRequest over @aalis/http-transport: keep-alive agents, the environment's proxy, bounded silence and answer
// size) instead of the global fetch, whose WHATWG Request/Response objects, web streams and per-call
// AbortSignal.timeout were most of what a Slack send cost on the way out (npm run bench slack-send). The WebClient's
// own handling is untouched: its request queue, its retries and its rate-limit pause read the status and the
// `retry-after` header of the answer given here. What is not a url-encoded call (a file upload's multipart body or
// bytes) and the one binary answer (admin.analytics.getFile, gzip) go to the fallback fetch, with the same timeout.
import { STATUS_CODES } from 'node:http';
import { type PlatformAnswer, platformRequest } from '@aalis/platform-room';
import type { FetchFunction } from '@slack/web-api';

// The WebClient's fetch types (declared in its WebClient module, exported only through FetchFunction).
type FetchRequestInit = NonNullable<Parameters<FetchFunction>[1]>;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;
type FetchHeaders = FetchResponse['headers'];

export interface SlackFetchOptions {
  /** The longest silence of one call (connect, the answer's headers, between the parts of its body). */
  timeoutMs: number;
  /** What is not a url-encoded Web API call goes here; default the global fetch. */
  fallback?: FetchFunction;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A url-encoded (or empty) body to a Web API method that answers JSON: the shared exchange can carry it. */
function isApiCall(url: string, init: FetchRequestInit | undefined): boolean {
  if (!METHODS.has((init?.method ?? 'GET').toUpperCase())) return false;
  if (init?.body !== undefined && typeof init.body !== 'string') return false;
  return !url.endsWith('/admin.analytics.getFile');
}

/** The answer's headers as fetch's Headers reads them (a repeated header joined with ", "). */
function answerHeaders(answer: PlatformAnswer): FetchHeaders {
  const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
  return {
    get: (name) => joined(answer.headers[name.toLowerCase()]) ?? null,
    *entries() {
      for (const [name, value] of Object.entries(answer.headers)) {
        const text = joined(value);
        if (text !== undefined) yield [name, text];
      }
    },
  };
}

function fetchResponse(url: string, answer: PlatformAnswer): FetchResponse {
  return {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    statusText: STATUS_CODES[answer.status] ?? '',
    url,
    headers: answerHeaders(answer),
    text: async () => answer.text,
    json: async () => JSON.parse(answer.text) as unknown,
    arrayBuffer: async () => {
      const bytes = Buffer.from(answer.text, 'utf8');
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
  };
}

/** A WebClient `fetch` over the shared exchange (the client's own `timeout` is left at 0: the silence here bounds it). */
export function slackFetch({
  timeoutMs,
  fallback = globalThis.fetch as FetchFunction,
}: SlackFetchOptions): FetchFunction {
  return async (target, init) => {
    const url = typeof target === 'string' ? target : target.href;
    if (!isApiCall(url, init)) {
      const signal = init?.signal ?? AbortSignal.timeout(timeoutMs);
      return fallback(target, { ...init, signal });
    }
    const answer = await platformRequest(url, {
      method: (init?.method?.toUpperCase() ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      ...(init?.headers ? { headers: init.headers } : {}),
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
      ...(init?.signal ? { signal: init.signal } : {}),
      timeoutMs,
    });
    // The WebClient asks never to be redirected (a redirect of a call carrying its token is refused, as fetch does).
    if (init?.redirect === 'error' && answer.status >= 300 && answer.status < 400) {
      throw new TypeError(`Slack answered a redirect (${answer.status}) where none is followed`);
    }
    return fetchResponse(url, answer);
  };
}
