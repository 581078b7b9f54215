// A voice reply in the form a platform's voice message takes. The voice is decoded once by Debian's ffmpeg to 24 kHz
// mono PCM, which gives its length and its waveform (Discord draws one; DingTalk and Lark show the length), and which
// silk-wasm encodes to Tencent's SILK for QQ's official bots (they take no other voice). Ogg/Opus goes as it is.
import type { PlatformVoice, VoiceFormat } from '@aalis/api-media';
import type { Attachment } from '@aalis/schema-message';
import { fileTypeFromBuffer } from 'file-type';
import { runFfmpeg } from './ffmpeg.js';
import { mediaErrors } from './media-texts.js';
import { OGG_OPUS } from './synthesizer.js';

const RATE = 24_000;
/** Discord's clients sample at most every 100 ms and keep at most 256 points. */
const WAVEFORM_POINTS = 256;
const WAVEFORM_STEP_MS = 100;
/** Ten minutes of PCM: longer than any voice reply (OpenAI's 4,096 characters speak in about five). */
const MAX_PCM_BYTES = RATE * 2 * 600;

/** Bytes of an attachment's `data` (base64) or data: URL; undefined when it has none. */
export function attachmentBytes(attachment: Attachment): Buffer | undefined {
  if (attachment.data) return Buffer.from(attachment.data, 'base64');
  const inline = attachment.url ? /^data:[^;,]*;base64,(.*)$/s.exec(attachment.url) : null;
  return inline ? Buffer.from(inline[1]!, 'base64') : undefined;
}

const isOggOpus = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'OggS' &&
  Buffer.from(bytes.subarray(0, 200)).includes('OpusHead');

/** Loudness per slice of the PCM (peak of each, scaled so the loudest slice is 255). */
export function waveformOf(pcm: Uint8Array): Uint8Array {
  const samples = Math.floor(pcm.length / 2);
  const view = new DataView(pcm.buffer, pcm.byteOffset, samples * 2);
  const durationMs = (samples / RATE) * 1000;
  const points = Math.max(1, Math.min(WAVEFORM_POINTS, Math.ceil(durationMs / WAVEFORM_STEP_MS)));
  const peaks = new Array<number>(points).fill(0);
  for (let i = 0; i < samples; i++) {
    const point = Math.min(points - 1, Math.floor((i * points) / samples));
    const level = Math.abs(view.getInt16(i * 2, true));
    if (level > peaks[point]!) peaks[point] = level;
  }
  const loudest = Math.max(1, ...peaks);
  return Uint8Array.from(peaks, (peak) => Math.round((peak / loudest) * 255));
}

/** The voice in `format` with its length and waveform; rejects with a coded error. */
export async function voiceAs(
  attachment: Attachment,
  format: VoiceFormat,
  { signal, maxBytes }: { signal: AbortSignal; maxBytes: number },
): Promise<PlatformVoice> {
  const bytes = attachmentBytes(attachment);
  if (!bytes || bytes.length === 0) throw mediaErrors.AALIS_MEDIA_NO_AUDIO_DATA();
  if (bytes.length > maxBytes) throw mediaErrors.AALIS_MEDIA_SPEECH_TOO_LARGE({ limit: String(maxBytes) });
  const ogg = isOggOpus(bytes);
  const sniffed = ogg ? undefined : await fileTypeFromBuffer(bytes);
  if (!ogg && !(sniffed && (sniffed.mime.startsWith('audio/') || sniffed.mime.startsWith('video/'))))
    throw mediaErrors.AALIS_MEDIA_NOT_AUDIO({ type: sniffed?.mime ?? 'unknown' });
  const source = ogg ? 'opus' : sniffed!.ext;
  const pcm = await runFfmpeg(bytes, ['-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le'], {
    signal,
    maxBytes: MAX_PCM_BYTES,
    format: source,
    minBytes: 2,
  });
  const durationMs = Math.round((Math.floor(pcm.length / 2) / RATE) * 1000);
  const waveform = waveformOf(pcm);
  if (format === 'silk') {
    const { encode } = await import('silk-wasm');
    const silk = await encode(pcm, RATE);
    return { bytes: silk.data, mimeType: 'audio/silk', extension: 'silk', durationMs, waveform };
  }
  const opus = ogg
    ? bytes
    : await runFfmpeg(bytes, OGG_OPUS, {
        signal,
        maxBytes,
        format: source,
        minBytes: 28,
        tooLarge: () => mediaErrors.AALIS_MEDIA_SPEECH_TOO_LARGE({ limit: String(maxBytes) }),
      });
  return { bytes: opus, mimeType: 'audio/ogg', extension: 'ogg', durationMs, waveform };
}
