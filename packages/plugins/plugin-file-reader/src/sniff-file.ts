// What a file is, from its bytes (file-type), not from its name: a PDF named .txt is a PDF, a text file named .png
// is text. The name only tells text apart (Markdown, CSV or plain) once the bytes said it is text.
import { fileTypeFromBuffer } from 'file-type';

export type FileKind = 'text' | 'markdown' | 'csv' | 'pdf' | 'docx' | 'xlsx' | 'pptx';

export type SniffedFile =
  | { kind: FileKind }
  | { kind: 'image'; mimeType: string }
  | { kind: 'audio'; mimeType: string }
  | { kind: 'legacy-office' }
  | { kind: 'binary'; mimeType: string };

const OFFICE: Record<string, FileKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

export async function sniffFile(bytes: Uint8Array, name: string | undefined): Promise<SniffedFile> {
  // A byte-order mark is text whatever else the bytes resemble (FF FE also starts an MPEG audio frame).
  const bom =
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
  const detected = bom ? undefined : await fileTypeFromBuffer(bytes);
  if (detected) {
    if (detected.mime === 'application/pdf') return { kind: 'pdf' };
    const office = OFFICE[detected.mime];
    if (office) return { kind: office };
    // An OLE compound file: an encrypted DOCX/XLSX/PPTX or a pre-2007 .doc/.xls/.ppt.
    if (detected.mime === 'application/x-cfb') return { kind: 'legacy-office' };
    if (detected.mime.startsWith('image/')) return { kind: 'image', mimeType: detected.mime };
    if (detected.mime.startsWith('audio/') || detected.mime === 'video/ogg' || detected.ext === 'amr')
      return { kind: 'audio', mimeType: detected.mime };
    // file-type reads XML and some text formats too; those stay text.
    if (!/^(application\/xml|text\/)/.test(detected.mime)) return { kind: 'binary', mimeType: detected.mime };
  }
  const extension = /\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase();
  if (extension === 'md' || extension === 'markdown') return { kind: 'markdown' };
  if (extension === 'csv' || extension === 'tsv') return { kind: 'csv' };
  return { kind: 'text' };
}
