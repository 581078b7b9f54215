// Debian's ffmpeg as a filter: bytes in on stdin, the converted file out on stdout, its output bounded and the
// process ended by the signal. Used where a maintained decoder in JavaScript does not exist (AMR, AAC …) and to
// make the Ogg/Opus voice that platforms send as a voice message.
import { spawn } from 'node:child_process';
import { mediaErrors } from './media-texts.js';

export interface FfmpegOptions {
  signal: AbortSignal;
  /** Largest output; past it the conversion fails with AALIS_MEDIA_AUDIO_TOO_LARGE. */
  maxBytes: number;
  /** The input's format, for errors ("AMR", "wav" …). */
  format: string;
  /** An output shorter than this is a failure (a header with no audio). */
  minBytes?: number;
  /** The error for an output past maxBytes (default: the transcription limit's). */
  tooLarge?: (size: number) => Error;
}

/** Runs `ffmpeg -i pipe:0 <outputArgs> pipe:1`; rejects with a coded error. */
export function runFfmpeg(
  bytes: Uint8Array,
  outputArgs: readonly string[],
  {
    signal,
    maxBytes,
    format,
    minBytes = 1,
    tooLarge = (size) => mediaErrors.AALIS_MEDIA_AUDIO_TOO_LARGE({ size: String(size), limit: String(maxBytes) }),
  }: FfmpegOptions,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', 'pipe:0', ...outputArgs, 'pipe:1'],
      { stdio: ['pipe', 'pipe', 'pipe'], signal },
    );
    const out: Buffer[] = [];
    let size = 0;
    let errors = '';
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') fail(mediaErrors.AALIS_MEDIA_FFMPEG_MISSING({ format }));
      else if (signal.aborted) fail(mediaErrors.AALIS_MEDIA_AUDIO_CORRUPT({ format, reason: 'conversion timed out' }));
      else fail(mediaErrors.AALIS_MEDIA_AUDIO_CORRUPT({ format, reason: error.message }));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(tooLarge(size));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 2_000) errors += chunk.toString('utf8');
    });
    child.on('close', (code) => {
      if (failed) return;
      if (code === 0 && size >= minBytes) resolve(Buffer.concat(out));
      else
        fail(
          mediaErrors.AALIS_MEDIA_AUDIO_CORRUPT({
            format,
            reason: errors.trim().split('\n').at(-1) || `ffmpeg exit ${code}`,
          }),
        );
    });
    // A broken pipe (ffmpeg gave up on the input) is reported by the exit code above.
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
}
