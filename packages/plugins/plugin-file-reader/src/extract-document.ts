// One entry point from a file's bytes to its text: the type sniffed from the content, the extractor for it, and
// the coded errors a person is told about (too large, encrypted, corrupt, a zip bomb, not a kind we read).
// The parsers are loaded on the first file of their kind: most processes never read a spreadsheet, and loading
// them all would slow every start.
import { decodeText } from './decode-text.js';
import type { ExtractedDocument, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import type { FileKind, SniffedFile } from './sniff-file.js';

export type Extraction = ExtractedDocument & { imagesFound: number };

export async function extractDocument(
  bytes: Uint8Array,
  sniffed: SniffedFile,
  limits: ExtractLimits,
): Promise<Extraction> {
  switch (sniffed.kind) {
    case 'pdf':
      return (await import('./extract-pdf.js')).extractPdf(bytes, limits);
    case 'docx':
      return (await import('./extract-docx.js')).extractDocx(bytes, limits);
    case 'xlsx':
      return (await import('./extract-xlsx.js')).extractXlsx(bytes, limits);
    case 'pptx':
      return (await import('./extract-pptx.js')).extractPptx(bytes, limits);
    case 'legacy-office':
      throw fileReaderErrors.AALIS_FILE_LEGACY_OFFICE();
    case 'image':
    case 'audio':
    case 'binary':
      throw fileReaderErrors.AALIS_FILE_UNSUPPORTED({ type: sniffed.mimeType });
    default:
      return extractText(bytes, sniffed.kind);
  }
}

function extractText(bytes: Uint8Array, kind: FileKind): Extraction {
  const decoded = decodeText(bytes);
  if (!decoded) throw fileReaderErrors.AALIS_FILE_UNSUPPORTED({ type: 'application/octet-stream' });
  const lines = decoded.text.replace(/\r\n?/g, '\n').split('\n');
  return {
    kind,
    unit: 'line',
    units: lines,
    totalUnits: lines.length,
    encoding: decoded.encoding,
    images: [],
    imagesFound: 0,
  };
}
