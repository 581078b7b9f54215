// The reader on real files made at test time: encodings, PDF, DOCX, XLSX, PPTX, CSV; short and long documents;
// every refusal (size, encryption, corruption, zip bomb, unsupported type) as a clear sentence that names the limit.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type I18n, translate } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReader } from './file-reader.js';
import { type FileReaderConfig, fileReaderConfigSchema } from './file-reader-config.js';
import { readUploadedFileTool } from './read-uploaded-file-tool.js';
import {
  brokenPdf,
  docx,
  encryptedPdf,
  gbkText,
  imagePdf,
  PNG_1X1,
  pptx,
  textPdf,
  utf16Text,
  xlsx,
} from './test-files.case.js';
import { UploadStore } from './upload-store.js';

const directory = mkdtempSync(join(tmpdir(), 'aalis-file-reader-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const zh: I18n = { locale: 'zh-CN', t: (text) => translate(text, 'zh-CN') };
const en: I18n = { locale: 'en', t: (text) => translate(text, 'en') };

function readerWith(
  overrides: Partial<FileReaderConfig> = {},
  options: { i18n?: I18n; describeImage?: (image: Attachment) => Promise<string | undefined> } = {},
) {
  const config = { ...fileReaderConfigSchema.validate({}).value, ...overrides } as FileReaderConfig;
  const store = new UploadStore(join(directory, 'uploads'));
  return {
    reader: new FileReader({
      config,
      store,
      i18n: options.i18n ?? zh,
      ...(options.describeImage ? { describeImage: options.describeImage } : {}),
    }),
    store,
  };
}

const file = (bytes: Uint8Array, name: string): Attachment => ({
  type: 'file',
  name,
  data: Buffer.from(bytes).toString('base64'),
});

describe('FileReader', () => {
  it('reads a GBK Chinese text file and says which encoding it found', async () => {
    const { reader } = readerWith();
    const { attachment, failure } = await reader.read(file(gbkText(), 'notes.txt'), 's1');
    expect(failure).toBeUndefined();
    expect(attachment.description).toContain('这是一个用 GBK 编码保存的中文文本文件。');
    expect(attachment.description).toContain('编码 GB18030');
    expect(attachment.data).toBeUndefined();
    expect(attachment.url).toBeUndefined();
    expect(attachment.description).toMatch(/^文件 id f[0-9a-f]{16}，/);
  });

  it('reads UTF-16 with a byte-order mark and plain UTF-8 code', async () => {
    const { reader } = readerWith();
    const utf16 = await reader.read(file(utf16Text('第一行\nsecond line'), 'a.txt'), 's1');
    expect(utf16.attachment.description).toContain('第一行\nsecond line');
    expect(utf16.attachment.description).toContain('UTF-16LE');
    const code = await reader.read(file(Buffer.from('export const x = 1; // 注释'), 'x.ts'), 's1');
    expect(code.attachment.description).toContain('export const x = 1; // 注释');
  });

  it('reads a PDF page by page, a DOCX, an XLSX, a CSV and a PPTX', async () => {
    const { reader } = readerWith({}, { i18n: en });
    const pdf = await reader.read(file(await textPdf(2), 'report.pdf'), 's1');
    expect(pdf.attachment.description).toContain('PDF, 2 pages');
    expect(pdf.attachment.description).toContain('Page 2: the quarterly figures.');
    expect(pdf.attachment.mimeType).toBe('application/pdf');
    const word = await reader.read(
      file(await docx(['Minutes of the meeting', '会议纪要：预算通过。']), 'minutes.docx'),
      's1',
    );
    expect(word.attachment.description).toContain('Word document');
    expect(word.attachment.description).toContain('会议纪要：预算通过。');
    const sheet = await reader.read(
      file(
        await xlsx([
          {
            name: 'Q1',
            rows: [
              ['month', 'sales'],
              ['Jan', 120],
            ],
          },
        ]),
        'sales.xlsx',
      ),
      's1',
    );
    expect(sheet.attachment.description).toContain('# Q1\nmonth\tsales\nJan\t120');
    const csv = await reader.read(file(gbkText('城市,人口\n上海,2487\n'), 'cities.csv'), 's1');
    expect(csv.attachment.description).toContain('CSV table');
    expect(csv.attachment.description).toContain('上海,2487');
    const slides = await reader.read(
      file(await pptx([['Title & intro'], ['Second slide', 'a point']]), 'deck.pptx'),
      's1',
    );
    expect(slides.attachment.description).toContain('PowerPoint presentation, 2 slides');
    expect(slides.attachment.description).toContain('Title & intro\n\nSecond slide\na point');
  });

  it('gives a long document as an outline, and read_uploaded_file pages through it', async () => {
    const { reader, store } = readerWith({ inlineChars: 2_000, partChars: 3_000 }, { i18n: en });
    const { attachment } = await reader.read(file(await textPdf(30), 'long.pdf'), 'session-a');
    const id = /File id (f[0-9a-f]{16})/.exec(attachment.description!)![1]!;
    expect(attachment.description).toContain(`File id ${id}, PDF, 30 pages`);
    expect(attachment.description).toContain('Outline:');
    expect(attachment.description).toMatch(/Part 1 \(pages 1–\d+\): Page 1: the quarterly figures\./);
    expect(attachment.description).not.toContain('Row 20 of page 30');
    const tool = readUploadedFileTool(store, en);
    const context = { sessionId: 'session-a' } as Parameters<typeof tool.handler>[1];
    const parts = Number(/in (\d+) parts/.exec(attachment.description!)![1]);
    const last = String(await tool.handler({ fileId: id, part: parts }, context));
    expect(last).toContain(`part ${parts}/${parts}`);
    expect(last).toContain('Row 20 of page 30');
    await expect(tool.handler({ fileId: id, part: parts + 1 }, context)).rejects.toMatchObject({
      code: 'AALIS_FILE_PART_OUT_OF_RANGE',
    });
    // Another session cannot read it.
    await expect(tool.handler({ fileId: id }, { ...context, sessionId: 'session-b' })).rejects.toMatchObject({
      code: 'AALIS_FILE_NOT_FOUND',
    });
  });

  it('reads only maxPages pages and says so, naming the limit', async () => {
    const { reader } = readerWith({ maxPages: 3 });
    const { attachment, failure } = await reader.read(file(await textPdf(5), 'five.pdf'), 's1');
    expect(failure).toBeUndefined();
    expect(attachment.description).toContain('只读了前 3 页（共 5），上限是 plugins.file-reader.maxPages = 3。');
    expect(attachment.description).not.toContain('Page 4:');
  });

  it('refuses what it cannot read with a clear sentence, keeping the name', async () => {
    const { reader } = readerWith({ maxFileBytes: 4_096, maxExpandedBytes: 1_000_000 });
    const cases: Array<[Attachment, RegExp]> = [
      [file(Buffer.alloc(10_000, 0x41), 'big.txt'), /超过了上限 plugins\.file-reader\.maxFileBytes = 4096 字节/],
      [file(encryptedPdf(), 'secret.pdf'), /它加了密码（PDF）/],
      [file(brokenPdf(), 'broken.pdf'), /它不是一个完好的 PDF 文件/],
      [
        file(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0x00, 0x10]), 'blob.bin'),
        /这种文件（application\/octet-stream）读不了/,
      ],
      [{ type: 'file', name: 'remote.pdf', url: 'https://example.invalid/remote.pdf' }, /附件没有带内容/],
    ];
    for (const [attachment, reason] of cases) {
      const result = await reader.read(attachment, 's1');
      expect(result.failure, attachment.name).toBeDefined();
      expect(zh.t(result.failure!)).toMatch(reason);
      expect(zh.t(result.failure!)).toContain(`文件 ${attachment.name} 没能读出来`);
      expect(result.attachment.name).toBe(attachment.name);
      expect(result.attachment.description).toMatch(reason);
    }
    // A zip bomb dressed as a DOCX (2 MB of one byte, a few KB compressed) is refused before any parser inflates it.
    const bomb = await docx(['hello'], { padding: 2_000_000 });
    expect(bomb.length).toBeLessThan(4_096);
    const refused = await reader.read(file(bomb, 'bomb.docx'), 's1');
    expect(zh.t(refused.failure!)).toContain('plugins.file-reader.maxExpandedBytes = 1000000');
  });

  it('hands an image or audio sent as a file on as that kind, for the media service', async () => {
    const { reader } = readerWith();
    const { attachment } = await reader.read(file(PNG_1X1, 'photo.dat'), 's1');
    expect(attachment).toMatchObject({ type: 'image', mimeType: 'image/png', name: 'photo.dat' });
  });

  it('describes images inside a document through media, bounded per document', async () => {
    const described: string[] = [];
    const { reader } = readerWith(
      { maxImagesPerDocument: 2 },
      {
        i18n: en,
        describeImage: async (image) => {
          described.push(image.name!);
          return `a tiny picture (${image.mimeType})`;
        },
      },
    );
    const { attachment } = await reader.read(file(await docx(['With pictures'], { images: 3 }), 'pics.docx'), 's1');
    expect(described).toEqual(['image1.png', 'image2.png']);
    expect(attachment.description).toContain('1. image1.png: a tiny picture (image/png)');
    expect(attachment.description).toContain('1 more image was not described (at most 2 per document');
  });

  it('describes the pictures inside a PDF through media, bounded per document, marks left out', async () => {
    const described: { name: string; colour: number[] }[] = [];
    const { reader } = readerWith(
      { maxImagesPerDocument: 2 },
      {
        i18n: en,
        describeImage: async (image) => {
          const png = PNG.sync.read(Buffer.from(image.data!, 'base64'));
          described.push({ name: image.name!, colour: [...png.data.subarray(0, 3)] });
          return `a ${png.width}×${png.height} square (${image.mimeType})`;
        },
      },
    );
    const { attachment } = await reader.read(file(await imagePdf(), 'figures.pdf'), 's1');
    expect(described).toEqual([
      { name: 'page1-image1.png', colour: [220, 20, 20] },
      { name: 'page1-image2.png', colour: [20, 200, 20] },
    ]);
    expect(attachment.description).toContain('Figure 1 shows the red and green squares.');
    expect(attachment.description).toContain('1. page1-image1.png: a 48×48 square (image/png)');
    // The blue square of page 2 is found but over the bound; the 8 px mark is no picture.
    expect(attachment.description).toContain('1 more image was not described (at most 2 per document');
  });

  it('removes files after their retention time', async () => {
    const local = mkdtempSync(join(tmpdir(), 'aalis-uploads-'));
    const store = new UploadStore(local);
    const config = { ...fileReaderConfigSchema.validate({}).value, retentionHours: 1 } as FileReaderConfig;
    const reader = new FileReader({ config, store, i18n: en });
    const { attachment } = await reader.read(file(Buffer.from('keep me for a while'), 'a.txt'), 's1');
    const id = /File id (f[0-9a-f]{16})/.exec(attachment.description!)![1]!;
    expect(await store.record(id)).toBeDefined();
    expect(await store.sweep(Date.now())).toBe(0);
    expect(await store.sweep(Date.now() + 2 * 3_600_000)).toBe(1);
    expect(readdirSync(local)).toEqual([]);
    rmSync(local, { recursive: true, force: true });
  });
});
