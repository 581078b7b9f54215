// Text to speech through an OpenAI-compatible POST <baseUrl>/audio/speech ({ model, input, voice, response_format,
// speed }), answered with the audio bytes. The voice always comes back as Ogg/Opus — what QQ (through OneBot),
// Telegram's sendVoice and every browser play: the answer's type is sniffed from its bytes, and anything else
// (a server that answers WAV or MP3 whatever is asked) is converted by Debian's ffmpeg.
import { fileTypeFromBuffer } from 'file-type';
import { AudioClient, type AudioClientOptions } from './audio-client.js';
import { runFfmpeg } from './ffmpeg.js';
import type { MediaConfig } from './media-config.js';
import { mediaErrors } from './media-texts.js';
import { speakableText } from './speakable-text.js';

export type SpeechConfig = NonNullable<MediaConfig['speech']>;

export interface SpokenVoice {
  /** Ogg/Opus bytes. */
  bytes: Uint8Array;
  mimeType: 'audio/ogg';
  /** The characters spoken (after Markdown was taken off and the text cut to maxInputChars). */
  spokenChars: number;
}

/** ffmpeg's output arguments for a mono Ogg/Opus voice. */
export const OGG_OPUS = ['-vn', '-ac', '1', '-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'];

export class Synthesizer extends AudioClient<SpeechConfig> {
  constructor(config: SpeechConfig, options: AudioClientOptions) {
    super(config, options, {
      path: '/audio/speech',
      invalidUrl: (params) => mediaErrors.AALIS_MEDIA_SPEECH_URL_INVALID(params),
    });
  }

  /**
   * The reply spoken; undefined when it has nothing to speak (only code, say). Rejects with a coded error (the
   * server's refusal, a timeout, an answer that is not audio or is too large).
   */
  async speak(markdown: string, signal: AbortSignal): Promise<SpokenVoice | undefined> {
    const input = cutAtSentence(speakableText(markdown), this.config.maxInputChars);
    if (input === '') return undefined;
    const body = JSON.stringify({
      model: this.config.model,
      input,
      voice: this.config.voice,
      response_format: this.config.responseFormat,
      ...(this.config.speed !== undefined ? { speed: this.config.speed } : {}),
    });
    const exchange = await this.endpoint.post(
      Buffer.from(body),
      { 'content-type': 'application/json', accept: 'audio/*' },
      signal,
    );
    const max = this.config.maxAudioBytes;
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of exchange.chunks()) {
        size += chunk.length;
        if (size > max) throw mediaErrors.AALIS_MEDIA_SPEECH_TOO_LARGE({ limit: String(max) });
        parts.push(chunk);
      }
    } finally {
      exchange.close();
    }
    const bytes = Buffer.concat(parts);
    const sniffed = await fileTypeFromBuffer(bytes);
    if (sniffed?.ext === 'opus' || (sniffed?.ext === 'ogg' && isOpus(bytes)))
      return { bytes, mimeType: 'audio/ogg', spokenChars: input.length };
    if (!sniffed || !(sniffed.mime.startsWith('audio/') || sniffed.mime.startsWith('video/')))
      throw mediaErrors.AALIS_MEDIA_SPEECH_NOT_AUDIO({
        type: sniffed?.mime ?? exchange.header('content-type') ?? 'unknown',
      });
    const converted = await runFfmpeg(bytes, OGG_OPUS, {
      signal,
      maxBytes: max,
      format: sniffed.ext,
      minBytes: 28,
      tooLarge: () => mediaErrors.AALIS_MEDIA_SPEECH_TOO_LARGE({ limit: String(max) }),
    });
    return { bytes: converted, mimeType: 'audio/ogg', spokenChars: input.length };
  }
}

/** An Ogg stream whose first packet is an Opus header ("OpusHead" in the first page). */
function isOpus(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 200)).includes('OpusHead');
}

/** At most `max` characters, ending at the last sentence end inside them when there is one in the second half. */
export function cutAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(...['。', '！', '？', '. ', '! ', '? ', '\n'].map((mark) => head.lastIndexOf(mark)));
  return (end >= max / 2 ? head.slice(0, end + 1) : head).trim();
}
