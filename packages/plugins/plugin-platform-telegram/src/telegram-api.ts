// The Bot API over HTTP: `POST <apiRoot>/bot<token>/<method>` with a JSON body, `{ ok, result }` answers. A 429
// is waited out (its `retry_after`) and retried; other failures are coded errors that never contain the token.
import { platformRequest } from '@aalis/platform-room';
import { telegramErrors } from './telegram-errors.js';

export interface TelegramApiOptions {
  apiRoot: string;
  token: string;
  /** Per-request limit (long polls add their own timeout to it). */
  timeoutMs: number;
  /** How many 429s in a row are waited out before giving up. */
  maxRateLimitRetries?: number;
  /** Called when a 429 is waited out (for the log). */
  onRateLimited?(method: string, retryAfterSeconds: number): void;
}

export class TelegramApi {
  constructor(private readonly options: TelegramApiOptions) {}

  /** The download URL of a file (holds the token: never log it; use shownFileUrl). */
  fileUrl(filePath: string): string {
    return `${this.root}/file/bot${this.options.token}/${filePath}`;
  }

  shownFileUrl(filePath: string): string {
    return `${this.root}/file/bot<token>/${filePath}`;
  }

  private get root(): string {
    return this.options.apiRoot.replace(/\/+$/, '');
  }

  async call<T>(
    method: string,
    params: Record<string, unknown> = {},
    { signal, extraTimeoutMs = 0 }: { signal?: AbortSignal; extraTimeoutMs?: number } = {},
  ): Promise<T> {
    const maxRetries = this.options.maxRateLimitRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      const timeoutMs = this.options.timeoutMs + extraTimeoutMs;
      // A file to upload (a voice) goes as multipart/form-data through fetch, the other fields JSON-serialised as
      // Telegram reads them; everything else is a JSON body through the adapters' shared exchange (platformRequest).
      const upload = Object.values(params).some((value) => value instanceof Blob);
      let status: number;
      let text: string;
      try {
        if (upload) {
          const timeout = AbortSignal.timeout(timeoutMs);
          const response = await fetch(`${this.root}/bot${this.options.token}/${method}`, {
            method: 'POST',
            body: formOf(params),
            signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          });
          status = response.status;
          text = await response.text();
        } else {
          const answer = await platformRequest(`${this.root}/bot${this.options.token}/${method}`, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(params),
            timeoutMs,
            ...(signal ? { signal } : {}),
          });
          status = answer.status;
          text = answer.text;
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const reason = timedOut(error) ? `no answer within ${timeoutMs} ms` : describe(error);
        throw telegramErrors.AALIS_TELEGRAM_UNREACHABLE({ method, apiRoot: this.root, reason: this.scrub(reason) });
      }
      let body: {
        ok?: boolean;
        result?: T;
        error_code?: number;
        description?: string;
        parameters?: { retry_after?: number };
      };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = { ok: false, description: `a ${status} answer that is not JSON` };
      }
      if (status >= 200 && status < 300 && body.ok === true) return body.result as T;
      const code = body.error_code ?? status;
      if (code === 429 && attempt < maxRetries) {
        const retryAfter = Math.max(1, Number(body.parameters?.retry_after ?? 1));
        this.options.onRateLimited?.(method, retryAfter);
        await sleep(retryAfter * 1000, signal);
        continue;
      }
      if (code === 401) throw telegramErrors.AALIS_TELEGRAM_TOKEN_REJECTED();
      throw telegramErrors.AALIS_TELEGRAM_API_FAILED(
        { method, status: code, description: this.scrub(body.description ?? '') },
        { statusCode: code },
      );
    }
  }

  /** Removes the token from text that came back from a server or the network stack. */
  private scrub(text: string): string {
    return this.options.token ? text.split(this.options.token).join('<token>') : text;
  }
}

function formOf(params: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (value instanceof File) form.append(name, value, value.name);
    else if (value instanceof Blob) form.append(name, value, name);
    else form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** A timeout of fetch (its AbortSignal.timeout) or of platformRequest: both are named TimeoutError. */
function timedOut(error: unknown): boolean {
  return (error as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
