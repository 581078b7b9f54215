// The HTTP side of the session protocol: me, login, logout and requests over POST /api/v1/call, with the CSRF header
// taken from me/login. Browser-safe (fetch is injectable).
import { type MeResult, SessionClientError, type SessionClientOptions } from './client-types.js';
import type { ProtocolError } from './frame-types.js';
import type { Account, ParamsOf, RequestType, ResultOf } from './request-types.js';

export class SessionHttp {
  private csrfToken: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly options: Pick<SessionClientOptions, 'fetch' | 'headers' | 'locale'>,
  ) {}

  /** Who is logged in (and the CSRF token for HTTP mutations). Rejects with AALIS_WEBUI_LOGIN_REQUIRED otherwise. */
  async me(): Promise<MeResult> {
    const body = await this.http<MeResult>('GET', '/api/v1/me');
    this.csrfToken = body.csrfToken;
    return body;
  }

  /** Exchanges a one-time link token for a login (the cookie is set by the response). */
  async login(token: string): Promise<{ account: Account; csrfToken: string }> {
    const body = await this.http<{ account: Account; csrfToken: string }>('POST', '/api/v1/login', { token });
    this.csrfToken = body.csrfToken;
    return body;
  }

  /** Logs in with an account's password (the cookie is set by the response). */
  async loginWithPassword(account: string, password: string): Promise<{ account: Account; csrfToken: string }> {
    const body = await this.http<{ account: Account; csrfToken: string }>('POST', '/api/v1/login', {
      account,
      password,
    });
    this.csrfToken = body.csrfToken;
    return body;
  }

  async logout(): Promise<void> {
    if (!this.csrfToken) await this.me();
    await this.http('POST', '/api/v1/logout', {});
    this.csrfToken = undefined;
  }

  /** A request over HTTP instead of the socket (same types, same results, same errors). */
  async call<T extends RequestType>(type: T, params: ParamsOf<T>): Promise<ResultOf<T>> {
    if (!this.csrfToken) await this.me();
    const body = await this.http<{ result: ResultOf<T> }>('POST', '/api/v1/call', { ...params, type });
    return body.result;
  }

  private async http<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const doFetch = this.options.fetch ?? globalThis.fetch.bind(globalThis);
    const headers: Record<string, string> = { accept: 'application/json', ...(this.options.headers ?? {}) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.locale) headers['x-aalis-locale'] = this.options.locale;
    if (method === 'POST' && this.csrfToken) headers['x-aalis-csrf'] = this.csrfToken;
    const response = await doFetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const parsed = (await response.json().catch(() => undefined)) as
      | ({ ok: true } & T)
      | { ok: false; error: ProtocolError }
      | undefined;
    if (!parsed || !response.ok || (parsed as { ok?: boolean }).ok === false) {
      const error = (parsed as { error?: ProtocolError } | undefined)?.error ?? {
        code: 'AALIS_WEBUI_CLIENT_HTTP',
        message: `HTTP ${response.status} from ${path}`,
      };
      throw new SessionClientError(error);
    }
    return parsed as T;
  }
}
