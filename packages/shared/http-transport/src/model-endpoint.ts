// One OpenAI-compatible POST endpoint of a model server that is not a chat (<baseUrl>/embeddings,
// /audio/transcriptions, /audio/speech): the key as a Bearer token (else the URL's credentials as Basic), one overall
// timeout per request, and the proxy, CAs, retries with backoff and coded errors of every model provider. The key and
// URL credentials never leave in a text: every text from the server is redacted.
import type { I18n, Logger } from '@aalis/core';
import { maskUrlCredentials, parseBaseUrl } from './base-url.js';
import type { HttpExchange } from './http-exchange.js';
import { openWithRetries } from './open-with-retries.js';
import { ProviderConnection } from './provider-connection.js';
import type { ErrorContext } from './provider-errors.js';
import type { RetrySettings } from './retry-delay.js';

/** The keys such an endpoint is configured with (`bearerKeySchema`, `proxySchema`, `caFileSchema`, `retrySchema`). */
export interface ModelEndpointConfig {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** How long one request may stay silent. */
  timeoutMs: number;
  proxy?: string | undefined;
  caFile?: string | undefined;
  retry: RetrySettings;
}

export interface ModelEndpointOptions {
  i18n: I18n;
  logger: Logger;
  /** Names the endpoint in logs and errors (`@aalis/plugin-media.speech`). */
  plugin: string;
  /** The path under the base URL (`/audio/speech`). */
  path: string;
  /** The coded error for a base URL that is not one. */
  invalidUrl(params: { baseUrl: string; problem: string }): Error;
  /** The log line of a retry (info, with the retry's report). */
  retryLog: string;
}

export class ModelEndpoint {
  readonly url: URL;
  private readonly headers: Record<string, string> = {};
  private readonly connection: ProviderConnection;
  private readonly context: ErrorContext;

  constructor(
    private readonly config: ModelEndpointConfig,
    private readonly options: ModelEndpointOptions,
  ) {
    const parsed = parseBaseUrl(config.baseUrl);
    if (!parsed.ok) throw options.invalidUrl({ baseUrl: maskUrlCredentials(config.baseUrl), problem: parsed.problem });
    const root = parsed.endpoint.root;
    this.url = new URL(`${root}${options.path}`);
    if (config.apiKey) this.headers.authorization = `Bearer ${config.apiKey}`;
    else if (parsed.endpoint.basicAuthorization) this.headers.authorization = parsed.endpoint.basicAuthorization;
    this.connection = new ProviderConnection({
      plugin: options.plugin,
      baseUrl: root,
      config,
      secrets: [config.apiKey, ...parsed.endpoint.secrets],
    });
    this.context = this.connection.errorContext({
      model: config.model,
      // Conversion and upload are inside the overall timeout; the transport's own stall limits stay below it.
      timeouts: { connectMs: 15_000, headersMs: config.timeoutMs, idleMs: config.timeoutMs },
      t: (text) => options.i18n.t(text),
    });
  }

  redact(text: string): string {
    return this.connection.redact(text);
  }

  /** POSTs the body (retrying as configured); a non-2xx answer rejects with the transport's coded error. */
  async post(
    body: string | Uint8Array,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<HttpExchange> {
    const { exchange } = await openWithRetries({
      url: this.url,
      headers: { ...this.headers, ...headers },
      body,
      signal,
      context: this.context,
      timeouts: this.context.timeouts,
      retry: this.config.retry,
      agents: this.connection.agents,
      available: async () => [],
      onRetry: (report) => this.options.logger.info(this.options.retryLog, { ...report }),
    });
    return exchange;
  }

  close(): void {
    this.connection.destroy();
  }
}
