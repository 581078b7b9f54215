// PPTX → text per slide: the slides' XML read from the archive (JSZip), each paragraph's runs (<a:t>) joined,
// slides in their number order. The archive's bounds are checked first.
import type { ExtractedDocument, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { archiveImages, boundedArchive, naturalOrder, openArchive } from './office-archive.js';

const SLIDE = /^ppt\/slides\/slide\d+\.xml$/;

export async function extractPptx(
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument & { imagesFound: number }> {
  const entries = boundedArchive(bytes, 'PPTX', limits);
  const slides = entries.filter((name) => SLIDE.test(name)).sort(naturalOrder);
  if (slides.length === 0) throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'PPTX', reason: 'no slides' });
  const zip = await openArchive(bytes, 'PPTX');
  const units: string[] = [];
  for (const name of slides.slice(0, limits.maxPages)) {
    const xml = (await zip.file(name)?.async('string')) ?? '';
    units.push(slideText(xml));
  }
  const { images, found } = await archiveImages(zip, entries, limits);
  return { kind: 'pptx', unit: 'slide', units, totalUnits: slides.length, images, imagesFound: found };
}

/** The text of one slide: paragraphs (<a:p>) on their own lines, runs (<a:t>) within them joined. */
export function slideText(xml: string): string {
  const paragraphs: string[] = [];
  for (const paragraph of xml.split(/<\/a:p>/)) {
    let line = '';
    for (const run of paragraph.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g)) line += decodeXmlText(run[1] ?? '');
    if (line.trim() !== '') paragraphs.push(line);
  }
  return paragraphs.join('\n');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character data: the five named entities and numeric references (the only ones XML has). */
function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}
