// Fetches an image, a file or a voice recording a platform points to (its URLs often expire, and model servers
// cannot reach them) into an inline attachment, within a size and time limit. A failure is a coded error the adapter turns into a visible
// note, so the message itself is never lost.
import type { Attachment, ModelImageType } from '@aalis/schema-message';
import { roomErrors } from './room-errors.js';

export interface FetchAttachmentOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Extra request headers (e.g. none for QQ; Telegram file URLs carry the token in the path). */
  headers?: Record<string, string>;
  /** The URL as it may be shown in errors and logs (when the real one holds a secret). */
  shownUrl?: string;
  fetch?: typeof globalThis.fetch;
}

/** Downloads `url` (http, https, or an inline `base64://` payload) as an image attachment. */
export async function fetchImageAttachment(url: string, options: FetchAttachmentOptions): Promise<Attachment> {
  const shown = options.shownUrl ?? url;
  const { body, declaredType } = await download(url, options);
  // The bytes decide, not the declared type: an expired link's HTML page or an SVG is no image a model takes, and
  // sent as one it would fail the whole turn.
  const mimeType = sniffImageType(body);
  if (!mimeType) {
    const inline = url.startsWith('base64://');
    throw notAnImage(inline ? '(inline)' : shown, inline ? 'an inline payload' : (declaredType ?? 'no content type'));
  }
  return { type: 'image', data: body.toString('base64'), mimeType };
}

/**
 * Downloads a file or a voice recording a platform points to as an inline attachment, within the same limits. Its
 * type is left to the reader (the file reader and the media plugin sniff the bytes); the declared one is kept.
 */
export async function fetchFileAttachment(
  url: string,
  options: FetchAttachmentOptions & { type: 'file' | 'audio'; name?: string; mimeType?: string },
): Promise<Attachment> {
  const { body, declaredType } = await download(url, options);
  const mimeType = options.mimeType ?? declaredType;
  const attachment: Attachment = { type: options.type, data: body.toString('base64') };
  if (mimeType && mimeType !== 'application/octet-stream') attachment.mimeType = mimeType;
  if (options.name) attachment.name = options.name;
  return attachment;
}

/** The bytes behind `url` within the size and time limit; coded errors for every way it can fail. */
async function download(
  url: string,
  options: FetchAttachmentOptions,
): Promise<{ body: Buffer; declaredType?: string }> {
  const shown = options.shownUrl ?? url;
  if (url.startsWith('base64://')) {
    const data = url.slice('base64://'.length);
    if ((data.length * 3) / 4 > options.maxBytes) {
      throw roomErrors.AALIS_ROOM_ATTACHMENT_TOO_LARGE({ url: '(inline)', maxBytes: options.maxBytes });
    }
    return { body: Buffer.from(data, 'base64') };
  }
  if (!/^https?:\/\//i.test(url))
    throw roomErrors.AALIS_ROOM_ATTACHMENT_UNREACHABLE({ url: shown, reason: 'not an http(s) URL' });
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal, headers: options.headers ?? {} });
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${options.timeoutMs} ms` : errorText(error);
    throw roomErrors.AALIS_ROOM_ATTACHMENT_UNREACHABLE({ url: shown, reason });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw roomErrors.AALIS_ROOM_ATTACHMENT_UNREACHABLE({ url: shown, reason: `HTTP ${response.status}` });
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw roomErrors.AALIS_ROOM_ATTACHMENT_TOO_LARGE({ url: shown, maxBytes: options.maxBytes });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > options.maxBytes) {
        await reader.cancel().catch(() => {});
        throw roomErrors.AALIS_ROOM_ATTACHMENT_TOO_LARGE({ url: shown, maxBytes: options.maxBytes });
      }
      chunks.push(Buffer.from(value));
    }
  } catch (error) {
    if (roomErrors.AALIS_ROOM_ATTACHMENT_TOO_LARGE.is(error)) throw error;
    throw roomErrors.AALIS_ROOM_ATTACHMENT_UNREACHABLE({ url: shown, reason: errorText(error) });
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim();
  return { body: Buffer.concat(chunks), ...(contentType ? { declaredType: contentType } : {}) };
}

function notAnImage(url: string, what: string): Error {
  return roomErrors.AALIS_ROOM_ATTACHMENT_UNREACHABLE({ url, reason: `not a PNG, JPEG, GIF or WebP image (${what})` });
}

/** The image type from its first bytes: PNG, JPEG, GIF or WebP (what model APIs take); undefined otherwise. */
function sniffImageType(head: Uint8Array): ModelImageType | undefined {
  if (head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  if (head[0] === 0x47 && head[1] === 0x49 && head[2] === 0x46) return 'image/gif';
  if (
    head[0] === 0x52 &&
    head[1] === 0x49 &&
    head[2] === 0x46 &&
    head[3] === 0x46 &&
    head[8] === 0x57 &&
    head[9] === 0x45 &&
    head[10] === 0x42 &&
    head[11] === 0x50
  )
    return 'image/webp';
  return undefined;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
