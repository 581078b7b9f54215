// Speech to text through an OpenAI-compatible POST <baseUrl>/audio/transcriptions: a multipart form (file, model,
// language, response_format=json) through the shared model endpoint client (@aalis/http-transport).

import { AudioClient, type AudioClientOptions } from './audio-client.js';
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

export class Transcriber extends AudioClient<TranscriptionConfig> {
  constructor(config: TranscriptionConfig, options: AudioClientOptions) {
    super(config, options, {
      path: '/audio/transcriptions',
      invalidUrl: (params) => mediaErrors.AALIS_MEDIA_TRANSCRIPTION_URL_INVALID(params),
    });
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
    const exchange = await this.endpoint.post(
      body,
      { 'content-type': encoded.headers.get('content-type')!, accept: 'application/json' },
      signal,
    );
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
