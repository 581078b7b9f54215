// Real files made at test time (no committed binaries): a GBK Chinese text, PDFs (text pages, encrypted, broken),
// a DOCX with an embedded image, an XLSX, a PPTX, and a zip bomb dressed as a DOCX.
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';

export const GBK_TEXT = '这是一个用 GBK 编码保存的中文文本文件。\n第二行：用户常用的旧编码，记事本默认就是它。\n';

export function gbkText(text = GBK_TEXT): Buffer {
  return iconv.encode(text, 'gbk');
}

export function utf16Text(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf16-le')]);
}

/** A text PDF: each page says which it is and carries a line of filler. */
export async function textPdf(
  pages: number,
  line = (page: number) => `Page ${page}: the quarterly figures.`,
): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page++) {
    const sheet = document.addPage([595, 842]);
    sheet.drawText(line(page), { x: 50, y: 780, font, size: 12 });
    for (let row = 0; row < 20; row++)
      sheet.drawText(`Row ${row + 1} of page ${page}, revenue ${1000 + row * page} units.`, {
        x: 50,
        y: 740 - row * 30,
        font,
        size: 11,
      });
  }
  return document.save();
}

/** A `size`×`size` PNG of one colour. */
export function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const png = new PNG({ width: size, height: size });
  for (let p = 0; p < size * size; p++) png.data.set([r, g, b, 255], p * 4);
  return PNG.sync.write(png);
}

/**
 * A two-page PDF with pictures: page 1 a red and a green 48 px square and an 8 px mark (too small to be a picture),
 * page 2 a blue square.
 */
export async function imagePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const red = await document.embedPng(solidPng(48, [220, 20, 20]));
  const green = await document.embedPng(solidPng(48, [20, 200, 20]));
  const blue = await document.embedPng(solidPng(48, [20, 20, 220]));
  const mark = await document.embedPng(solidPng(8, [0, 0, 0]));
  const first = document.addPage([595, 842]);
  first.drawText('Figure 1 shows the red and green squares.', { x: 50, y: 780, font, size: 12 });
  first.drawImage(red, { x: 50, y: 600, width: 96, height: 96 });
  first.drawImage(green, { x: 200, y: 600, width: 96, height: 96 });
  first.drawImage(mark, { x: 400, y: 600, width: 8, height: 8 });
  const second = document.addPage([595, 842]);
  second.drawText('Figure 2 shows the blue square.', { x: 50, y: 780, font, size: 12 });
  second.drawImage(blue, { x: 50, y: 600, width: 96, height: 96 });
  return document.save();
}

/**
 * A PDF whose trailer names a standard security handler with a user password: readers must ask for the password.
 * Written by hand because no maintained JavaScript library writes encrypted PDFs.
 */
export function encryptedPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> /P -4 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${'33'.repeat(16)}> <${'33'.repeat(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The first bytes of a PDF and then nothing a reader can use. */
export function brokenPdf(): Buffer {
  return Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\n%% cut off here', 'latin1');
}

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const CONTENT_TYPES = (main: string, part: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/${part}" ContentType="${main}"/></Types>`;

const RELS = (target: string, type: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${type}" Target="${target}"/></Relationships>`;

const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A DOCX with the given paragraphs (and optionally embedded PNG images in word/media). */
export async function docx(paragraphs: string[], options: { images?: number; padding?: number } = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    CONTENT_TYPES(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      'word/document.xml',
    ),
  );
  zip.file('_rels/.rels', RELS('word/document.xml', OFFICE_DOCUMENT));
  const body = paragraphs
    .map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`)
    .join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  for (let index = 1; index <= (options.images ?? 0); index++) zip.file(`word/media/image${index}.png`, PNG_1X1);
  // A zip bomb: a large run of one byte compresses to almost nothing.
  if (options.padding) zip.file('word/padding.bin', Buffer.alloc(options.padding, 0x41));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A PPTX whose slides carry the given texts (paragraph per entry). */
export async function pptx(slides: string[][]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    CONTENT_TYPES(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      'ppt/presentation.xml',
    ),
  );
  zip.file('_rels/.rels', RELS('ppt/presentation.xml', OFFICE_DOCUMENT));
  zip.file(
    'ppt/presentation.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
  );
  slides.forEach((paragraphs, index) => {
    const body = paragraphs.map((text) => `<a:p><a:r><a:t>${escapeXml(text)}</a:t></a:r></a:p>`).join('');
    zip.file(
      `ppt/slides/slide${index + 1}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** An XLSX with one sheet per entry: name and rows. */
export async function xlsx(sheets: Array<{ name: string; rows: (string | number)[][] }>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    for (const row of sheet.rows) worksheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
