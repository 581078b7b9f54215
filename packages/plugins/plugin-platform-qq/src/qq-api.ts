// The QQ bot OpenAPI (v2): an access token from the token URL (AppID + AppSecret, kept until a minute before it
// expires), then `Authorization: QQBot <token>` on every call. A 429 is waited out once (Retry-After); a 401 drops
// the token and tries once with a fresh one; other failures are coded errors that never carry a secret.
import { CachedToken, type FetchedToken, type PlatformAnswer, platformRequest } from '@aalis/platform-room';
import { qqErrors } from './qq-errors.js';

export interface QqApiOptions {
  appId: string;
  clientSecret: string;
  tokenUrl: string;
  apiBase: string;
  timeoutMs: number;
}

/** QQ's error body: `{ code, message, err_code, trace_id }`. */
interface QqErrorBody {
  code?: number;
  message?: string;
  err_code?: number;
}

const MAX_RETRY_AFTER_S = 60;

export class QqApi {
  /** Renewed a minute early (QQ keeps the old token valid for 60 s after a new one is issued). */
  private readonly token = new CachedToken(() => this.fetchToken());

  constructor(private readonly options: QqApiOptions) {}

  get apiBase(): string {
    return this.options.apiBase.replace(/\/+$/, '');
  }

  /** The current access token, fetched when missing or about to expire. */
  accessToken(): Promise<string> {
    return this.token.get();
  }

  /** Forgets the token (the gateway or an API call said it is no longer valid). */
  dropToken(): void {
    this.token.drop();
  }

  private async fetchToken(): Promise<FetchedToken> {
    let response: Response;
    try {
      response = await fetch(this.options.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appId: this.options.appId, clientSecret: this.options.clientSecret }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw qqErrors.AALIS_QQ_UNREACHABLE({ what: 'getAppAccessToken', reason: describe(error) });
    }
    const body = (await response.json().catch(() => undefined)) as
      | (QqErrorBody & { access_token?: string; expires_in?: string | number })
      | undefined;
    if (!response.ok || typeof body?.access_token !== 'string' || body.access_token === '') {
      const reason = `${response.status} ${body?.message ?? 'no access_token'}${body?.code ? ` (code ${body.code})` : ''}`;
      if (response.status >= 500) throw qqErrors.AALIS_QQ_UNREACHABLE({ what: 'getAppAccessToken', reason });
      throw qqErrors.AALIS_QQ_CREDENTIALS_REJECTED({ reason }, { statusCode: response.status });
    }
    return { value: body.access_token, lifetimeS: Number(body.expires_in ?? 7200) || 7200 };
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, attempt = 0): Promise<T> {
    const token = await this.accessToken();
    let response: PlatformAnswer;
    try {
      response = await platformRequest(`${this.apiBase}${path}`, {
        method,
        headers: {
          authorization: `QQBot ${token}`,
          'x-union-appid': this.options.appId,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      throw qqErrors.AALIS_QQ_UNREACHABLE({ what: `${method} ${path}`, reason: describe(error) });
    }
    const { text } = response;
    const ok = response.status >= 200 && response.status < 300;
    if (response.status === 429 && attempt === 0) {
      const seconds = Math.min(MAX_RETRY_AFTER_S, Math.max(0.05, Number(response.header('retry-after')) || 1));
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return this.call(method, path, body, attempt + 1);
    }
    if (response.status === 401 && attempt === 0) {
      this.dropToken();
      return this.call(method, path, body, attempt + 1);
    }
    if (!ok) {
      let reason = text.slice(0, 200) || `HTTP ${response.status}`;
      try {
        const parsed = JSON.parse(text) as QqErrorBody;
        if (parsed.message) reason = `${parsed.message}${parsed.code ? ` (code ${parsed.code})` : ''}`;
      } catch {
        // The raw text is the reason.
      }
      throw qqErrors.AALIS_QQ_API_FAILED(
        { method, path, status: response.status, reason },
        { statusCode: response.status, isRetryable: response.status >= 500 || response.status === 429 },
      );
    }
    try {
      return (text === '' ? undefined : JSON.parse(text)) as T;
    } catch {
      throw qqErrors.AALIS_QQ_API_FAILED({ method, path, status: response.status, reason: 'the answer is not JSON' });
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
