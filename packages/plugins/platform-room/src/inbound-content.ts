// Turns what a room adapter read out of a platform message into the IncomingMessage content and attachments:
// images, files and voice recordings fetched within limits (a failed one becomes a visible note, never a lost message) and overlong text cut
// with a note.
import type { Logger, TextRef } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';
import { type FetchAttachmentOptions, fetchFileAttachment, fetchImageAttachment } from './fetch-attachment.js';
import { roomErrors } from './room-errors.js';
import './room-texts.js';

export interface InboundContentOptions {
  text: string;
  /** Image sources (URLs or inline payloads) in order; `unavailable` when the platform could not even say where. */
  images: readonly ({ url: string; shownUrl?: string } | { unavailable: string })[];
  /**
   * Files and voice recordings in order (read later by the file reader and the media plugin); `unavailable` when
   * the platform gave no way to fetch one.
   */
  files?: readonly InboundFile[];
  maxLength: number;
  image: Omit<FetchAttachmentOptions, 'shownUrl'>;
  /** Limits for files and voice recordings (default: the image limits). */
  file?: Omit<FetchAttachmentOptions, 'shownUrl'>;
  t: (text: TextRef) => string;
  logger: Logger;
}

export type InboundFile = { type: 'file' | 'audio'; name?: string; mimeType?: string } & (
  | { url: string; shownUrl?: string }
  | { unavailable: string }
);

export async function inboundContent(
  options: InboundContentOptions,
): Promise<{ content: string; attachments: Attachment[] }> {
  const notes: string[] = [];
  const attachments: Attachment[] = [];
  for (const image of options.images) {
    if ('unavailable' in image) {
      options.logger.warn(`an inbound image is unavailable: ${image.unavailable}`);
      notes.push(options.t({ key: 'room.image.unavailable' }));
      continue;
    }
    try {
      attachments.push(
        await fetchImageAttachment(image.url, {
          ...options.image,
          ...(image.shownUrl ? { shownUrl: image.shownUrl } : {}),
        }),
      );
    } catch (error) {
      options.logger.warn(error instanceof Error ? error.message : String(error), {
        code: (error as { code?: string }).code,
      });
      notes.push(options.t({ key: 'room.image.unavailable' }));
    }
  }
  for (const file of options.files ?? []) {
    const name = file.name ?? '';
    const unavailable = options.t({ key: `room.${file.type}.unavailable`, params: { name } });
    if ('unavailable' in file) {
      options.logger.warn(`an inbound ${file.type} is unavailable: ${file.unavailable}`);
      notes.push(unavailable);
      continue;
    }
    try {
      attachments.push(
        await fetchFileAttachment(file.url, {
          ...(options.file ?? options.image),
          ...(file.shownUrl ? { shownUrl: file.shownUrl } : {}),
          type: file.type,
          ...(file.name ? { name: file.name } : {}),
          ...(file.mimeType ? { mimeType: file.mimeType } : {}),
        }),
      );
    } catch (error) {
      options.logger.warn(error instanceof Error ? error.message : String(error), {
        code: (error as { code?: string }).code,
      });
      notes.push(unavailable);
    }
  }
  let content = options.text;
  if (content.length > options.maxLength) {
    const error = roomErrors.AALIS_ROOM_MESSAGE_TOO_LONG({ length: content.length, limit: options.maxLength });
    options.logger.warn(error.message, { code: error.code });
    content = `${content.slice(0, options.maxLength)}\n${options.t({ key: 'room.inbound.truncated', params: { limit: options.maxLength } })}`;
  }
  if (notes.length > 0) content = [content, ...notes].filter((part) => part !== '').join(' ');
  return { content, attachments };
}
