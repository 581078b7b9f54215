// The Satori HTTP API: POST <endpoint>/<method> with a JSON body, the token and the login it acts as (the
// Satori-Platform and Satori-User-ID headers; the older X-Platform and X-Self-ID too, which earlier servers read).
// A 429 is waited out once (Retry-After); other failures are coded errors without the token.
import { platformRequest } from '@aalis/platform-room';
import { satoriErrors } from './satori-texts.js';

export interface SatoriLogin {
  platform: string;
  userId: string;
}

export class SatoriApi {
  constructor(private readonly options: { endpoint: string; token: string; timeoutMs: number }) {}

  async call<T>(method: string, body: Record<string, unknown>, login: SatoriLogin, retried = false): Promise<T> {
    const response = await platformRequest(`${this.options.endpoint.replace(/\/+$/, '')}/${method}`, {
      headers: {
        'content-type': 'application/json',
        ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
        'satori-platform': login.platform,
        'satori-user-id': login.userId,
        'x-platform': login.platform,
        'x-self-id': login.userId,
      },
      body: JSON.stringify(body),
      timeoutMs: this.options.timeoutMs,
    });
    const { text } = response;
    if (response.status === 429 && !retried) {
      const seconds = Math.min(60, Number(response.header('retry-after') ?? 1) || 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return this.call(method, body, login, true);
    }
    if (response.status === 401 || response.status === 403) {
      throw satoriErrors.AALIS_SATORI_TOKEN_REJECTED(
        { reason: `HTTP ${response.status}` },
        { statusCode: response.status },
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw satoriErrors.AALIS_SATORI_API_FAILED(
        { method, status: response.status, reason: text.slice(0, 200) || `HTTP ${response.status}` },
        { statusCode: response.status, isRetryable: response.status >= 500 },
      );
    }
    try {
      return (text === '' ? undefined : JSON.parse(text)) as T;
    } catch {
      throw satoriErrors.AALIS_SATORI_API_FAILED({ method, status: response.status, reason: 'the answer is not JSON' });
    }
  }
}
