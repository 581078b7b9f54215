// PDF → text per page through Mozilla's pdf.js (its Node build), and the images painted on the pages read (for the
// media service to describe, bounded per document). A password or a broken file is a coded error.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtractedDocument, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { collectPageImages, type ImageBudget } from './pdf-images.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
// Loaded on the first PDF: the library is large and most processes never read one.
// In Node pdf.js runs its worker in-process ("fake worker"), importing pdf.worker.mjs by a path relative to itself,
// which a bundle (the aalis command's) does not have: handing it the worker module here works in both.
const loadPdfJs = () =>
  (pdfjs ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })());

// The standard fonts ship inside the package; without them pdf.js warns on every PDF that uses a base-14 font.
const standardFontDataUrl = `${pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')).href}/`;

export async function extractPdf(
  bytes: Uint8Array,
  limits: Pick<ExtractLimits, 'maxPages' | 'maxImages'>,
): Promise<ExtractedDocument & { imagesFound: number }> {
  const { getDocument, OPS } = await loadPdfJs();
  // pdf.js takes ownership of the buffer it is given (it transfers it); a copy keeps the caller's bytes intact.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw fileReaderErrors.AALIS_FILE_ENCRYPTED({ kind: 'PDF' });
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'PDF', reason: (error as Error).message ?? String(error) });
  }
  try {
    const total = document.numPages;
    const read = Math.min(total, limits.maxPages);
    const units: string[] = [];
    const budget: ImageBudget = { images: [], found: 0, max: limits.maxImages };
    for (let number = 1; number <= read; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      units.push(text.trim());
      if (limits.maxImages > 0) await collectPageImages(page, number, OPS, budget);
      page.cleanup();
    }
    return { kind: 'pdf', unit: 'page', units, totalUnits: total, images: budget.images, imagesFound: budget.found };
  } catch (error) {
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'PDF', reason: (error as Error).message ?? String(error) });
  } finally {
    await document.destroy().catch(() => {});
  }
}
