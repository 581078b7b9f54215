// The images inside a PDF page, as PNG files for the media service to describe. pdf.js decodes every image it paints
// (JPEG, Flate, CCITT, JBIG2 …) into pixels while it builds the page's operator list; they are taken from there and
// written as PNG with pngjs — no canvas, no rendering of the page. Bounded: marks and rules (under 24 px a side) are
// not images worth a description, images over 16 megapixels are counted but not converted, and at most `max` are
// handed back per document.
import { PNG } from 'pngjs';
import type { EmbeddedImage } from './extracted-document.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;

const MIN_SIDE = 24;
const MAX_PIXELS = 16_000_000;

/** pdf.js's decoded image (ImageKind: 1 = 1 bit grey, 2 = RGB, 3 = RGBA). */
interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

export interface ImageBudget {
  /** Images handed back so far, across the document's pages. */
  images: EmbeddedImage[];
  /** Distinct images found so far (described or not). */
  found: number;
  max: number;
}

export async function collectPageImages(page: PdfPage, pageNumber: number, OPS: PdfJs['OPS'], budget: ImageBudget) {
  const list = await page.getOperatorList();
  const seen = new Set<string>();
  for (let index = 0; index < list.fnArray.length; index++) {
    const fn = list.fnArray[index];
    let image: DecodedImage | undefined;
    if (fn === OPS.paintImageXObject || fn === OPS.paintImageXObjectRepeat) {
      const name = String((list.argsArray[index] as unknown[])[0]);
      if (seen.has(name)) continue;
      seen.add(name);
      image = await objectOf(page, name);
    } else if (fn === OPS.paintInlineImageXObject) {
      image = (list.argsArray[index] as unknown[])[0] as DecodedImage;
    } else continue;
    if (!image || image.width < MIN_SIDE || image.height < MIN_SIDE) continue;
    budget.found += 1;
    if (budget.images.length >= budget.max || image.width * image.height > MAX_PIXELS) continue;
    const rgba = toRgba(image);
    if (!rgba) continue;
    const png = new PNG({ width: image.width, height: image.height });
    png.data = rgba;
    budget.images.push({
      name: `page${pageNumber}-image${budget.images.length + 1}.png`,
      bytes: PNG.sync.write(png),
    });
  }
}

/** An image object of the page (or of the document, for names pdf.js shares across pages: `g_…`). */
function objectOf(page: PdfPage, name: string): Promise<DecodedImage | undefined> {
  const objects = name.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      if (objects.has(name)) resolve(objects.get(name) as DecodedImage);
      else objects.get(name, (value: unknown) => resolve(value as DecodedImage));
    } catch {
      resolve(undefined);
    }
  });
}

function toRgba({ width, height, kind, data }: DecodedImage): Buffer | undefined {
  if (!data) return undefined;
  const pixels = width * height;
  const out = Buffer.alloc(pixels * 4);
  if (kind === 3 && data.length >= pixels * 4) {
    out.set(data.subarray(0, pixels * 4));
  } else if (kind === 2 && data.length >= pixels * 3) {
    for (let p = 0; p < pixels; p++) {
      out[p * 4] = data[p * 3]!;
      out[p * 4 + 1] = data[p * 3 + 1]!;
      out[p * 4 + 2] = data[p * 3 + 2]!;
      out[p * 4 + 3] = 255;
    }
  } else if (kind === 1) {
    // One bit per pixel, rows padded to whole bytes; a set bit is white, as pdf.js paints it.
    const rowBytes = Math.ceil(width / 8);
    if (data.length < rowBytes * height) return undefined;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const on = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        const p = (y * width + x) * 4;
        out[p] = out[p + 1] = out[p + 2] = on ? 255 : 0;
        out[p + 3] = 255;
      }
  } else return undefined;
  return out;
}
