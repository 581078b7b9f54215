// The HTTP client the Lark SDK calls through (its `httpInstance` option): JSON calls — sending and replying to
// messages, reading one, the tenant token, the bot's info — go through the adapters' shared exchange (platformRequest
// over @aalis/http-transport: keep-alive agents, the environment's proxy, bounded silence and answer size) instead
// of the SDK's axios instance, whose interceptors, config merging and adapter selection were most of what a Lark send
// cost on the way out (npm run bench platforms). What is not a JSON call (a multipart upload, a binary or streamed
// download) goes to the SDK's own axios instance, unchanged. The answers are shaped as the SDK's instance shapes them:
// the body, or { data, headers } when asked with $return_headers; a status outside 2xx rejects with an error that
// carries `response` ({ status, headers, data }) as axios's does, which the SDK and the adapter read.
import { platformRequest } from '@aalis/platform-room';
import type * as lark from '@larksuiteoapi/node-sdk';

type HttpInstance = NonNullable<ConstructorParameters<typeof lark.Client>[0]['httpInstance']>;
type Options = Parameters<HttpInstance['request']>[0];
/** What is not a JSON call goes here: the SDK's own axios instance (lark.defaultHttpInstance). */
export interface LarkFallback {
  request(options: Options): Promise<unknown>;
}

/** Axios has no timeout by default; here the longest silence of a Lark API call. */
const SILENCE_MS = 30_000;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A failed call as axios reports it: the SDK's error formatter and the adapter read `response`. */
export class LarkHttpError extends Error {
  override readonly name = 'LarkHttpError';
  constructor(
    readonly response: {
      status: number;
      headers: Readonly<Record<string, string | string[] | undefined>>;
      data: unknown;
    },
  ) {
    super(`Request failed with status code ${response.status}`);
  }
}

function isJsonCall(options: Options): boolean {
  const type = headerOf(options.headers, 'content-type');
  if (type !== undefined && !type.toLowerCase().startsWith('application/json')) return false;
  if (options.responseType !== undefined && options.responseType !== 'json') return false;
  if (!METHODS.has((options.method ?? 'GET').toUpperCase())) return false;
  const data: unknown = options.data;
  return data === undefined || data === null || Object.getPrototypeOf(data) === Object.prototype || Array.isArray(data);
}

function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const key in headers) if (key.toLowerCase() === name) return String(headers[key]);
  return undefined;
}

function withQuery(url: string, options: Options): string {
  const params = options.params;
  if (!params) return url;
  let query: string;
  if (typeof options.paramsSerializer === 'function') query = options.paramsSerializer(params);
  else {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      for (const each of Array.isArray(value) ? value : [value]) search.append(key, String(each));
    }
    query = search.toString();
  }
  return query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The SDK's `httpInstance`: JSON calls through platformRequest, everything else through `fallback`. */
export function larkHttpInstance(fallback: LarkFallback): HttpInstance {
  async function request<R>(options: Options): Promise<R> {
    if (!isJsonCall(options) || options.url === undefined) return fallback.request(options) as Promise<R>;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      if (value !== undefined && value !== null) headers[key.toLowerCase()] = String(value);
    }
    const data: unknown = options.data;
    const hasBody = data !== undefined && data !== null;
    if (hasBody) headers['content-type'] ??= 'application/json';
    headers.accept ??= 'application/json, text/plain, */*';
    const answer = await platformRequest(withQuery(options.url, options), {
      method: (options.method ?? 'GET').toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      headers,
      ...(hasBody ? { body: JSON.stringify(data) } : {}),
      timeoutMs: options.timeout || SILENCE_MS,
    });
    let body: unknown = answer.text;
    if (answer.text !== '') {
      try {
        body = JSON.parse(answer.text);
      } catch {
        // Not JSON: the text, as axios leaves it.
      }
    }
    const responseHeaders = answer.headers;
    if (answer.status < 200 || answer.status >= 300) {
      throw new LarkHttpError({ status: answer.status, headers: responseHeaders, data: body });
    }
    const returnHeaders = (options as { $return_headers?: boolean }).$return_headers === true;
    return (returnHeaders ? { data: body, headers: responseHeaders } : body) as R;
  }
  const withMethod =
    (method: string) =>
    <R>(url: string, options?: Options) =>
      request<R>({ ...options, url, method });
  const withData =
    (method: string) =>
    <R>(url: string, data?: unknown, options?: Options) =>
      request<R>({ ...options, url, method, data });
  return {
    request,
    get: withMethod('GET'),
    delete: withMethod('DELETE'),
    head: withMethod('HEAD'),
    options: withMethod('OPTIONS'),
    post: withData('POST'),
    put: withData('PUT'),
    patch: withData('PATCH'),
  };
}
