// Reads one file attachment: its bytes checked against the size limit, its type sniffed, its text extracted and
// stored for read_uploaded_file, and the attachment handed on with a description for the model — the full text
// of a short document, an outline of a long one, or the sentence saying why it could not be read. An image or a
// voice recording sent as a file becomes an image or audio attachment for the media service.
import type { I18n, TextRef } from '@aalis/core';
import { AalisError, textRef, translatorOf } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';
import { cutIntoParts, partStart } from './document-parts.js';
import { type Extraction, extractDocument } from './extract-document.js';
import type { FileReaderConfig } from './file-reader-config.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { sniffFile } from './sniff-file.js';
import { UploadStore } from './upload-store.js';

/** Describes an image found inside a document (the media service); undefined when it cannot. */
export type DescribeImage = (image: Attachment) => Promise<string | undefined>;

export interface ReadResult {
  attachment: Attachment;
  /** Why the file could not be read, for the person (undefined when it was read). */
  failure?: TextRef;
}

/** How many outline entries the model is shown for a long document. */
const OUTLINE_ENTRIES = 40;

export class FileReader {
  constructor(
    private readonly options: {
      config: FileReaderConfig;
      store: UploadStore;
      i18n: I18n;
      describeImage?: DescribeImage;
    },
  ) {}

  async read(attachment: Attachment, sessionId: string): Promise<ReadResult> {
    const name = attachment.name ?? 'file';
    const { config, store } = this.options;
    let bytes: Uint8Array;
    try {
      bytes = this.bytesOf(attachment);
    } catch (error) {
      return this.failed(attachment, name, error);
    }
    const sniffed = await sniffFile(bytes, attachment.name);
    if (sniffed.kind === 'image' || sniffed.kind === 'audio') {
      return {
        attachment: {
          type: sniffed.kind,
          mimeType: sniffed.mimeType,
          data: Buffer.from(bytes).toString('base64'),
          name,
        },
      };
    }
    const id = UploadStore.idOf(sessionId, bytes);
    let document: Extraction;
    try {
      document = await extractDocument(bytes, sniffed, {
        maxPages: config.maxPages,
        maxExpandedBytes: config.maxExpandedBytes,
        maxArchiveEntries: config.maxArchiveEntries,
        maxImages: config.maxImagesPerDocument,
      });
      if (document.units.every((unit) => unit.trim() === '') && document.images.length === 0)
        throw fileReaderErrors.AALIS_FILE_EMPTY();
    } catch (error) {
      return this.failed(attachment, name, error);
    }
    const separator = document.unit === 'line' ? '\n' : '\n\n';
    const parts = cutIntoParts(document.units, separator, config.partChars);
    const now = Date.now();
    try {
      await store.save(
        {
          id,
          sessionId,
          name,
          kind: document.kind,
          unit: document.unit,
          totalUnits: document.totalUnits,
          parts: parts.length,
          storedAt: now,
          expiresAt: now + config.retentionHours * 3_600_000,
        },
        bytes,
        parts.map((part) => part.text),
      );
    } catch (error) {
      return this.failed(
        attachment,
        name,
        fileReaderErrors.AALIS_FILE_STORE_FAILED({ reason: (error as Error).message }),
      );
    }
    const description = [this.body(id, document, parts), ...(await this.imageNotes(document))].join('\n');
    return {
      // The bytes stay in <dataDir>/uploads (the id in the description finds them), not in the history.
      attachment: { type: 'file', name, mimeType: mimeOf(document.kind), description },
    };
  }

  private bytesOf(attachment: Attachment): Uint8Array {
    const inline = attachment.data ?? /^data:[^,]*;base64,(.*)$/s.exec(attachment.url ?? '')?.[1];
    if (inline === undefined) throw fileReaderErrors.AALIS_FILE_NO_DATA();
    // The size is known from the base64 length before anything is decoded.
    const size = Math.floor((inline.length * 3) / 4);
    if (size > this.options.config.maxFileBytes)
      throw fileReaderErrors.AALIS_FILE_TOO_LARGE({ size, limit: this.options.config.maxFileBytes });
    return Buffer.from(inline, 'base64');
  }

