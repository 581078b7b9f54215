// The zip side shared by the Office extractors: the bound check before any parser inflates the archive, and the
// images it holds (word/media, ppt/media, xl/media) for the media service.
import JSZip from 'jszip';
import type { EmbeddedImage, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { checkZipBounds } from './zip-bounds.js';

const MEDIA = /^(word|ppt|xl)\/media\/[^/]+\.(png|jpe?g|gif|webp)$/i;

/** Throws the coded error for an archive over the bounds or not a zip; gives the entry names otherwise. */
export function boundedArchive(bytes: Uint8Array, kind: string, limits: ExtractLimits): string[] {
  const check = checkZipBounds(bytes, {
    maxExpandedBytes: limits.maxExpandedBytes,
    maxEntries: limits.maxArchiveEntries,
  });
  if (check.ok) return check.entries;
  if (check.reason === 'too-large') {
    throw fileReaderErrors.AALIS_FILE_ARCHIVE_TOO_LARGE({
      limit: limits.maxExpandedBytes,
      entries: limits.maxArchiveEntries,
    });
  }
  throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind, reason: check.detail });
}

export async function openArchive(bytes: Uint8Array, kind: string): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(bytes);
  } catch (error) {
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind, reason: (error as Error).message });
  }
}

/** The archive's images in name order, at most `limits.maxImages`; `found` is how many there are in all. */
export async function archiveImages(
  zip: JSZip,
  entries: readonly string[],
  limits: Pick<ExtractLimits, 'maxImages'>,
): Promise<{ images: EmbeddedImage[]; found: number }> {
  const names = entries.filter((name) => MEDIA.test(name)).sort(naturalOrder);
  const images: EmbeddedImage[] = [];
  for (const name of names.slice(0, limits.maxImages)) {
    const file = zip.file(name);
    if (file) images.push({ name: name.slice(name.lastIndexOf('/') + 1), bytes: await file.async('uint8array') });
  }
  return { images, found: names.length };
}

export function naturalOrder(left: string, right: string): number {
  return left.localeCompare(right, 'en', { numeric: true });
}
