// A recording in a form transcription servers take. The type is sniffed from the content, never the name:
// - QQ's SILK (Tencent's "#!SILK_V3", often behind a 0x02 byte) is decoded by silk-wasm to 24 kHz mono WAV;
// - what OpenAI's endpoint and whisper.cpp's server read as it is (WAV, MP3, OGG/Opus, FLAC, WebM, M4A/MP4) goes
//   as it is, named with the extension of its real type (servers pick the decoder by file name);
// - anything else that looks like audio (AMR from QQ, AAC, WMA …) is converted by Debian's ffmpeg to 16 kHz mono WAV.
import { fileTypeFromBuffer } from 'file-type';
import { runFfmpeg } from './ffmpeg.js';
import { mediaErrors } from './media-texts.js';
import type { AudioFile } from './transcriber.js';

/**
 * Types sent unchanged, by the extension file-type gives them: the name to send (OpenAI takes flac, mp3, mp4, mpeg,
 * mpga, m4a, ogg, wav and webm by name; Ogg Opus, which file-type calls opus, goes as .ogg) and the type.
 */
const ACCEPTED: Record<string, { ext: string; mimeType: string }> = {
  wav: { ext: 'wav', mimeType: 'audio/wav' },
  mp3: { ext: 'mp3', mimeType: 'audio/mpeg' },
  ogg: { ext: 'ogg', mimeType: 'audio/ogg' },
  opus: { ext: 'ogg', mimeType: 'audio/ogg' },
  oga: { ext: 'ogg', mimeType: 'audio/ogg' },
  flac: { ext: 'flac', mimeType: 'audio/flac' },
  webm: { ext: 'webm', mimeType: 'audio/webm' },
  m4a: { ext: 'm4a', mimeType: 'audio/mp4' },
  mp4: { ext: 'mp4', mimeType: 'audio/mp4' },
};

const SILK_MAGIC = Buffer.from('#!SILK_V3');
const SILK_RATE = 24_000;

export function isSilk(bytes: Uint8Array): boolean {
  const at = (offset: number) =>
    Buffer.from(
      bytes.buffer,
      bytes.byteOffset + offset,
      Math.min(SILK_MAGIC.length, Math.max(0, bytes.length - offset)),
    ).equals(SILK_MAGIC);
  return at(0) || (bytes[0] === 0x02 && at(1));
}

/**
 * Whether a `file` attachment is a recording (an MP3 or a QQ voice file sent as a file): judged from the first bytes
 * of its content, so a 20 MiB document is not decoded to find out.
 */
export async function isRecording(data: string): Promise<boolean> {
  const head = Buffer.from(data.slice(0, 5_472), 'base64');
  if (isSilk(head)) return true;
  const sniffed = await fileTypeFromBuffer(head);
  return (
    sniffed !== undefined &&
    (sniffed.mime.startsWith('audio/') || sniffed.mime === 'video/ogg' || sniffed.ext === 'amr')
  );
}

/** What was received, as the file that is sent; `format` names the received type for logs and errors. */
export async function audioForTranscription(
  bytes: Uint8Array,
  name: string,
  options: { signal: AbortSignal; maxBytes: number },
): Promise<AudioFile & { format: string }> {
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'voice';
  if (isSilk(bytes)) {
    let pcm: Uint8Array;
    try {
      // Loaded only for a SILK recording: a start without QQ voice never compiles the decoder's wasm.
      const { decode: decodeSilk } = await import('silk-wasm');
      pcm = (await decodeSilk(bytes, SILK_RATE)).data;
    } catch (error) {
      throw mediaErrors.AALIS_MEDIA_AUDIO_CORRUPT({ format: 'SILK', reason: String(error) });
    }
    if (pcm.length === 0) throw mediaErrors.AALIS_MEDIA_AUDIO_CORRUPT({ format: 'SILK', reason: 'no audio frames' });
    return { bytes: wavFromPcm(pcm, SILK_RATE), mimeType: 'audio/wav', name: `${base}.wav`, format: 'SILK' };
  }
  const sniffed = await fileTypeFromBuffer(bytes);
  const accepted = sniffed ? ACCEPTED[sniffed.ext] : undefined;
  if (sniffed && accepted)
    return { bytes, mimeType: accepted.mimeType, name: `${base}.${accepted.ext}`, format: sniffed.ext };
  const looksLikeAudio = sniffed ? sniffed.mime.startsWith('audio/') || sniffed.mime.startsWith('video/') : false;
  if (!looksLikeAudio) throw mediaErrors.AALIS_MEDIA_NOT_AUDIO({ type: sniffed?.mime ?? 'unknown' });
  const format = sniffed!.ext;
  const wav = await runFfmpeg(bytes, ['-ac', '1', '-ar', '16000', '-f', 'wav'], { ...options, format, minBytes: 45 });
  return { bytes: wav, mimeType: 'audio/wav', name: `${base}.wav`, format };
}

/** A RIFF/WAVE header in front of 16-bit little-endian mono PCM. */
export function wavFromPcm(pcm: Uint8Array, sampleRate: number): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
