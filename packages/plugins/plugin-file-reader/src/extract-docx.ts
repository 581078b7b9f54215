// DOCX → text through mammoth (paragraphs as lines), after the archive passed its bounds.
import mammoth from 'mammoth';
import type { ExtractedDocument, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { archiveImages, boundedArchive, openArchive } from './office-archive.js';

export async function extractDocx(
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument & { imagesFound: number }> {
  const entries = boundedArchive(bytes, 'DOCX', limits);
  if (!entries.includes('word/document.xml')) {
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'DOCX', reason: 'no word/document.xml' });
  }
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch (error) {
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'DOCX', reason: (error as Error).message });
  }
  const { images, found } = await archiveImages(await openArchive(bytes, 'DOCX'), entries, limits);
  // mammoth ends every paragraph with a blank line; one line break per paragraph reads the same and costs less.
  const lines = text
    .replace(/\n{3,}/g, '\n\n')
    .split('\n\n')
    .map((line) => line.trimEnd());
  return { kind: 'docx', unit: 'line', units: lines, totalUnits: lines.length, images, imagesFound: found };
}