  private body(id: string, document: Extraction, parts: ReturnType<typeof cutIntoParts>): string {
    const t = translatorOf(this.options.i18n);
    const unit = t(`fileReader.unit.${document.unit}`);
    const kind =
      t(`fileReader.kind.${document.kind}`) +
      (document.encoding ? t('fileReader.encoding', { encoding: document.encoding }) : '');
    const text = parts.map((part) => part.text).join(document.unit === 'line' ? '\n' : '\n\n');
    const notes: string[] = [];
    if (document.totalUnits > document.units.length) {
      notes.push(
        t('fileReader.truncated', {
          read: document.units.length,
          total: document.totalUnits,
          unit,
          limit: this.options.config.maxPages,
        }),
      );
    }
    if (text.length <= this.options.config.inlineChars) {
      return [t('fileReader.short', { id, kind, units: document.totalUnits, unit, text }), ...notes].join('\n');
    }
    const outline = parts.slice(0, OUTLINE_ENTRIES).map((part, index) =>
      t('fileReader.outline.entry', {
        part: index + 1,
        range:
          part.fromUnit === part.toUnit
            ? t('fileReader.range.unit', { from: part.fromUnit, unit })
            : t('fileReader.range.units', { from: part.fromUnit, to: part.toUnit, unit }),
        start: partStart(part.text),
      }),
    );
    if (parts.length > OUTLINE_ENTRIES)
      outline.push(t('fileReader.outline.more', { count: parts.length - OUTLINE_ENTRIES }));
    return [
      t('fileReader.long', {
        id,
        kind,
        units: document.totalUnits,
        unit,
        chars: text.length,
        parts: parts.length,
        outline: outline.join('\n'),
      }),
      ...notes,
    ].join('\n');
  }

  private async imageNotes(document: Extraction): Promise<string[]> {
    const describe = this.options.describeImage;
    const limit = this.options.config.maxImagesPerDocument;
    if (!describe || document.images.length === 0) return [];
    const t = translatorOf(this.options.i18n);
    const lines = [t('fileReader.images', { limit })];
    let index = 0;
    for (const image of document.images) {
      const mimeType = (await sniffFile(image.bytes, image.name)) as { kind: string; mimeType?: string };
      if (mimeType.kind !== 'image' || !mimeType.mimeType) continue;
      const description = await describe({
        type: 'image',
        mimeType: mimeType.mimeType,
        data: Buffer.from(image.bytes).toString('base64'),
        name: image.name,
      }).catch(() => undefined);
      if (description) lines.push(t('fileReader.image.entry', { index: ++index, name: image.name, description }));
    }
    if (document.imagesFound > document.images.length)
      lines.push(t('fileReader.images.more', { count: document.imagesFound - document.images.length, limit }));
    return index > 0 || document.imagesFound > document.images.length ? lines : [];
  }

  private failed(attachment: Attachment, name: string, error: unknown): ReadResult {
    const reason: TextRef = AalisError.isInstance(error)
      ? error.text
      : { key: 'fileReader.failed.model', params: { reason: String(error) } };
    const reasonText = this.options.i18n.t(reason);
    // Nothing accepted is dropped: the attachment keeps its bytes (the WebUI still offers it for download) —
    // except one over the size limit, which would weigh on every later read of the history.
    const { data, ...rest } = attachment;
    const keep = fileReaderErrors.AALIS_FILE_TOO_LARGE.is(error) ? {} : data === undefined ? {} : { data };
    return {
      attachment: {
        ...rest,
        ...keep,
        type: 'file',
        name,
        description: this.options.i18n.t(textRef('fileReader.failed.model', { reason: reasonText })),
      },
      failure: textRef('fileReader.failed', { name, reason: reasonText }),
    };
  }
}

function mimeOf(kind: string): string {
  switch (kind) {
    case 'pdf':
      return 'application/pdf';
    case 'docx':
      return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    case 'xlsx':
      return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    case 'pptx':
      return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    case 'markdown':
      return 'text/markdown';
    case 'csv':
      return 'text/csv';
    default:
      return 'text/plain';
  }
}
