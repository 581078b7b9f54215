// One OpenAI-compatible audio endpoint (POST <baseUrl>/audio/transcriptions or /audio/speech) over
// @aalis/http-transport, so proxies, extra CAs, retries with backoff and the coded errors are those of every model
// provider. The API key and URL credentials never leave in a text: every text from the server is redacted.
import type { I18n, Logger } from '@aalis/core';
import {
  createAgents,
  type ErrorContext,
  type HttpAgents,
  type HttpExchange,
  loadTrustedCertificates,
  maskUrlCredentials,
  openWithRetries,
  parseBaseUrl,
  resolveProxy,
} from '@aalis/http-transport';
import type { transcriptionConfigSchema } from './media-config.js';

/** What both audio endpoints are configured with. */
export type AudioEndpointConfig = Pick<
  NonNullable<import('@aalis/core').Infer<typeof transcriptionConfigSchema>>,
  'baseUrl' | 'apiKey' | 'model' | 'timeoutMs' | 'proxy' | 'caFile' | 'retry'
>;

export interface AudioEndpointOptions {
  i18n: I18n;
  logger: Logger;
  /** Names the endpoint in logs and errors (`@aalis/plugin-media.speech`). */
  plugin: string;
  /** The path under the base URL (`/audio/speech`). */
  path: string;
  /** The coded error for a base URL that is not one. */
  invalidUrl(params: { baseUrl: string; problem: string }): Error;
}

export class AudioEndpoint {
  private readonly url: URL;
  private readonly headers: Record<string, string> = {};
  private readonly agents: HttpAgents;
  private readonly secrets: string[];
  private readonly context: ErrorContext;

  constructor(
    private readonly config: AudioEndpointConfig,
    private readonly options: AudioEndpointOptions,
  ) {
    const parsed = parseBaseUrl(config.baseUrl);
    if (!parsed.ok) throw options.invalidUrl({ baseUrl: maskUrlCredentials(config.baseUrl), problem: parsed.problem });
    const root = parsed.endpoint.root;
    this.url = new URL(`${root}${options.path}`);
    if (config.apiKey) this.headers.authorization = `Bearer ${config.apiKey}`;
    else if (parsed.endpoint.basicAuthorization) this.headers.authorization = parsed.endpoint.basicAuthorization;
    const proxy = resolveProxy({ baseUrl: root, configured: config.proxy, env: process.env, plugin: options.plugin });
    this.agents = createAgents({
      proxy,
      ca: loadTrustedCertificates({ caFile: config.caFile, plugin: options.plugin }),
    });
    this.secrets = [
      config.apiKey,
      proxy?.password,
      proxy?.authorization?.slice('Basic '.length),
      ...parsed.endpoint.secrets,
    ].filter((secret): secret is string => Boolean(secret));
    this.context = {
      provider: options.plugin,
      baseUrl: root,
      model: config.model,
      redact: (text) => this.redact(text),
      // Conversion and upload are inside the overall timeout; the transport's own stall limits stay below it.
      timeouts: { connectMs: 15_000, headersMs: config.timeoutMs, idleMs: config.timeoutMs },
      t: (text) => options.i18n.t(text),
    };
  }

  redact(text: string): string {
    return this.secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
  }

  /** POSTs the body (retrying as configured); a non-2xx answer rejects with the transport's coded error. */
  async post(body: Uint8Array, headers: Record<string, string>, signal: AbortSignal): Promise<HttpExchange> {
    const { exchange } = await openWithRetries({
      url: this.url,
      headers: { ...this.headers, ...headers },
      body,
      signal,
      context: this.context,
      timeouts: this.context.timeouts,
      retry: this.config.retry,
      agents: this.agents,
      available: async () => [],
      onRetry: (report) => this.options.logger.info(`${this.options.plugin} retried`, { ...report }),
    });
    return exchange;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
