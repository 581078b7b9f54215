// Speech to text through an OpenAI-compatible POST <baseUrl>/audio/transcriptions: a multipart form (file, model,
// language, response_format=json) over @aalis/http-transport, so proxies, extra CAs, retries with backoff and the
// coded errors are those of every model provider. The API key and URL credentials never leave in a text.

import type { I18n, Logger } from '@aalis/core';
import {
  createAgents,
  type ErrorContext,
  type HttpAgents,
  loadTrustedCertificates,
  maskUrlCredentials,
  openWithRetries,
  parseBaseUrl,
  resolveProxy,
} from '@aalis/http-transport';
import type { MediaConfig } from './media-config.js';
import { mediaErrors } from './media-texts.js';

export type TranscriptionConfig = NonNullable<MediaConfig['transcription']>;

/** Largest answer read from the server: a transcript of 25 MiB of speech is far below this. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface AudioFile {
  bytes: Uint8Array;
  mimeType: string;
  name: string;
}

export class Transcriber {
  private readonly url: URL;
  private readonly headers: Record<string, string> = {};
  private readonly agents: HttpAgents;
  private readonly secrets: string[];
  private readonly context: ErrorContext;

  constructor(
    readonly config: TranscriptionConfig,
    private readonly options: { i18n: I18n; logger: Logger; plugin: string },
  ) {
    const parsed = parseBaseUrl(config.baseUrl);
    if (!parsed.ok)
      throw mediaErrors.AALIS_MEDIA_TRANSCRIPTION_URL_INVALID({
        baseUrl: maskUrlCredentials(config.baseUrl),
        problem: parsed.problem,
      });
    const root = parsed.endpoint.root;
    this.url = new URL(`${root}/audio/transcriptions`);
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

  /** The transcript (trimmed, cut to maxTranscriptChars); rejects with a coded error. */
  async transcribe(audio: AudioFile, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(audio.bytes)], { type: audio.mimeType }), audio.name);
    form.append('model', this.config.model);
    if (this.config.language) form.append('language', this.config.language);
    form.append('response_format', 'json');
    // The platform's own multipart encoder writes the body and its boundary; sent as bytes so retries resend it.
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const { exchange } = await openWithRetries({
      url: this.url,
      headers: { ...this.headers, 'content-type': encoded.headers.get('content-type')!, accept: 'application/json' },
      body,
      signal,
      context: this.context,
      timeouts: this.context.timeouts,
      retry: this.config.retry,
      agents: this.agents,
      available: async () => [],
      onRetry: (report) => this.options.logger.info('transcription retried', { ...report }),
    });
    let text: string;
    try {
      text = await exchange.text(MAX_RESPONSE_BYTES);
    } finally {
      exchange.close();
    }
    const transcript = parseTranscript(text, exchange.header('content-type'));
    if (transcript === undefined)
      throw mediaErrors.AALIS_MEDIA_TRANSCRIPTION_UNREADABLE({ answer: this.redact(text.slice(0, 200)) });
    return transcript.trim().slice(0, this.config.maxTranscriptChars);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** `{"text": "…"}` (json, verbose_json); a server that answers plain text anyway is taken at its word. */
function parseTranscript(body: string, contentType: string | undefined): string | undefined {
  if (contentType?.includes('json') || body.trimStart().startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { text?: unknown };
      return typeof parsed.text === 'string' ? parsed.text : undefined;
    } catch {
      return undefined;
    }
  }
  return contentType?.startsWith('text/') ? body : undefined;
}
